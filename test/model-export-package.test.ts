// The TypeScript exporter (electron/engine/model-export/, what `folio export-model` and `folio model
// get` run) on tools/model's tiny checkpoint: what each precision writes (graphs, operators, quantised
// layouts, the manifest), the two cache layouts sharing one weights file, and the checkpoint
// mismatches it refuses by name. Its numbers against the PyTorch reference: model-export-real-width.test.ts.
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { cp, mkdtemp, readFile, rm, unlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportPackage } from '../electron/engine/model-export/export-package.js';
import type { PackageExportOptions, PackagePrecision } from '../shared/model-export.js';
import { repoRoot } from './folio-process.js';
import { readGraph, type GraphSummary } from './onnx-graph-reader.js';

const run = promisify(execFile);
const FLOAT = 1, UINT8 = 2, INT64 = 7, FLOAT16 = 10;
const precisions: PackagePrecision[] = ['fp32', 'fp16', 'int4'];

interface Manifest {
  precision: string;
  providers: string[];
  dtype: string;
  files: Record<string, string>;
  decoding: Record<string, unknown>;
  architecture: { num_mtp_heads: number };
  resolution_modes?: unknown;
  graphs: Record<string, { file: string; nodes: number; inputs: { name: string }[]; routed_experts?: unknown }>;
}

let folder: string;
let checkpoint: string;

const packageDir = (name: string) => path.join(folder, name);
const manifestOf = (name: string) => JSON.parse(readFileSync(path.join(packageDir(name), 'manifest.json'), 'utf8')) as Manifest;
const graphOf = (name: string, file: string): GraphSummary => readGraph(path.join(packageDir(name), file));
const attributes = (graph: GraphSummary, op: string) => graph.nodes.find((n) => n.opType === op)!.attributes;
const sha256 = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');
const folderSize = (dir: string) => readdirSync(dir).reduce((sum, name) => sum + statSync(path.join(dir, name)).size, 0);

async function exportTo(name: string, options: Partial<PackageExportOptions>, from = checkpoint): Promise<void> {
  await exportPackage({ checkpointDir: from, outDir: packageDir(name), precision: 'int4', modes: ['small'], ...options });
}

beforeAll(async () => {
  folder = await mkdtemp(path.join(os.tmpdir(), 'folio-model-export-'));
  checkpoint = path.join(folder, 'checkpoint');
  await run('/usr/bin/python3', ['-m', 'folio_model', 'build-tiny', '--checkpoint-only', checkpoint], { cwd: path.join(repoRoot, 'tools/model') });
  for (const precision of precisions) await exportTo(precision, { precision });
  // one cache layout only, to compare the default (both layouts) with
  for (const [precision, layout] of [['fp32', 'rows'], ['int4', 'rows'], ['int4', 'capacity']] as const) {
    await exportTo(`${precision}-${layout}`, { precision, cacheLayout: layout });
  }
  await exportTo('int4-e4', { expertBits: 4 });
  await exportTo('int4-one-thread', { threads: 0 });
  await exportTo('int4-e4-three-threads', { expertBits: 4, threads: 3 });
}, 600_000);

afterAll(async () => {
  if (folder) await rm(folder, { recursive: true, force: true });
});

