/**
 * The decoder, token-embedding and FastMTP graphs written op by op from the checkpoint's tensors, in
 * one of three precisions, with ONNX Runtime's fused operators:
 *
 * - `SimplifiedLayerNormalization` / `SkipSimplifiedLayerNormalization` for RMSNorm and the residual adds,
 * - `RotaryEmbedding` for rotate-half RoPE, `MultiHeadAttention` over the past rows and the new ones,
 * - `MoE` (fp32, fp16) or `QMoE` (int4) for the routed experts: only each token's top-k experts run,
 * - `MatMulNBits` for every other matrix in int4.
 *
 * The graphs keep the package's interface (decoder: new key/value rows only, logits for the last
 * `num_logits` rows; MTP head: its cache at capacity with an attention bias), so the runtime reads
 * every precision the same way. Each weight is read from the checkpoint when its node is written and
 * goes straight to the graph's external data file; a second decoder layout finds them there. The
 * PyTorch reference (tools/model/folio_model/decoder.py, graphs.py) is the judge: tests compare these
 * graphs with it.
 */

import type { ElementType } from '../onnx/onnx-proto.js';
import { headDim, type DecoderConfig } from './checkpoint-config.js';
import type { CheckpointReader } from './checkpoint-reader.js';
import { CONTRIB_DOMAIN, GraphBuilder } from './graph-builder.js';
import { expertLayout, halfWeights, storedAs, transposed, type ExpertLayout, type Precision } from './precision.js';
import type { QuantisePool } from './quantise-pool.js';
import type { WeightsFile } from './weights-file.js';

const INT64_MAX = 9223372036854775807n;
/** Rows quantised at a time, so a 165M-parameter lm_head needs no full-size temporaries. */
const ROW_CHUNK = 4096;

export interface TensorSpec {
  name: string;
  dtype: 'float32' | 'float16' | 'int64';
  /** Strings are dynamic axes. */
  shape: (number | string)[];
}

export interface BuiltGraph {
  file: string;
  inputs: TensorSpec[];
  outputs: TensorSpec[];
  nodes: number;
  requires: string[];
  /** The decoder's routed experts in an int4 package. */
  routedExperts?: ExpertLayout;
}

/**
 * How the decoder takes its past. `rows`: each layer's past `[1, past, heads, dim]`, joined to the new
 * rows inside the graph (the layout the WebGPU path's resident cache appends to). `capacity`: each
 * layer's cache at capacity as the MTP head takes it, read in place (`capacityAttention`), with one
 * `attention_bias` for every layer; for the CPU, where the join was a copy of the whole past per
 * layer per step.
 */
export type CacheLayout = 'rows' | 'capacity';

/** The smallest value of a float type: what the causal bias hides with. */
const LOWEST = { float32: -3.4028234663852886e38, float16: -65504 } as const;

function floatScalar(type: 'float32' | 'float16', value: number) {
  return type === 'float16' ? { type, dims: [], data: Uint16Array.of(halfWeights('constant', Float32Array.of(value))[0]!) } : { type, dims: [], data: Float32Array.of(value) };
}

/** Node-writing steps shared by the decoder and the MTP head. */
class Layers {
  private rope: [string, string] | undefined;
  private headsShape: string | undefined;

  constructor(
    readonly g: GraphBuilder,
    readonly reader: CheckpointReader,
    readonly config: DecoderConfig,
    readonly precision: Precision,
    readonly pool: QuantisePool,
  ) {}

  /** A checkpoint tensor in the precision's storage type. */
  stored(name: string, values?: Float32Array) {
    return storedAs(this.precision.weightType, name, this.reader.shape(name), values ?? this.reader.read(name));
  }

  /** `x @ weight.T` for a checkpoint matrix `[out, in]`, made by `read` only if the data file does not hold it yet. */
  linear(x: string, name: string, rows: number, cols: number, read: () => Float32Array, quantised = this.precision.quantised): string {
    const g = this.g;
    if (quantised) {
      const p = this.precision;
      const blocks = Math.ceil(cols / p.blockSize);
      let scales: Float32Array | undefined;
      const made = () => {
        const q = this.pool.quantise(read(), rows, cols, p.blockSize);
        scales = q.scales;
        return q.packed;
      };
      const qweight = g.weight(`${name}.qweight`, () => ({ type: 'uint8', dims: [rows, blocks, p.blockSize / 2], data: made() }));
      const scaleName = g.weight(`${name}.scales`, () => storedAs(p.floatType, `${name}.scales`, [rows, blocks], scales ?? this.pool.quantise(read(), rows, cols, p.blockSize).scales));
      return this.matMulNBits(x, qweight, scaleName, name, cols, rows, 4, p.blockSize);
    }
    const weight = g.weight(`${name}.weight`, () => storedAs(this.precision.weightType, name, [cols, rows], transposed(read(), rows, cols)));
    return g.op('MatMul', [x, weight], name);
  }

