/**
 * `node dist/tools/bench/bench-vlm-steps.js --model DIR`: what one decoding step of a package costs
 * on the CPU, without a page: a prefill of `--context N` random rows (default 900, about a Gundam
 * page's prompt), then `--steps N` greedy steps (default 15), verify passes of K+1 rows for
 * K = 1, 3, 4 (each rolled back), and single-row MTP passes. Prints wall and CPU milliseconds per
 * pass (CPU time is what a shared machine's load changes least) and the process's resident memory.
 * Made for real-width packages with random weights (tools/model/random_checkpoint.py, then `folio export-model`).
 * A benchmark prints; it asserts nothing.
 */

import path from 'node:path';
import { parseArgs } from 'node:util';
import { openModelPackage } from '../../electron/engine/vlm/model-package.js';
import { ModelRunner } from '../../electron/engine/vlm/model-runner.js';

interface Timing {
  wallMs: number;
  cpuMs: number;
}

async function timed(count: number, pass: () => Promise<void>): Promise<Timing> {
  const cpu = process.cpuUsage();
  const started = performance.now();
  for (let i = 0; i < count; i++) await pass();
  const used = process.cpuUsage(cpu);
  return { wallMs: (performance.now() - started) / count, cpuMs: (used.user + used.system) / 1000 / count };
}

function line(what: string, timing: Timing, greedy?: Timing): string {
  const ratio = greedy ? `, ${(timing.cpuMs / greedy.cpuMs).toFixed(2)}x a greedy step's CPU` : '';
  return `${what.padEnd(24)} ${timing.wallMs.toFixed(1).padStart(7)} ms wall ${timing.cpuMs.toFixed(1).padStart(7)} ms CPU${ratio}`;
}

function positive(text: string, flag: string): number {
  const value = Number(text);
  if (!Number.isInteger(value) || value < 1) throw new Error(`${flag} "${text}" is not a positive whole number.`);
  return value;
}

const rssMb = (): string => `${(process.memoryUsage().rss / 1024 / 1024).toFixed(0)} MB`;

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { model: { type: 'string' }, context: { type: 'string' }, steps: { type: 'string' }, threads: { type: 'string' } } });
  if (!values.model) throw new Error('--model DIR is required: a package folder written by `folio export-model` or `folio model get`.');
  const context = positive(values.context ?? '900', '--context');
  const steps = positive(values.steps ?? '15', '--steps');
  const opening = performance.now();
  const pkg = await openModelPackage(path.resolve(values.model), { device: { kind: 'cpu' }, skipChecksums: true, ...(values.threads && { threads: positive(values.threads, '--threads') }) });
  try {
    console.log(`${pkg.manifest.name} (${values.model}), graph ${pkg.decoderGraph}: opened in ${((performance.now() - opening) / 1000).toFixed(1)} s, ${rssMb()} resident`);
    const runner = new ModelRunner(pkg);
    const rows = (count: number): Float32Array => Float32Array.from({ length: count * runner.hidden }, (_, i) => Math.sin(i) * 0.05);
    const cache = runner.decoderCache(context + steps + 8);
    const prefill = await timed(1, async () => {
      await runner.decode(cache, rows(context), 1);
    });
    console.log(`prefill of ${context} rows: ${(prefill.wallMs / 1000).toFixed(1)} s wall, ${(prefill.cpuMs / 1000).toFixed(1)} s CPU`);
    const step = rows(1);
    const greedy = await timed(steps, async () => {
      const out = await runner.decode(cache, step, 1);
      await runner.chooseTokens(out.logits, [new Set<number>()]);
    });
    console.log(line('greedy step', greedy));
    for (const k of [1, 3, 4]) {
      const verify = await timed(5, async () => {
        const length = cache.length;
        await runner.decode(cache, rows(k + 1), k + 1);
        cache.truncate(length);
      });
      console.log(line(`verify, K = ${k}`, verify, greedy));
    }
    if (runner.hasMtp) {
      const draftCache = runner.mtpCache(context + 16);
      await runner.mtp(draftCache, rows(context), rows(context));
      console.log(line('MTP pass', await timed(5, async () => void (await runner.mtp(draftCache, step, step))), greedy));
    }
    console.log(`resident at the end: ${rssMb()}`);
  } finally {
    await pkg.release();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