describe('a package from the tiny checkpoint', () => {
  it('writes every graph in each precision and says what it is for', () => {
    const providers = { fp32: ['cpu', 'cuda'], fp16: ['cuda'], int4: ['cpu', 'webgpu', 'cuda'] };
    for (const precision of precisions) {
      const manifest = manifestOf(precision);
      expect(Object.keys(manifest.graphs).sort(), precision).toEqual(['decoder', 'decoder_capacity', 'embedding', 'mtp', 'vision_640']);
      expect(manifest.precision).toBe(precision);
      expect(manifest.providers).toEqual(providers[precision]);
      expect(manifest.dtype).toBe(precision === 'fp16' ? 'float16' : 'float32');
    }
  });

  it('writes the capacity decoder over the rows decoder\'s weights, adding its protobuf alone', () => {
    for (const precision of ['fp32', 'int4']) {
      const both = packageDir(precision), rowsOnly = packageDir(`${precision}-rows`);
      const graphs = manifestOf(precision).graphs;
      expect(graphs.decoder_capacity!.file).toBe('decoder_capacity.onnx');
      expect(graphs.decoder_capacity!.inputs.map((i) => i.name)).toContain('attention_bias');
      expect(graphs.decoder!.inputs.map((i) => i.name)).not.toContain('attention_bias');
      // the rows decoder and its weights are byte for byte the single-layout package's
      for (const file of ['decoder.onnx', 'decoder.onnx.data']) {
        expect(readFileSync(path.join(both, file)).equals(readFileSync(path.join(rowsOnly, file))), `${precision} ${file}`).toBe(true);
      }
      expect(readdirSync(both).sort()).toEqual([...readdirSync(rowsOnly), 'decoder_capacity.onnx'].sort());
      // each of the second graph's external weights lies where the rows decoder's same-named weight does
      const placed = new Map(graphOf(precision, 'decoder.onnx').initializers.filter((t) => t.external.length).map((t) => [t.name, t.external]));
      const external = graphOf(precision, 'decoder_capacity.onnx').initializers.filter((t) => t.external.length);
      expect(external.length, precision).toBe(placed.size);
      for (const t of external) expect(t.external, `${precision} ${t.name}`).toEqual(placed.get(t.name));
      const grown = folderSize(both) - folderSize(rowsOnly);
      const manifestGrowth = statSync(path.join(both, 'manifest.json')).size - statSync(path.join(rowsOnly, 'manifest.json')).size;
      expect(grown, precision).toBe(statSync(path.join(both, 'decoder_capacity.onnx')).size + manifestGrowth);
    }
  });

  it('writes one cache layout as the decoder, and a package without the rows decoder is not for WebGPU', () => {
    const manifest = manifestOf('int4-capacity');
    expect(Object.keys(manifest.graphs).sort()).toEqual(['decoder', 'embedding', 'mtp', 'vision_640']);
    expect(manifest.graphs.decoder!.inputs.map((i) => i.name)).toContain('attention_bias');
    expect(manifest.providers).toEqual(['cpu', 'cuda']);
  });

  it('writes the same bytes whether it quantises on its own thread or spreads the rows over worker threads', () => {
    const files = (name: string) => Object.fromEntries(readdirSync(packageDir(name)).sort().map((file) => [file, sha256(path.join(packageDir(name), file))]));
    expect(files('int4')).toEqual(files('int4-one-thread'));
    expect(files('int4-e4-three-threads')).toEqual(files('int4-e4'));
    expect(Object.keys(files('int4'))).toContain('decoder.onnx.data');
  });

  it('hashes every file in the manifest, the external weights included', () => {
    for (const precision of precisions) {
      const files = manifestOf(precision).files;
      expect(Object.keys(files)).toContain('decoder.onnx.data');
      for (const [name, digest] of Object.entries(files)) expect(sha256(path.join(packageDir(precision), name)), name).toBe(digest);
    }
  });

  it('runs only the routed experts, through fused operators', () => {
    for (const [precision, moe] of [['fp32', 'MoE'], ['fp16', 'MoE'], ['int4', 'QMoE']] as const) {
      const graph = graphOf(precision, 'decoder.onnx');
      const count = (op: string) => graph.nodes.filter((n) => n.opType === op).length;
      expect(count(moe), precision).toBe(2); // layers 1 and 2; layer 0 is dense
      expect(count('MultiHeadAttention'), precision).toBe(3);
      expect(count('RotaryEmbedding'), precision).toBe(6);
      // the all-experts graph had hundreds of nodes per MoE layer
      expect(graph.nodes.length / 3, precision).toBeLessThan(40);
      const { k, normalize_routing_weights: normalise } = attributes(graph, moe);
      expect([k, normalise]).toEqual([2, 0]);
      expect(manifestOf(precision).graphs.decoder!.nodes).toBe(graph.nodes.length);
    }
  });

  it('quantises every matrix of the int4 decoder but the router, experts 8-bit per column at the tiny widths', () => {
    const graph = graphOf('int4', 'decoder.onnx');
    expect(graph.nodes.filter((n) => n.opType === 'MatMul' && !n.name.endsWith('.router'))).toEqual([]);
    // per layer q|k|v fused, o, and two MLP projections (dense or shared experts), plus the lm_head
    expect(graph.nodes.filter((n) => n.opType === 'MatMulNBits')).toHaveLength(3 * 4 + 1);
    // the tiny widths (64 and 32) take none of MLAS's 4-bit blocks twice
    const qmoe = graph.nodes.find((n) => n.opType === 'QMoE')!;
    expect([qmoe.attributes.expert_weight_bits, 'block_size' in qmoe.attributes]).toEqual([8, false]);
    const experts = graph.initializers.find((t) => t.name === qmoe.inputs[2])!;
    expect(experts.dataType).toBe(UINT8);
    expect(experts.dims.slice(1)).toEqual([2 * 32, 64]); // [experts, 2 x intermediate, hidden]: a byte a value
    expect(manifestOf('int4').graphs.decoder!.routed_experts).toEqual({ bits: 8, block_size: 0, scales: 'symmetric' });
    expect(new Set(graph.nodes.filter((n) => n.opType === 'MatMulNBits').map((n) => n.attributes.accuracy_level))).toEqual(new Set([4]));
  });

  it('runs the int4 vision encoder\'s linear layers as 8-bit MatMulNBits, the fp32 one\'s as MatMul', () => {
    expect(graphOf('fp32', 'vision_640.onnx').nodes.filter((n) => n.opType === 'MatMulNBits')).toEqual([]);
    const graph = graphOf('int4', 'vision_640.onnx');
    const nbits = graph.nodes.filter((n) => n.opType === 'MatMulNBits');
    // the SAM blocks' linear layers (K 32 or 64); CLIP's are 48 wide, not a whole block of 32
    expect(nbits.length).toBeGreaterThan(0);
    const weights = new Set(graph.initializers.map((t) => t.name));
    for (const n of nbits) {
      expect([n.attributes.bits, n.attributes.block_size, n.attributes.accuracy_level]).toEqual([8, 32, 4]);
      expect(Number(n.attributes.K) % 32).toBe(0);
      expect(weights.has(n.inputs[1]!) && n.inputs[1]!.endsWith('.q8'), n.inputs[1]).toBe(true);
    }
  });

  it('packs two 4-bit expert values a byte with --expert-bits 4, per column where no MLAS block fits', () => {
    const graph = graphOf('int4-e4', 'decoder.onnx');
    const qmoe = graph.nodes.find((n) => n.opType === 'QMoE')!;
    expect(qmoe.attributes.expert_weight_bits).toBe(4);
    expect(graph.initializers.find((t) => t.name === qmoe.inputs[2])!.dims.slice(1)).toEqual([2 * 32, 32]);
    // the runtime keeps MLAS's kernel off for them
    expect(manifestOf('int4-e4').graphs.decoder!.routed_experts).toEqual({ bits: 4, block_size: 0, scales: 'symmetric' });
  });

  it('keeps the fp16 package\'s weights and arithmetic in fp16', () => {
    // nothing is widened at load: the only float32 weights are the routers, whose softmax the
    // reference computes in float32, and the graph's one float32 output is the logits
    const graph = graphOf('fp16', 'decoder.onnx');
    const wide = graph.initializers.filter((t) => t.dataType === FLOAT && t.dims.reduce((a, b) => a * b, 1) > 1).map((t) => t.name);
    expect(wide.every((name) => name.endsWith('.gate.weight')), wide.join(', ')).toBe(true);
    expect([graph.types.inputs_embeds, graph.types['past_key.0'], graph.types['present_value.2']]).toEqual([FLOAT16, FLOAT16, FLOAT16]);
    expect([graph.types.position_ids, graph.types.logits]).toEqual([INT64, FLOAT]);
  });

  it('gives the draft head a 4-bit lm_head in every precision, with int8 arithmetic only in int4', () => {
    for (const precision of precisions) {
      const head = graphOf(precision, 'mtp.onnx').nodes.find((n) => n.name === 'lm_head')!;
      expect(head.opType, precision).toBe('MatMulNBits');
      expect(head.attributes.accuracy_level, precision).toBe(precision === 'int4' ? 4 : undefined);
    }
  });

  it('bans no id when the tokenizer covers the vocabulary', () => {
    expect(manifestOf('fp32').decoding).not.toHaveProperty('banned_ids');
  });

  it('refuses an unknown mode and a tile limit beyond 9', async () => {
    await expect(exportTo('refused-mode', { modes: ['huge'] })).rejects.toThrow('unknown mode "huge"; choose from tiny, small, base, large, gundam');
    await expect(exportTo('refused-crops', { modes: ['gundam'], maxCrops: 12 })).rejects.toThrow(/max crops 12 is outside 2\.\.9/);
  });
});