  /** The lm_head `[vocab, hidden]`, 4-bit, quantised `ROW_CHUNK` rows at a time. */
  chunkedQuantisedLinear(x: string, name: string, tensor: string): string {
    const g = this.g;
    const p = this.precision;
    const [rows, cols] = this.reader.shape(tensor) as [number, number];
    const blocks = Math.ceil(cols / p.blockSize);
    const scales = new Float32Array(rows * blocks);
    function* parts(reader: CheckpointReader, pool: QuantisePool): Generator<Uint8Array> {
      const chunks = Math.ceil(rows / ROW_CHUNK);
      const count = (chunk: number) => Math.min(ROW_CHUNK, rows - chunk * ROW_CHUNK);
      let chunk = 0;
      for (const q of pool.inTurn(chunks, (i) => [reader.readRows(tensor, i * ROW_CHUNK, count(i)), count(i), cols, p.blockSize])) {
        scales.set(q.scales, chunk++ * ROW_CHUNK * blocks);
        yield q.packed;
      }
    }
    let made = false;
    const qweight = g.weightParts(`${name}.qweight`, 'uint8', [rows, blocks, p.blockSize / 2], () => {
      made = true;
      return parts(this.reader, this.pool);
    });
    const scaleName = g.weight(`${name}.scales`, () => {
      if (!made) for (const _ of parts(this.reader, this.pool));
      return storedAs(p.floatType, `${name}.scales`, [rows, blocks], scales);
    });
    return this.matMulNBits(x, qweight, scaleName, name, cols, rows, 4, p.blockSize);
  }

  matMulNBits(x: string, qweight: string, scales: string, name: string, k: number, n: number, bits: number, block: number): string {
    return this.g.op('MatMulNBits', [x, qweight, scales], name, { domain: CONTRIB_DOMAIN, attributes: { K: k, N: n, bits, block_size: block, ...this.matmulAccuracy() } });
  }

  /** int8 arithmetic for the int4 precision's matrices; the fp32 and fp16 packages' 4-bit draft lm_head keeps the kernels' default. */
  matmulAccuracy(): Record<string, number> {
    return this.precision.quantised && this.precision.accuracyLevel ? { accuracy_level: this.precision.accuracyLevel } : {};
  }

  /** A checkpoint matrix by name, as `linear` takes it. */
  checkpointLinear(x: string, tensor: string, name: string, quantised = this.precision.quantised): string {
    const [rows, cols] = this.reader.shape(tensor) as [number, number];
    return this.linear(x, name, rows, cols, () => this.reader.read(tensor), quantised);
  }

  norm(x: string, weight: string, name: string): string {
    return this.g.op('SimplifiedLayerNormalization', [x, this.g.weight(weight, () => this.stored(weight))], name, {
      attributes: { axis: -1, epsilon: { float: this.config.rms_norm_eps }, stash_type: 1 },
    });
  }

  /** `[RMSNorm(x + residual), x + residual]` in one node. */
  addNorm(x: string, residual: string, weight: string, name: string): [string, string] {
    const [normed, , , total] = this.g.op('SkipSimplifiedLayerNormalization', [x, residual, this.g.weight(weight, () => this.stored(weight))], name, {
      outputs: 4,
      omit: [1, 2],
      domain: CONTRIB_DOMAIN,
      attributes: { epsilon: { float: this.config.rms_norm_eps } },
    });
    return [normed!, total!];
  }

  /** cos and sin `[max_positions, dim / 2]`, in float32 as the reference computes its angles. */
  ropeCaches(): [string, string] {
    if (!this.rope) {
      const dim = headDim(this.config);
      const positions = this.config.max_position_embeddings;
      const make = (fn: (angle: number) => number) => () => {
        const f = Math.fround;
        const invFreq = Array.from({ length: dim / 2 }, (_, i) => f(1 / f(Math.pow(f(this.config.rope_theta), f(f(2 * i) / dim)))));
        const table = new Float32Array(positions * (dim / 2));
        for (let p = 0; p < positions; p++) for (let i = 0; i < dim / 2; i++) table[p * (dim / 2) + i] = fn(f(p * invFreq[i]!));
        return storedAs(this.precision.floatType, 'rope', [positions, dim / 2], table);
      };
      this.rope = [this.g.weight('rope.cos', make(Math.cos)), this.g.weight('rope.sin', make(Math.sin))];
    }
    return this.rope;
  }

