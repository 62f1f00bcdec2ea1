// A decoder exported with `--cache-layout capacity` (each layer's cache read in place at capacity,
// for the CPU, instead of joined to the new rows every step) computes what the default `rows`
// layout computes: the same logits over a prompt, greedy steps that grow the cache past a block,
// and a multi-row verify pass whose rejected rows are rolled back. Small builder packages (decoder
// width 256) made by the export tooling; the CPU provider. fp32, not int4: int4's MatMulNBits
// quantise their activations to int8, which turns the layouts' 1e-6 differences into 1e-2 where a
// value sits on a rounding step (measured), hiding whether the attention itself agrees.
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CapacityDecoderCache } from '../electron/engine/vlm/capacity-decoder-cache.js';
import { openModelPackage, type ModelPackage } from '../electron/engine/vlm/model-package.js';
import { isTensor, ModelRunner, type DecoderCache, type PassOutput } from '../electron/engine/vlm/model-runner.js';

const run = promisify(execFile);
const model = path.resolve(import.meta.dirname, '../tools/model');
const python = '/usr/bin/python3';
// fp32 arithmetic in a different order (MatMul over the capacity against MultiHeadAttention over
// the joined rows): measured differences are at most 3e-6 of the largest logit.
const RELATIVE_TOLERANCE = 1e-4;
const PROMPT_ROWS = 100;
const STEPS = 40; // 100 + 40 rows cross the 128-row block boundary

let folder: string;
const packages: ModelPackage[] = [];

async function exportPackage(checkpoint: string, layout: string, precision: string): Promise<void> {
  await run(python, ['export.py', '--checkpoint', checkpoint, '--out', path.join(folder, `${precision}-${layout}`),
    '--precision', precision, '--modes', 'small', '--cache-layout', layout], { cwd: model });
}

async function runner(dir: string): Promise<ModelRunner> {
  const pkg = await openModelPackage(dir, { device: { kind: 'cpu' }, skipChecksums: true, threads: 1 });
  packages.push(pkg);
  return new ModelRunner(pkg);
}

function logits(out: PassOutput): Float32Array {
  if (isTensor(out.logits) || !(out.logits instanceof Float32Array)) throw new Error('expected float32 host logits from the CPU provider');
  return out.logits;
}

function relativeDifference(actual: Float32Array, expected: Float32Array): number {
  expect(actual.length).toBe(expected.length);
  const largest = expected.reduce((most, value) => Math.max(most, Math.abs(value)), 0);
  return expected.reduce((worst, value, i) => Math.max(worst, Math.abs((actual[i] ?? Number.NaN) - value)), 0) / largest;
}

function argmax(row: Float32Array, vocab: number, index: number): number {
  let best = 0;
  for (let i = 1; i < vocab; i++) if ((row[index * vocab + i] ?? 0) > (row[index * vocab + best] ?? 0)) best = i;
  return best;
}

describe('the decoder with its cache at capacity', () => {
  beforeAll(async () => {
    folder = await mkdtemp(path.join(tmpdir(), 'folio-capacity-cache-'));
    const checkpoint = path.join(folder, 'checkpoint');
    await run(python, ['-m', 'folio_model', 'build-tiny', '--checkpoint-only', checkpoint, '--decoder-width', '256'], { cwd: model });
    await Promise.all([['rows', 'fp32'], ['capacity', 'fp32'], ['capacity', 'int4']].map(([layout, precision]) => exportPackage(checkpoint, layout!, precision!)));
  }, 300_000);

  afterAll(async () => {
    for (const pkg of packages) await pkg.release();
    if (folder) await rm(folder, { recursive: true, force: true });
  });

  it('gives the rows layout\'s logits over a prompt, greedy steps past a block and a rolled-back verify pass', async () => {
    const rows = await runner(path.join(folder, 'fp32-rows'));
    const capacity = await runner(path.join(folder, 'fp32-capacity'));
    const vocab = rows.vocab;
    const rowsCache = rows.decoderCache(PROMPT_ROWS + STEPS + 8);
    const capacityCache = capacity.decoderCache(PROMPT_ROWS + STEPS + 8);
    expect(capacityCache).toBeInstanceOf(CapacityDecoderCache);
    const differences: number[] = [];
    const pass = async (ids: readonly number[], numLogits: number): Promise<Float32Array> => {
      const pair = await Promise.all([[rows, rowsCache], [capacity, capacityCache]].map(async ([r, cache]) =>
        logits(await (r as ModelRunner).decode(cache as DecoderCache, await (r as ModelRunner).embed(ids), numLogits))));
      differences.push(relativeDifference(pair[1]!, pair[0]!));
      return pair[0]!;
    };

    const prompt = Array.from({ length: PROMPT_ROWS }, (_, i) => (i * 37 + 11) % vocab);
    let last = await pass(prompt, 1);
    const generated: number[] = [];
    for (let step = 0; step < STEPS; step++) {
      generated.push(argmax(last, vocab, 0));
      last = await pass([generated.at(-1)!], 1);
    }
    // A K=3 verify pass: four rows, of which only the first is kept.
    const before = rowsCache.length;
    await pass([argmax(last, vocab, 0), 5, 6, 7], 4);
    for (const cache of [rowsCache, capacityCache]) cache.truncate(before + 1);
    await pass([9], 1);

    expect(capacityCache.length).toBe(PROMPT_ROWS + STEPS + 2);
    expect((capacityCache as CapacityDecoderCache).capacity).toBeGreaterThan(128);
    expect(differences).toHaveLength(STEPS + 3);
    for (const difference of differences) expect(difference).toBeLessThan(RELATIVE_TOLERANCE);
  }, 300_000);

  it('is not offered to WebGPU, whose resident cache appends rows', async () => {
    // int4 is the precision whose rows-layout packages list WebGPU.
    const manifest = JSON.parse(await readFile(path.join(folder, 'int4-capacity', 'manifest.json'), 'utf8')) as { providers: string[] };
    expect(manifest.providers).toEqual(['cpu', 'cuda']);
  });
});
