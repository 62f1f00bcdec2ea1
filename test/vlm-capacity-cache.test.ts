// A package exported with both cache layouts (the default) runs the decoder with its cache at
// capacity on the CPU (`decoder_capacity`: each layer's cache read in place instead of joined to
// the new rows every step) and the `rows` decoder on WebGPU, whose resident cache appends rows;
// only the graph in use is opened, and `--device auto` measures each device with its own. On the
// CPU it computes what a rows-only package computes: the same logits over a prompt, greedy steps
// that grow the cache past a block, and a multi-row verify pass whose rejected rows are rolled back.
// Small builder packages (decoder width 256, tools/model's tiny checkpoint) made by `folio export-model`. fp32 for the comparison,
// not int4: int4's MatMulNBits quantise their activations to int8 on the CPU, which turns the
// layouts' 1e-6 differences into 1e-2 where a value sits on a rounding step (measured), hiding
// whether the attention itself agrees. WebGPU runs the int4 package (it has no float `MoE` kernel).
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CapacityDecoderCache } from '../electron/engine/vlm/capacity-decoder-cache.js';
import { openByMeasurement } from '../electron/engine/vlm/device-calibration.js';
import { DeviceKvCache } from '../electron/engine/vlm/device-kv-cache.js';
import { KvCache } from '../electron/engine/vlm/kv-cache.js';
import { openModelPackage, type ModelPackage } from '../electron/engine/vlm/model-package.js';
import { isTensor, ModelRunner, type DecoderCache, type PassOutput } from '../electron/engine/vlm/model-runner.js';
import { measureDevice } from '../electron/engine/vlm/page-costs.js';
import { needs, WEBGPU } from './environment.js';
import { exportModel } from './folio-process.js';
import { webgpuTestProblem } from './webgpu-on-lavapipe.js';

const problem = await webgpuTestProblem();

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
  await exportModel(checkpoint, path.join(folder, `${precision}-${layout}`), ['--precision', precision, '--modes', 'small', '--cache-layout', layout]);
}

