/**
 * `npm run bench:packed-pass`: what one decoder pass costs with 1, 2, 4 and 8 pages' rows packed
 * into it (one greedy row per page, each page's lane holding a prompt), against the same pass for one
 * page: the ceiling of what `--pages-in-flight` gains in decode tokens/s. Rows are random embeddings:
 * a pass's cost does not depend on what they say.
 * Options: --model DIR (default: the tiny package), --prompt N (300 rows held per page), --steps N (10
 * passes timed per count), --lanes LIST (1,2,4,8). Last, what `--pages-in-flight auto` would choose
 * from these timings. A benchmark prints; it asserts nothing.
 */

import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { openModelPackage } from '../../electron/engine/vlm/model-package.js';
import { MAX_SPEC_K } from '../../shared/conversion-defaults.js';
import { ModelRunner } from '../../electron/engine/vlm/model-runner.js';
import { pageCacheBytes } from '../../electron/engine/vlm/packed-pass-costs.js';
import { choosePagesInFlight, type PackedPassCost } from '../../electron/engine/vlm/pages-in-flight-choice.js';
import { REPO_ROOT } from './bench-set.js';

const TINY_PACKAGE = path.join(REPO_ROOT, 'tools/model/fixtures/tiny');

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { model: { type: 'string' }, prompt: { type: 'string' }, steps: { type: 'string' }, lanes: { type: 'string' } } });
  const modelDir = path.resolve(values.model ?? TINY_PACKAGE);
  const prompt = whole(values.prompt ?? '300', '--prompt');
  const steps = whole(values.steps ?? '10', '--steps');
  const counts = (values.lanes ?? '1,2,4,8').split(',').map((text) => whole(text, '--lanes'));
  const pkg = await openModelPackage(modelDir, { device: { kind: 'cpu' } });
  try {
    const runner = new ModelRunner(pkg);
    console.log(`${pkg.manifest.name} (${modelDir}, ${pkg.manifest.precision}), ${pkg.decoderGraph} on the CPU; ${prompt} rows held per page, ${steps} passes each; load ${os.loadavg()[0]?.toFixed(1)} on ${os.cpus().length} cores\n`);
    console.log('pages | ms per pass | of it in session.run | ms per page row | rows/s against 1 page');
    const random = (rows: number) => new Float32Array(rows * runner.hidden).map(() => (Math.random() - 0.5) * 0.1);
    let single = 0;
    const costs: PackedPassCost[] = [];
    for (const lanes of counts) {
      const { decoder } = runner.packedCaches(lanes);
      const caches = Array.from({ length: lanes }, (_, lane) => decoder.lane(lane));
      for (const cache of caches) await runner.decode(cache, random(prompt), 1);
      const runBefore = runner.runMs;
      const started = performance.now();
      for (let step = 0; step < steps; step++) await runner.packed('decoder', decoder, caches.map((cache) => ({ cache, embeds: random(1), logits: 1 })));
      const ms = (performance.now() - started) / steps;
      if (lanes === counts[0]) single = ms / lanes;
      costs.push({ pages: lanes, ms });
      console.log(`${String(lanes).padStart(5)} | ${ms.toFixed(1).padStart(11)} | ${((runner.runMs - runBefore) / steps).toFixed(1).padStart(20)} | ${(ms / lanes).toFixed(2).padStart(15)} | ${(single / (ms / lanes)).toFixed(2)}x`);
    }
    // what `--pages-in-flight auto` would choose from these (mean, not least, times) for a page of the package's last mode at 1,000 tokens
    const mode = pkg.manifest.vision.resolution_modes.at(-1);
    if (costs[0]?.pages === 1 && mode) {
      const bytesPerPage = pageCacheBytes(pkg.manifest, mode, 1000, runner.hasMtp ? MAX_SPEC_K : 0, runner.hasMtp);
      console.log(`\n${choosePagesInFlight(costs, { bytesPerPage, freeBytes: os.freemem() }).reason}`);
    }
  } finally {
    await pkg.release();
  }
}

function whole(text: string, flag: string): number {
  const value = Number(text);
  if (!Number.isInteger(value) || value < 1) throw new Error(`${flag} "${text}" is not a positive whole number`);
  return value;
}

await main();