interface StoredTensor { dtype: string; shape: number[]; data: Buffer }

/** The checkpoint's tensors from every shard (the tiny one is a few MB). */
async function readTensors(dir: string): Promise<Map<string, StoredTensor>> {
  const tensors = new Map<string, StoredTensor>();
  for (const file of readdirSync(dir).filter((name) => name.endsWith('.safetensors'))) {
    const bytes = await readFile(path.join(dir, file));
    const length = Number(bytes.readBigUInt64LE(0));
    const header = JSON.parse(bytes.subarray(8, 8 + length).toString('utf8')) as Record<string, { dtype: string; shape: number[]; data_offsets: [number, number] }>;
    for (const [name, info] of Object.entries(header)) {
      if (name === '__metadata__') continue;
      tensors.set(name, { dtype: info.dtype, shape: info.shape, data: bytes.subarray(8 + length + info.data_offsets[0], 8 + length + info.data_offsets[1]) });
    }
  }
  return tensors;
}

/** A copy of the checkpoint with `tensors` as its one `model.safetensors`. */
async function checkpointWith(tensors: Map<string, StoredTensor>): Promise<string> {
  const dir = await mkdtemp(path.join(folder, 'edited-'));
  await cp(checkpoint, dir, { recursive: true });
  for (const name of readdirSync(dir).filter((n) => n.endsWith('.safetensors') || n.endsWith('.index.json'))) await unlink(path.join(dir, name));
  const header: Record<string, unknown> = {};
  let offset = 0;
  for (const [name, t] of tensors) {
    header[name] = { dtype: t.dtype, shape: t.shape, data_offsets: [offset, offset + t.data.length] };
    offset += t.data.length;
  }
  let json = Buffer.from(JSON.stringify(header));
  json = Buffer.concat([json, Buffer.alloc((8 - (json.length % 8)) % 8, 0x20)]);
  const length = Buffer.alloc(8);
  length.writeBigUInt64LE(BigInt(json.length));
  await writeFile(path.join(dir, 'model.safetensors'), Buffer.concat([length, json, ...[...tensors.values()].map((t) => t.data)]));
  return dir;
}