async function runner(dir: string, device: 'cpu' | 'webgpu' = 'cpu'): Promise<ModelRunner> {
  const pkg = await openModelPackage(dir, { device: { kind: device }, skipChecksums: true, threads: 1 });
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

describe('a package with the decoder in both cache layouts', () => {
  beforeAll(async () => {
    folder = await mkdtemp(path.join(tmpdir(), 'folio-capacity-cache-'));
    const checkpoint = path.join(folder, 'checkpoint');
    await run(python, ['-m', 'folio_model', 'build-tiny', '--checkpoint-only', checkpoint, '--decoder-width', '256'], { cwd: model });
    await Promise.all([['rows', 'fp32'], ['both', 'fp32'], ['both', 'int4']].map(([layout, precision]) => exportPackage(checkpoint, layout!, precision!)));
  }, 300_000);

  afterAll(async () => {
    for (const pkg of packages) await pkg.release();
    if (folder) await rm(folder, { recursive: true, force: true });
  });

  it('runs the capacity decoder on the CPU, with the rows-only package\'s logits and tokens over a prompt, greedy steps past a block and a rolled-back verify pass', async () => {
    const rows = await runner(path.join(folder, 'fp32-rows'));
    const both = await runner(path.join(folder, 'fp32-both'));
    const opened = packages.at(-1)!;
    expect(opened.decoderGraph).toBe('decoder_capacity');
    expect(opened.sessions.has('decoder')).toBe(false);
    const vocab = rows.vocab;
    const rowsCache = rows.decoderCache(PROMPT_ROWS + STEPS + 8);
    const capacityCache = both.decoderCache(PROMPT_ROWS + STEPS + 8);
    expect(rowsCache).toBeInstanceOf(KvCache);
    expect(capacityCache).toBeInstanceOf(CapacityDecoderCache);
    const differences: number[] = [];
    const tokens: [number[], number[]] = [[], []];
    const pass = async (ids: readonly number[], numLogits: number): Promise<Float32Array> => {
      const pair = await Promise.all([[rows, rowsCache], [both, capacityCache]].map(async ([r, cache]) =>
        logits(await (r as ModelRunner).decode(cache as DecoderCache, await (r as ModelRunner).embed(ids), numLogits))));
      differences.push(relativeDifference(pair[1]!, pair[0]!));
      pair.forEach((scores, i) => tokens[i]!.push(argmax(scores, vocab, 0)));
      return pair[0]!;
    };

    const prompt = Array.from({ length: PROMPT_ROWS }, (_, i) => (i * 37 + 11) % vocab);
    let last = await pass(prompt, 1);
    for (let step = 0; step < STEPS; step++) last = await pass([argmax(last, vocab, 0)], 1);
    // A K=3 verify pass: four rows, of which only the first is kept.
    const before = rowsCache.length;
    await pass([argmax(last, vocab, 0), 5, 6, 7], 4);
    for (const cache of [rowsCache, capacityCache]) cache.truncate(before + 1);
    await pass([9], 1);

    expect(capacityCache.length).toBe(PROMPT_ROWS + STEPS + 2);
    expect((capacityCache as CapacityDecoderCache).capacity).toBeGreaterThan(128);
    expect(differences).toHaveLength(STEPS + 3);
    for (const difference of differences) expect(difference).toBeLessThan(RELATIVE_TOLERANCE);
    expect(tokens[1]).toEqual(tokens[0]);
  }, 300_000);

  it('is offered to WebGPU, which runs its rows decoder', async () => {
    // int4 is the precision whose packages list WebGPU.
    const manifest = JSON.parse(await readFile(path.join(folder, 'int4-both', 'manifest.json'), 'utf8')) as { providers: string[] };
    expect(manifest.providers).toEqual(['cpu', 'webgpu', 'cuda']);
  });

  it('runs the rows decoder on WebGPU, its cache resident', { ...needs(WEBGPU, problem), timeout: 300_000 }, async () => {
    const gpu = await runner(path.join(folder, 'int4-both'), 'webgpu');
    const opened = packages.at(-1)!;
    expect(opened.decoderGraph).toBe('decoder');
    expect(opened.sessions.has('decoder_capacity')).toBe(false);
    const cache = gpu.decoderCache(PROMPT_ROWS + STEPS + 8);
    expect(cache).toBeInstanceOf(DeviceKvCache);
    const prompt = Array.from({ length: PROMPT_ROWS }, (_, i) => (i * 37 + 11) % gpu.vocab);
    let out = await gpu.decode(cache, await gpu.embed(prompt), 1);
    const generated: number[] = [];
    for (let step = 0; step < 8; step++) {
      const [token] = await gpu.chooseTokens(out.logits, [new Set<number>()]);
      generated.push(token!);
      gpu.release(out.hidden);
      out = await gpu.decode(cache, await gpu.embedTokens([token!]), 1);
    }
    gpu.release(out.logits, out.hidden);
    expect(cache.length).toBe(PROMPT_ROWS + 8);
    for (const token of generated) expect(token >= 0 && token < gpu.vocab).toBe(true);
  });

  it('is measured by --device auto with the decoder each device would run', async () => {
    const measured: [string, string, string[]][] = [];
    const pkg = await openByMeasurement(path.join(folder, 'int4-both'), {
      open: async (dir, device, verified, stepGraphsOnly) => {
        const opened = await openModelPackage(dir, { device, skipChecksums: verified, stepGraphsOnly, threads: 1 });
        packages.push(opened);
        return opened;
      },
      // WebGPU where an adapter answers; else a second CPU entry, so that a measurement happens
      devices: async () => ({
        devices: [{ request: { kind: 'cpu' }, device: 'cpu' }, problem === null ? { request: { kind: 'webgpu' }, device: 'webgpu' } : { request: { kind: 'cpu' }, device: 'cpu-twin' }],
        missing: [],
      }),
      // the CPU's measurement runs (the capacity cache through step-costs.ts); lavapipe's would take half a minute and prove nothing more here
      measure: async (opened, quickestPageMs) => {
        measured.push([opened.provider.provider, opened.decoderGraph, [...opened.sessions.keys()].filter((graph) => graph.startsWith('decoder'))]);
        if (opened.provider.provider === 'cpu') return measureDevice(opened, quickestPageMs);
        return {
          steps: { stepMs: [quickestPageMs], catchUpMsPerRow: Number.NaN, prefillMs: 0, totalMs: 0 },
          page: { tokens: 1, promptRows: 1, tiles: 0, visionMs: 0, prefillMs: 0, decodeMs: quickestPageMs + 1, complete: false, totalMs: 0 },
        };
      },
    });
    packages.push(pkg);
    expect(measured[0]).toEqual(['cpu', 'decoder_capacity', ['decoder_capacity']]);
    expect(measured[1]).toEqual(problem === null ? ['webgpu', 'decoder', ['decoder']] : ['cpu', 'decoder_capacity', ['decoder_capacity']]);
  }, 300_000);
});