  rotate(x: string, positionIds: string, name: string): string {
    const [cos, sin] = this.ropeCaches();
    return this.g.op('RotaryEmbedding', [x, positionIds, cos, sin], name, { domain: CONTRIB_DOMAIN, attributes: { interleaved: 0, num_heads: this.config.num_attention_heads } });
  }

  /** RoPE'd q and k and plain v, each `[1, s, hidden]`, from one fused projection. */
  qkv(x: string, prefix: string, positionIds: string): [string, string, string] {
    const width = this.config.num_attention_heads * headDim(this.config);
    const hidden = this.config.hidden_size;
    const fused = this.linear(x, `${prefix}.qkv_proj`, 3 * width, hidden, () => concatRows(['q', 'k', 'v'].map((m) => this.reader.read(`${prefix}.${m}_proj.weight`))));
    const [q, k, v] = this.g.op('Split', [fused, this.g.ints(`${prefix}.qkv_sizes`, [width, width, width])], `${prefix}.qkv_split`, { outputs: 3, attributes: { axis: -1 } });
    return [this.rotate(q!, positionIds, `${prefix}.q_rope`), this.rotate(k!, positionIds, `${prefix}.k_rope`), v!];
  }

  swigluMlp(x: string, prefix: string): string {
    const g = this.g;
    const [inner, hidden] = this.reader.shape(`${prefix}.gate_proj.weight`) as [number, number];
    const fused = this.linear(x, `${prefix}.gate_up_proj`, 2 * inner, hidden, () => concatRows([this.reader.read(`${prefix}.gate_proj.weight`), this.reader.read(`${prefix}.up_proj.weight`)]));
    const [gate, up] = g.op('Split', [fused, g.ints(`${prefix}.sizes`, [inner, inner])], `${prefix}.split`, { outputs: 2, attributes: { axis: -1 } });
    const silu = g.op('Mul', [gate!, g.op('Sigmoid', [gate!], `${prefix}.sigmoid`)], `${prefix}.silu`);
    return this.checkpointLinear(g.op('Mul', [silu, up!], `${prefix}.gated`), `${prefix}.down_proj.weight`, `${prefix}.down_proj`);
  }

  /** The `[1, -1, heads, dim]` shape constant, written once per graph. */
  heads(): string {
    this.headsShape ??= this.g.ints('shape.heads', [1, -1, this.config.num_key_value_heads, headDim(this.config)]);
    return this.headsShape;
  }

  lastRowsLogits(hidden: string, numLogits: string, quantised: boolean): string {
    const g = this.g;
    const count = g.op('Unsqueeze', [numLogits, g.ints('axes.0', [0])], 'logits.count');
    const int64Max = g.weight('int64.max', { type: 'int64', dims: [1], data: BigInt64Array.of(INT64_MAX) });
    const rows = g.op('Slice', [hidden, g.op('Neg', [count], 'logits.start'), int64Max, g.ints('axes.1', [1])], 'logits.rows');
    // the lm_head is read in row chunks when quantised: its float32 copy alone is 662 MB at the real width
    let logits = quantised ? this.chunkedQuantisedLinear(rows, 'lm_head', 'lm_head.weight') : this.checkpointLinear(rows, 'lm_head.weight', 'lm_head', false);
    if (this.precision.floatType !== 'float32') logits = g.op('Cast', [logits], 'logits.float', { attributes: { to: 1 } });
    return logits;
  }
}

