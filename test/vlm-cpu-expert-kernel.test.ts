// The int4 package's routed experts on the CPU: the exporter stores 4-bit experts in MLAS's blocks
// with signed scales, which ONNX Runtime 1.30's CPU QMoE re-packs for MLAS's 4-bit GEMM without
// changing a value, so turning that kernel on (ORT_USE_MLAS_Q4_GEMM_MOE, expert-kernel.ts) changes
// only the speed. Experts stored per column would be rounded a second time by that re-packing: the
// runtime keeps the kernel off for them. Builder packages (decoder width 256, experts 128 wide, so in
// blocks of 64; tools/model's tiny checkpoint) made by `folio export-model`, run by the decoder graph directly over a prompt's rows.
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import ort from 'onnxruntime-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manifestSchema, type Manifest } from '../electron/core/model/manifest.js';
import { mlasExpertGemm, withExpertKernel } from '../electron/engine/vlm/expert-kernel.js';
import { exportModel } from './folio-process.js';

const run = promisify(execFile);
const model = path.resolve(import.meta.dirname, '../tools/model');
const python = '/usr/bin/python3';
const ROWS = 24;
const KERNEL = 'ORT_USE_MLAS_Q4_GEMM_MOE';

let folder: string;

async function manifest(name: string): Promise<Manifest> {
  return manifestSchema.parse(JSON.parse(await readFile(path.join(folder, name, 'manifest.json'), 'utf8')));
}

/** The decoder's logits for every row of a fixed prompt, its session created with the kernel `on` or off. */
async function logits(name: string, on: boolean): Promise<Float32Array> {
  const { hidden_size: hidden, num_hidden_layers: layers, num_attention_heads: heads, num_key_value_heads: kvHeads } =
    (await manifest(name)).architecture.language_config;
  process.env[KERNEL] = on ? '1' : '0';
  const session = await ort.InferenceSession.create(path.join(folder, name, 'decoder.onnx'), { intraOpNumThreads: 1 });
  delete process.env[KERNEL];
  try {
    const feeds: Record<string, ort.Tensor> = {
      inputs_embeds: new ort.Tensor('float32', Float32Array.from({ length: ROWS * hidden }, (_, i) => Math.sin(i * 0.37)), [1, ROWS, hidden]),
      position_ids: new ort.Tensor('int64', BigInt64Array.from({ length: ROWS }, (_, i) => BigInt(i)), [1, ROWS]),
      num_logits: new ort.Tensor('int64', BigInt64Array.from([BigInt(ROWS)]), []),
    };
    for (let layer = 0; layer < layers; layer++) {
      for (const kind of ['key', 'value']) feeds[`past_${kind}.${layer}`] = new ort.Tensor('float32', new Float32Array(0), [1, 0, kvHeads, hidden / heads]);
    }
    const out = (await session.run(feeds)).logits;
    if (!(out?.data instanceof Float32Array)) throw new Error('expected float32 logits');
    return out.data;
  } finally {
    await session.release();
  }
}

function relativeDifference(actual: Float32Array, expected: Float32Array): number {
  expect(actual.length).toBe(expected.length);
  const largest = expected.reduce((most, value) => Math.max(most, Math.abs(value)), 0);
  return expected.reduce((worst, value, i) => Math.max(worst, Math.abs((actual[i] ?? Number.NaN) - value)), 0) / largest;
}

describe('routed experts on the CPU', () => {
  beforeAll(async () => {
    folder = await mkdtemp(path.join(tmpdir(), 'folio-expert-kernel-'));
    const checkpoint = path.join(folder, 'checkpoint');
    await run(python, ['-m', 'folio_model', 'build-tiny', '--checkpoint-only', checkpoint, '--decoder-width', '256'], { cwd: model });
    const exports: [string, string[]][] = [['blocks', []], ['columns', ['--expert-bits', '4', '--expert-block-size', '0']]];
    await Promise.all(exports.map(([name, extra]) => exportModel(checkpoint, path.join(folder, name),
      ['--precision', 'int4', '--modes', 'small', '--cache-layout', 'rows', ...extra])));
  }, 300_000);

  afterAll(async () => {
    if (folder) await rm(folder, { recursive: true, force: true });
  });

  it('stores 4-bit experts in MLAS blocks with signed scales by default, and the runtime turns the kernel on for those alone', async () => {
    const blocks = await manifest('blocks');
    const columns = await manifest('columns');
    expect(blocks.graphs.decoder?.routed_experts).toEqual({ bits: 4, block_size: 64, scales: 'signed' });
    expect(columns.graphs.decoder?.routed_experts).toEqual({ bits: 4, block_size: 0, scales: 'symmetric' });
    expect(mlasExpertGemm(blocks.graphs.decoder)).toBe(true);
    expect(mlasExpertGemm(columns.graphs.decoder)).toBe(false);
    expect(mlasExpertGemm(blocks.graphs.embedding)).toBe(false);
  });

  it('sets the kernel only while a session is created, and puts back what was there', async () => {
    const blocks = await manifest('blocks');
    process.env[KERNEL] = 'before';
    const seen = await withExpertKernel(blocks.graphs.decoder, () => Promise.resolve(process.env[KERNEL]));
    const seenOff = await withExpertKernel(blocks.graphs.embedding, () => Promise.resolve(process.env[KERNEL]));
    expect([seen, seenOff, process.env[KERNEL]]).toEqual(['1', '0', 'before']);
    delete process.env[KERNEL];
    await expect(withExpertKernel(blocks.graphs.decoder, () => Promise.reject(new Error('no session')))).rejects.toThrow('no session');
    expect(process.env[KERNEL]).toBeUndefined();
  });

  it('MLAS kernel computes what dequantising computes for signed experts, and not for experts per column', async () => {
    const signed = relativeDifference(await logits('blocks', true), await logits('blocks', false));
    const perColumn = relativeDifference(await logits('columns', true), await logits('columns', false));
    console.log(`logits with MLAS's 4-bit expert kernel against without: signed blocks ${signed.toExponential(2)}, per column ${perColumn.toExponential(2)} of the largest`);
    // measured: 4e-7 (float rounding in another order) against 7e-2
    expect(signed).toBeLessThan(1e-5);
    expect(perColumn).toBeGreaterThan(1e-2);
  });
});
