/**
 * `npm run bench:pass-shapes`: how far a package's logits move when the same tokens reach the
 * decoder in passes of another shape, and whether that is packing's doing. For each of four
 * prompts of random token ids, greedy decoding alone is the reference; beside it, forced on the
 * reference's tokens, (a) the same page alone with its prompt split into two passes, which is the
 * same arithmetic in other shapes, and (b) the four pages packed into shared passes
 * (`--pages-in-flight`). If (b) moves the logits no more than (a), a page whose text changes with
 * the pages in flight met a near-tie that the kernels' rounding decides, not a packing fault; the
 * top-2 margins of the reference say how close its choices were.
 * Options: --model DIR (default: the tiny package), --steps N (40). A benchmark prints; it asserts nothing.
 */

import path from 'node:path';
import { parseArgs } from 'node:util';
import { openModelPackage } from '../../electron/engine/vlm/model-package.js';
import { ModelRunner, type PassLogits } from '../../electron/engine/vlm/model-runner.js';
import { REPO_ROOT } from './bench-set.js';

const TINY_PACKAGE = path.join(REPO_ROOT, 'tools/model/fixtures/tiny');
const PROMPTS = 4;
const SPLIT_AT = 20;

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { model: { type: 'string' }, steps: { type: 'string' } } });
  const modelDir = path.resolve(values.model ?? TINY_PACKAGE);
  const steps = Number(values.steps ?? '40');
  if (!Number.isInteger(steps) || steps < 1) throw new Error(`--steps "${values.steps}" is not a positive whole number`);
  const pkg = await openModelPackage(modelDir, { device: { kind: 'cpu' } });
  try {
    const runner = new ModelRunner(pkg);
    const hidden = runner.hidden;
    const host = (logits: PassLogits): Float32Array => {
      if (!(logits instanceof Float32Array)) throw new Error('this benchmark reads float32 logits on the host');
      return logits.slice();
    };
    let seed = 7;
    // ordinary text ids: above the special tokens at the vocabulary's start
    const low = Math.min(1000, runner.vocab >> 1);
    const nextId = () => low + ((seed = (seed * 16807) % 2147483647) % (Math.min(50_000, runner.vocab) - low));
    const prompts = Array.from({ length: PROMPTS }, (_, p) => Array.from({ length: SPLIT_AT + 10 + 5 * p }, nextId));

    const reference: { logits: Float32Array[]; tokens: number[] }[] = [];
    const split: Float32Array[][] = [];
    for (const prompt of prompts) {
      const whole = runner.decoderCache(prompt.length + steps + 1);
      const parted = runner.decoderCache(prompt.length + steps + 1);
      const embeds = await runner.embed(prompt);
      let one = await runner.decode(whole, embeds.slice(), 1);
      await runner.decode(parted, embeds.slice(0, SPLIT_AT * hidden), 1);
      let two = await runner.decode(parted, embeds.slice(SPLIT_AT * hidden), 1);
      const run = { logits: [] as Float32Array[], tokens: [] as number[] };
      const other: Float32Array[] = [];
      for (let step = 0; step < steps; step++) {
        const logits = host(one.logits);
        run.logits.push(logits);
        other.push(host(two.logits));
        const token = topTwo(logits).token;
        run.tokens.push(token);
        one = await runner.decode(whole, await runner.embed([token]), 1);
        two = await runner.decode(parted, await runner.embed([token]), 1);
      }
      reference.push(run);
      split.push(other);
    }

    const { decoder } = runner.packedCaches(PROMPTS);
    const lanes = prompts.map((_, lane) => decoder.lane(lane));
    const packed: Float32Array[][] = prompts.map(() => []);
    let outs = await runner.packed('decoder', decoder, await Promise.all(prompts.map(async (ids, p) => ({ cache: lanes[p]!, embeds: await runner.embed(ids), logits: 1 }))));
    for (let step = 0; step < steps; step++) {
      outs.forEach((out, p) => packed[p]!.push(host(out.logits)));
      outs = await runner.packed('decoder', decoder, await Promise.all(reference.map(async (run, p) => ({ cache: lanes[p]!, embeds: await runner.embed([run.tokens[step]!]), logits: 1 }))));
    }

    console.log(`${pkg.manifest.name} (${modelDir}, ${pkg.manifest.precision}), ${pkg.decoderGraph} on the CPU; ${PROMPTS} prompts of random ids, ${steps} greedy steps\n`);
    console.log('prompt | largest logit change: prompt in two passes | packed with 3 other pages | reference top-2 margin: smallest | median');
    reference.forEach((run, p) => {
      const margins = run.logits.map((logits) => topTwo(logits).margin).sort((a, b) => a - b);
      const worst = (other: Float32Array[]) => Math.max(...other.map((logits, step) => largestChange(run.logits[step]!, logits)));
      console.log(`${String(p + 1).padStart(6)} | ${worst(split[p]!).toExponential(1).padStart(42)} | ${worst(packed[p]!).toExponential(1).padStart(25)} | ${margins[0]!.toExponential(1).padStart(32)} | ${margins[margins.length >> 1]!.toExponential(1)}`);
    });
  } finally {
    await pkg.release();
  }
}

function topTwo(logits: Float32Array): { token: number; margin: number } {
  let best = 0;
  let second = -1;
  for (let i = 1; i < logits.length; i++) {
    if (logits[i]! > logits[best]!) {
      second = best;
      best = i;
    } else if (second < 0 || logits[i]! > logits[second]!) second = i;
  }
  return { token: best, margin: logits[best]! - logits[second]! };
}

function largestChange(a: Float32Array, b: Float32Array): number {
  let most = 0;
  for (let i = 0; i < a.length; i++) most = Math.max(most, Math.abs(a[i]! - b[i]!));
  return most;
}

await main();