const f32 = (values: number[]): StoredTensor => ({ dtype: 'F32', shape: [values.length], data: Buffer.from(Float32Array.from(values).buffer) });

describe('a checkpoint whose tensors are not what its config describes', () => {
  let tensors: Map<string, StoredTensor>;
  beforeAll(async () => {
    tensors = await readTensors(checkpoint);
  });

  async function exportEdited(edit: (t: Map<string, StoredTensor>) => void, options: Partial<PackageExportOptions> = {}): Promise<string> {
    const edited = new Map(tensors);
    edit(edited);
    const dir = await checkpointWith(edited);
    const out = `out-${path.basename(dir)}`;
    await exportTo(out, { modes: ['tiny'], ...options }, dir);
    return out;
  }

  it('refuses a tensor it does not know, by name', async () => {
    await expect(exportEdited((t) => t.set('model.layers.0.mlp.extra.weight', f32([0, 0, 0, 0]))))
      .rejects.toThrow('1 tensor(s) Folio does not know: model.layers.0.mlp.extra.weight');
  });

  it('refuses a draft-head tensor it cannot map, naming the way out; without the draft head it exports the base model', async () => {
    const head = (t: Map<string, StoredTensor>) => t.set('mtp_module.heads.0.shared_head.norm.weight', f32(new Array<number>(64).fill(1)));
    await expect(exportEdited(head)).rejects.toThrow(/mtp_module\.heads\.0\.shared_head\.norm\.weight[^]*--without-draft-head/);
    const manifest = manifestOf(await exportEdited(head, { withoutDraftHead: true }));
    expect(manifest.graphs).not.toHaveProperty('mtp');
    expect(manifest.architecture.num_mtp_heads).toBe(0);
  });

  it('lists the tensors the config calls for that are missing', async () => {
    await expect(exportEdited((t) => {
      for (const name of [...t.keys()]) if (name.startsWith('model.layers.2.mlp.experts.3.')) t.delete(name);
    })).rejects.toThrow('3 tensor(s) the config calls for are missing: model.layers.2.mlp.experts.3.down_proj.weight');
  });

  it('names a tensor of the wrong shape', async () => {
    await expect(exportEdited((t) => t.set('model.norm.weight', f32(new Array<number>(65).fill(1)))))
      .rejects.toThrow('tensor model.norm.weight has shape [65], the config calls for [64]');
  });
});