function concatRows(parts: readonly Float32Array[]): Float32Array {
  const out = new Float32Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

function kvSpecs(prefix: string, layers: readonly string[], config: DecoderConfig, axis: string, dtype: 'float32' | 'float16'): TensorSpec[] {
  return layers.flatMap((layer) => (['key', 'value'] as const).map((kind) => ({ name: `${prefix}_${kind}${layer}`, dtype, shape: [1, axis, config.num_key_value_heads, headDim(config)] })));
}

/** `[1, 1, s, past + s]`: 0 where new row i may see key j (j <= past + i), the type's lowest value elsewhere; shared by every layer. */
function causalBias(g: GraphBuilder, past: string, x: string, type: 'float32' | 'float16'): string {
  const pastLength = g.op('Shape', [past], 'bias.past', { attributes: { start: 1, end: 2 } });
  const newLength = g.op('Shape', [x], 'bias.new', { attributes: { start: 1, end: 2 } });
  const total = g.op('Add', [pastLength, newLength], 'bias.total');
  const zero = g.ints('int64.0', 0);
  const one = g.ints('int64.1', 1);
  const scalar = g.ints('axes.0', [0]);
  const rows = g.op('Range', [zero, g.op('Squeeze', [newLength, scalar], 'bias.new_scalar'), one], 'bias.rows');
  const query = g.op('Add', [g.op('Unsqueeze', [rows, g.ints('axes.1', [1])], 'bias.rows_column'), pastLength], 'bias.query');
  const keys = g.op('Range', [zero, g.op('Squeeze', [total, scalar], 'bias.total_scalar'), one], 'bias.keys');
  const hidden = g.op('Greater', [keys, query], 'bias.after');
  const blocked = g.weight('bias.blocked', floatScalar(type, LOWEST[type]));
  const open = g.weight('bias.open', floatScalar(type, 0));
  const bias = g.op('Where', [hidden, blocked, open], 'bias.where');
  return g.op('Unsqueeze', [bias, g.ints('axes.01', [0, 1])], 'bias');
}

/** Expert `e`'s first matrix with its rows interleaved: gate 0, up 0, gate 1, up 1, ... (SwiGLU fused). */
function interleavedGateUp(reader: CheckpointReader, prefix: string, e: number): Float32Array {
  const gate = reader.read(`${prefix}.experts.${e}.gate_proj.weight`);
  const up = reader.read(`${prefix}.experts.${e}.up_proj.weight`);
  const [inner, hidden] = reader.shape(`${prefix}.experts.${e}.gate_proj.weight`) as [number, number];
  const out = new Float32Array(2 * inner * hidden);
  for (let r = 0; r < inner; r++) {
    out.set(gate.subarray(r * hidden, (r + 1) * hidden), 2 * r * hidden);
    out.set(up.subarray(r * hidden, (r + 1) * hidden), (2 * r + 1) * hidden);
  }
  return out;
}

/** The top-k experts of each token through `MoE` / `QMoE`: `[tokens, hidden]`. */
function routedExperts(layers: Layers, xFlat: string, prefix: string): string {
  const { g, reader, config: d, precision: p } = layers;
  const experts = d.n_routed_experts;
  // the router in float32, as the reference's softmax
  const [, hidden] = reader.shape(`${prefix}.gate.weight`) as [number, number];
  const x32 = p.floatType === 'float32' ? xFlat : g.op('Cast', [xFlat], `${prefix}.router_in`, { attributes: { to: 1 } });
  const router = g.weight(`${prefix}.gate.weight`, () => ({ type: 'float32', dims: [hidden, experts], data: transposed(reader.read(`${prefix}.gate.weight`), experts, hidden) }));
  const logits = g.op('MatMul', [x32, router], `${prefix}.router`);
  const logitsTyped = p.floatType === 'float32' ? logits : g.op('Cast', [logits], `${prefix}.router_t`, { attributes: { to: 10 } });
  const inner = d.moe_intermediate_size;
  const fc1 = (e: number) => interleavedGateUp(reader, prefix, e);
  const fc2 = (e: number) => reader.read(`${prefix}.experts.${e}.down_proj.weight`);
  const common = {
    k: d.num_experts_per_tok,
    activation_type: { string: 'swiglu' },
    swiglu_fusion: 1,
    activation_alpha: { float: 1.0 },
    activation_beta: { float: 0.0 },
    normalize_routing_weights: d.norm_topk_prob ? 1 : 0,
  };
  let routed: string;
  if (p.quantised) {
    const layout = expertLayout(p, d);
    const [q1, s1] = stackedQuantised(layers, `${prefix}.experts.fc1`, experts, 2 * inner, hidden, fc1, layout);
    const [q2, s2] = stackedQuantised(layers, `${prefix}.experts.fc2`, experts, hidden, inner, fc2, layout);
    routed = g.op('QMoE', [xFlat, logitsTyped, q1, s1, '', q2, s2], `${prefix}.qmoe`, {
      domain: CONTRIB_DOMAIN,
      attributes: { expert_weight_bits: layout.bits, ...(layout.blockSize ? { block_size: layout.blockSize } : {}), ...common },
    });
    if (!d.norm_topk_prob) {
      // ONNX Runtime 1.30's QMoE renormalises the top-k weights whatever `normalize_routing_weights`
      // says (CPU and WebGPU; its `router_weights` input, which would avoid it, is not implemented on
      // WebGPU), so undo it: scale each token's output by the sum of its top-k probabilities.
      const probs = g.op('Softmax', [logits], `${prefix}.probs`, { attributes: { axis: -1 } });
      const [top] = g.op('TopK', [probs, g.ints('topk.k', [d.num_experts_per_tok])], `${prefix}.topk`, { outputs: 2, attributes: { axis: -1 } });
      let mass = g.op('ReduceSum', [top!, g.ints('axes.last', [-1])], `${prefix}.top_mass`, { attributes: { keepdims: 1 } });
      if (p.floatType !== 'float32') mass = g.op('Cast', [mass], `${prefix}.top_mass_t`, { attributes: { to: 10 } });
      routed = g.op('Mul', [routed, mass], `${prefix}.unrenormalised`);
    }
  } else {
    const w1 = stacked(layers, `${prefix}.experts.fc1`, experts, [2 * inner, hidden], fc1);
    const w2 = stacked(layers, `${prefix}.experts.fc2`, experts, [hidden, inner], fc2);
    routed = g.op('MoE', [xFlat, logitsTyped, w1, '', w2], `${prefix}.moe`, { domain: CONTRIB_DOMAIN, attributes: common });
  }
  if (d.routed_scaling_factor !== 1.0) {
    routed = g.op('Mul', [routed, g.weight(`${prefix}.routed_scale`, floatScalar(p.floatType, d.routed_scaling_factor))], `${prefix}.routed_scaled`);
  }
  return routed;
}

/** `[experts, rows, cols]` written expert by expert: one expert in memory at a time. */
function stacked(layers: Layers, name: string, experts: number, dims: [number, number], read: (e: number) => Float32Array): string {
  const type: ElementType = layers.precision.weightType;
  return layers.g.weightParts(name, type, [experts, ...dims], function* () {
    for (let e = 0; e < experts; e++) yield storedAs(layers.precision.weightType, `${name}.${e}`, dims, read(e)).data;
  });
}

function stackedQuantised(layers: Layers, name: string, experts: number, rows: number, cols: number, read: (e: number) => Float32Array, layout: ExpertLayout): [string, string] {
  const { g, precision: p } = layers;
  const block = layout.blockSize || cols;
  const blocks = Math.ceil(cols / block);
  const rowBytes = (blocks * block * layout.bits) / 8;
  // the packed experts are a quarter (8 bits) or an eighth of their float32 size: a layer's worth fits
  let scales: Float32Array | undefined;
  const packed = () => {
    const out = new Uint8Array(experts * rows * rowBytes);
    scales = new Float32Array(experts * rows * blocks);
    let e = 0;
    for (const q of layers.pool.inTurn(experts, (i) => [read(i), rows, cols, block, layout.bits, layout.signed])) {
      out.set(q.packed, e * rows * rowBytes);
      scales.set(q.scales, e++ * rows * blocks);
    }
    return out;
  };
  const qweight = g.weight(`${name}.qweight`, () => ({ type: 'uint8', dims: [experts, rows, rowBytes], data: packed() }));
  // per column: QMoE takes the scales as [experts, rows]
  const scaleDims = layout.blockSize ? [experts, rows, blocks] : [experts, rows];
  const scaleName = g.weight(`${name}.scales`, () => storedAs(p.floatType, `${name}.scales`, scaleDims, scales ?? (packed(), scales!)));
  return [qweight, scaleName];
}

/** Layer i's attention over its past `[1, past, heads, dim]` joined to the new rows: the attended rows and the new key and value rows. */
function joinedAttention(layers: Layers, q: string, k: string, v: string, i: number, rowShape: string, bias: string, prefix: string): [string, string, string] {
  const g = layers.g;
  const keys = g.op('Concat', [g.op('Reshape', [`past_key.${i}`, rowShape], `${prefix}.past_keys`), k], `${prefix}.keys`, { attributes: { axis: 1 } });
  const values = g.op('Concat', [g.op('Reshape', [`past_value.${i}`, rowShape], `${prefix}.past_values`), v], `${prefix}.values`, { attributes: { axis: 1 } });
  const attended = g.op('MultiHeadAttention', [q, keys, values, '', '', bias], `${prefix}.attention`, { domain: CONTRIB_DOMAIN, attributes: { num_heads: layers.config.num_attention_heads } });
  return [attended, g.op('Reshape', [k, layers.heads()], `${prefix}.present_key`), g.op('Reshape', [v, layers.heads()], `${prefix}.present_value`)];
}

/**
 * Attention over a cache at capacity, read in place, with the pages of a packed pass on a batch axis
 * (`lanes`): keys `[lanes, heads, dim, capacity]` (already transposed for the scores), values
 * `[lanes, heads, capacity, dim]`, the pass's rows lane by lane in equal groups (`[1, lanes * R,
 * hidden]`), each group's scores over its own lane's slots and its own new rows, and `bias`
 * `[lanes, 1, R, capacity + R]` hiding the empty slots and later new rows. With the lanes along one
 * sequence axis every row read every lane's slots: a pass of 4 pages at 1,200 rows a lane spent 16x
 * a page's attention time (profiled, docs/benchmarks.md). One page is `lanes` = 1. No pass copies the
 * cache: joining it to the new rows copied the whole past every step, about 1.8 ms per layer at 900
 * rows and 10 ms at 4,400, against 0.15 and 2.3 ms for this. Returns the attended rows
 * `[1, s, hidden]` and the new key and value rows `[1, s, heads, dim]`.
 */
function capacityAttention(layers: Layers, q: string, k: string, v: string, pastKey: string, pastValue: string, bias: string, block: string): [string, string, string] {
  const { g, config, precision } = layers;
  const dim = headDim(config);
  const shape = layers.heads();
  // [lanes, R, heads, dim]: the lanes from the cache, the rows a lane from the pass
  const laneShape = g.op('Concat', [g.op('Shape', [pastKey], `${block}.lanes`, { attributes: { start: 0, end: 1 } }), g.ints('shape.lane_heads', [-1, config.num_key_value_heads, dim])], `${block}.lane_shape`, { attributes: { axis: 0 } });
  const qHeads = g.op('Transpose', [g.op('Reshape', [q, laneShape], `${block}.q_heads`)], `${block}.q_t`, { attributes: { perm: [0, 2, 1, 3] } });
  const kHeads = g.op('Transpose', [g.op('Reshape', [k, laneShape], `${block}.k_heads`)], `${block}.k_t`, { attributes: { perm: [0, 2, 3, 1] } });
  const vHeads = g.op('Transpose', [g.op('Reshape', [v, laneShape], `${block}.v_lanes`)], `${block}.v_t`, { attributes: { perm: [0, 2, 1, 3] } });
  const kRows = g.op('Reshape', [k, shape], `${block}.present_key`);
  const vRows = g.op('Reshape', [v, shape], `${block}.v_heads`);
  const scores = g.op('Concat', [g.op('MatMul', [qHeads, pastKey], `${block}.scores_past`), g.op('MatMul', [qHeads, kHeads], `${block}.scores_new`)], `${block}.scores`, { attributes: { axis: -1 } });
  const scale = g.weight(`${block}.scale`, floatScalar(precision.floatType, Math.fround(dim ** -0.5)));
  const biased = g.op('Add', [g.op('Mul', [scores, scale], `${block}.scaled`), bias], `${block}.biased`);
  const probs = g.op('Softmax', [biased], `${block}.probs`, { attributes: { axis: -1 } });
  const capacity = g.op('Shape', [pastKey], `${block}.capacity`, { attributes: { start: 3, end: 4 } });
  const axis = g.ints('axes.3', [3]);
  const pastProbs = g.op('Slice', [probs, g.ints('int64.0s', [0]), capacity, axis], `${block}.probs_past`);
  const int64Max = g.weight('int64.max', { type: 'int64', dims: [1], data: BigInt64Array.of(INT64_MAX) });
  const newProbs = g.op('Slice', [probs, capacity, int64Max, axis], `${block}.probs_new`);
  const attended = g.op('Add', [g.op('MatMul', [pastProbs, pastValue], `${block}.out_past`), g.op('MatMul', [newProbs, vHeads], `${block}.out_new`)], `${block}.out`);
  const rows = g.op('Reshape', [g.op('Transpose', [attended], `${block}.out_t`, { attributes: { perm: [0, 2, 1, 3] } }), g.ints('shape.rows', [1, -1, config.hidden_size])], `${block}.out_rows`);
  return [rows, kRows, vRows];
}

function declare(g: GraphBuilder, specs: readonly TensorSpec[]): void {
  for (const spec of specs) g.input(spec.name, spec.dtype, spec.shape);
}

export interface DecoderBuild {
  reader: CheckpointReader;
  config: DecoderConfig;
  precision: Precision;
  /** Where the graph's protobuf goes. */
  path: string;
  /** The data file its weights go to, shared with the package's other decoder graph. */
  weights: WeightsFile;
  layout: CacheLayout;
  /** Quantises the int4 matrices and the draft lm_head. */
  pool: QuantisePool;
  /** Called as each layer is written, for progress. */
  onLayer?: (layer: number) => Promise<void>;
}

/** The decoder graph in `layout`. */
export async function buildDecoder(build: DecoderBuild): Promise<Omit<BuiltGraph, 'file'>> {
  const { reader, config: d, precision, layout } = build;
  if (d.num_key_value_heads !== d.num_attention_heads) {
    throw new Error(`num_key_value_heads ${d.num_key_value_heads} differs from num_attention_heads ${d.num_attention_heads}; Folio's decoder graph supports plain multi-head attention only`);
  }
  const g = new GraphBuilder(build.path.replace(/^.*\//, '').replace(/\.onnx$/, ''), build.weights);
  const layers = new Layers(g, reader, d, precision, build.pool);
  const f = precision.floatType;
  const hidden = d.hidden_size;
  const names = Array.from({ length: d.num_hidden_layers }, (_, i) => `.${i}`);
  const capacity = layout === 'capacity';
  const heads = d.num_key_value_heads;
  const dim = headDim(d);
  const pastSpecs: TensorSpec[] = capacity
    ? [
        ...names.flatMap((name): TensorSpec[] => [
          { name: `past_key${name}`, dtype: f, shape: ['lanes', heads, dim, 'capacity'] },
          { name: `past_value${name}`, dtype: f, shape: ['lanes', heads, 'capacity', dim] },
        ]),
        { name: 'attention_bias', dtype: f, shape: ['lanes', 1, 'lane_sequence', 'capacity_and_lane_sequence'] },
      ]
    : kvSpecs('past', names, d, 'past', f);
  const inputs: TensorSpec[] = [
    { name: 'inputs_embeds', dtype: f, shape: [1, 'sequence', hidden] },
    { name: 'position_ids', dtype: 'int64', shape: [1, 'sequence'] },
    { name: 'num_logits', dtype: 'int64', shape: [] },
    ...pastSpecs,
  ];
  const outputs: TensorSpec[] = [
    { name: 'logits', dtype: 'float32', shape: [1, 'num_logits', d.vocab_size] },
    { name: 'hidden_states', dtype: f, shape: [1, 'sequence', hidden] },
    ...kvSpecs('present', names, d, 'sequence', f),
  ];
  declare(g, inputs);
  let x = 'inputs_embeds';
  const positions = 'position_ids';
  const bias = capacity ? 'attention_bias' : causalBias(g, 'past_key.0', x, f);
  const flatShape = g.ints('shape.flat', [-1, hidden]);
  const rowShape = g.ints('shape.rows', [1, -1, hidden]);
  layers.heads();
  let pending: string | undefined; // the previous layer's MLP output, added to the residual by the next norm
  const presents: string[] = [];
  for (let i = 0; i < d.num_hidden_layers; i++) {
    const prefix = `model.layers.${i}`;
    const ln = `${prefix}.input_layernorm.weight`;
    let normed: string;
    if (pending === undefined) normed = layers.norm(x, ln, `${prefix}.input_layernorm`);
    else [normed, x] = layers.addNorm(pending, x, ln, `${prefix}.input_layernorm`);
    const [q, k, v] = layers.qkv(normed, `${prefix}.self_attn`, positions);
    const [attended, kRows, vRows] = capacity
      ? capacityAttention(layers, q, k, v, `past_key.${i}`, `past_value.${i}`, bias, `${prefix}.self_attn`)
      : joinedAttention(layers, q, k, v, i, rowShape, bias, prefix);
    presents.push(kRows, vRows);
    const attnOut = layers.checkpointLinear(attended, `${prefix}.self_attn.o_proj.weight`, `${prefix}.self_attn.o_proj`);
    [normed, x] = layers.addNorm(attnOut, x, `${prefix}.post_attention_layernorm.weight`, `${prefix}.post_attention_layernorm`);
    if (i < d.first_k_dense_replace) {
      pending = layers.swigluMlp(normed, `${prefix}.mlp`);
    } else {
      const flat = g.op('Reshape', [normed, flatShape], `${prefix}.mlp.flat`);
      const routed = g.op('Reshape', [routedExperts(layers, flat, `${prefix}.mlp`), rowShape], `${prefix}.mlp.routed`);
      const shared = layers.swigluMlp(normed, `${prefix}.mlp.shared_experts`);
      pending = g.op('Add', [routed, shared], `${prefix}.mlp.sum`);
    }
    await build.onLayer?.(i);
  }
  const [final] = layers.addNorm(pending!, x, 'model.norm.weight', 'model.norm');
  const logits = layers.lastRowsLogits(final, 'num_logits', precision.quantised);
  g.output(logits, 'logits', 'float32', outputs[0]!.shape);
  g.output(final, 'hidden_states', f, outputs[1]!.shape);
  outputs.slice(2).forEach((spec, i) => g.output(presents[i]!, spec.name, f, spec.shape));
  g.finish(build.path);
  const experts = precision.quantised && d.first_k_dense_replace < d.num_hidden_layers ? expertLayout(precision, d) : undefined;
  return { inputs, outputs, nodes: g.nodeCount(), requires: g.contribOps(), ...(experts ? { routedExperts: experts } : {}) };
}

/** A row lookup; the int4 package keeps its table in fp16 and widens only the rows it looks up. */
export function buildEmbedding(reader: CheckpointReader, d: DecoderConfig, precision: Precision, path: string, weights: WeightsFile): Omit<BuiltGraph, 'file'> {
  const g = new GraphBuilder('embedding', weights);
  const f = precision.floatType;
  const inputs: TensorSpec[] = [{ name: 'input_ids', dtype: 'int64', shape: [1, 'sequence'] }];
  const outputs: TensorSpec[] = [{ name: 'inputs_embeds', dtype: f, shape: [1, 'sequence', d.hidden_size] }];
  declare(g, inputs);
  const name = 'model.embed_tokens.weight';
  const [vocab, hidden] = reader.shape(name) as [number, number];
  const half = precision.quantised || precision.weightType === 'float16';
  // read in row chunks: the table is 662 MB in float32 at the real width
  const table = g.weightParts(name, half ? 'float16' : 'float32', [vocab, hidden], function* () {
    for (let start = 0; start < vocab; start += ROW_CHUNK) {
      const rows = reader.readRows(name, start, Math.min(ROW_CHUNK, vocab - start));
      yield half ? halfWeights(name, rows) : rows;
    }
  });
  let rows = g.op('Gather', [table, 'input_ids'], 'embed');
  if (half && f === 'float32') rows = g.op('Cast', [rows], 'embed.float', { attributes: { to: 1 } });
  g.output(rows, 'inputs_embeds', f, outputs[0]!.shape);
  g.finish(path);
  return { inputs, outputs, nodes: g.nodeCount(), requires: g.contribOps() };
}

/**
 * The FastMTP head with its cache at capacity. Its lm_head is a 4-bit copy whatever the precision:
 * drafts need not be exact (verification is), and a draft pass then reads a quarter of what a float32
 * lm_head costs.
 */
export function buildMtp(reader: CheckpointReader, d: DecoderConfig, precision: Precision, path: string, weights: WeightsFile, pool: QuantisePool, head = 0): Omit<BuiltGraph, 'file'> {
  const g = new GraphBuilder('mtp', weights);
  const layers = new Layers(g, reader, d, precision, pool);
  const f = precision.floatType;
  const heads = d.num_key_value_heads;
  const dim = headDim(d);
  const hidden = d.hidden_size;
  const inputs: TensorSpec[] = [
    { name: 'inputs_embeds', dtype: f, shape: [1, 'sequence', hidden] },
    { name: 'previous_hidden', dtype: f, shape: [1, 'sequence', hidden] },
    { name: 'position_ids', dtype: 'int64', shape: [1, 'sequence'] },
    { name: 'num_logits', dtype: 'int64', shape: [] },
    { name: 'past_key', dtype: f, shape: ['lanes', heads, dim, 'capacity'] },
    { name: 'past_value', dtype: f, shape: ['lanes', heads, 'capacity', dim] },
    { name: 'attention_bias', dtype: f, shape: ['lanes', 1, 'lane_sequence', 'capacity_and_lane_sequence'] },
  ];
  const outputs: TensorSpec[] = [
    { name: 'logits', dtype: 'float32', shape: [1, 'num_logits', d.vocab_size] },
    { name: 'hidden_states', dtype: f, shape: [1, 'sequence', hidden] },
    ...kvSpecs('present', [''], d, 'sequence', f),
  ];
  declare(g, inputs);
  const prefix = `mtp_module.heads.${head}`;
  const block = `${prefix}.mtp_block`;
  const embeds = layers.norm('inputs_embeds', `${prefix}.enorm.weight`, `${prefix}.enorm`);
  const previous = layers.norm('previous_hidden', `${prefix}.hnorm.weight`, `${prefix}.hnorm`);
  const joined = g.op('Concat', [embeds, previous], `${prefix}.concat`, { attributes: { axis: -1 } });
  let x = layers.checkpointLinear(joined, `${prefix}.eh_proj.weight`, `${prefix}.eh_proj`);
  let normed = layers.norm(x, `${block}.input_layernorm.weight`, `${block}.input_layernorm`);
  const [q, k, v] = layers.qkv(normed, `${block}.self_attn`, 'position_ids');
  const [rows, kRows, vRows] = capacityAttention(layers, q, k, v, 'past_key', 'past_value', 'attention_bias', block);
  const attnOut = layers.checkpointLinear(rows, `${block}.self_attn.o_proj.weight`, `${block}.self_attn.o_proj`);
  [normed, x] = layers.addNorm(attnOut, x, `${block}.post_attention_layernorm.weight`, `${block}.post_attention_layernorm`);
  const mlp = layers.swigluMlp(normed, `${block}.mlp`);
  const [final] = layers.addNorm(mlp, x, 'model.norm.weight', 'model.norm');
  const logits = layers.lastRowsLogits(final, 'num_logits', true);
  g.output(logits, 'logits', 'float32', outputs[0]!.shape);
  g.output(final, 'hidden_states', f, outputs[1]!.shape);
  g.output(kRows, 'present_key', f, outputs[2]!.shape);
  g.output(vRows, 'present_value', f, outputs[3]!.shape);
  g.finish(path);
  return { inputs, outputs, nodes: g.nodeCount(), requires: g.contribOps() };
}
