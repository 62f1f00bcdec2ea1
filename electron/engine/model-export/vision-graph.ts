/**
 * The DeepEncoder for one view size, written op by op from the checkpoint's tensors (what
 * tools/model/folio_model/sam.py, clip.py and vision.py compute): `pixel_values [views, 3, S, S]` ->
 * `features [views, (S/64)^2, H]`, `image_newline [H]`, `view_seperator [H]`.
 *
 * - SAM ViT-B: the patch embedding, the absolute position table resized to the view's grid, blocks
 *   of windowed (padded to whole windows) or global attention with decomposed relative positions
 *   (each axis's table resized, and looked up per query and key, at export time), the neck and the
 *   16x compressor;
 * - CLIP-L on SAM's output as its patch tokens, CLS first, its position table resized;
 * - the projector over CLIP's tokens (CLS dropped) joined to SAM's.
 *
 * Global attention scores its queries a band of grid rows at a time (at most `QUERY_BAND` queries), as
 * the reference does: a global block at 1,024 px has 4,096 of them, and its whole score matrix would
 * be 805 MB a view in fp32, three times over. Arithmetic is float32 in every precision; the fp16
 * package stores its weights in fp16 (widened by a Cast as the graph opens) and takes and returns
 * fp16, and the int4 package runs the linear layers whose input width is a whole number of 32-wide
 * blocks as 8-bit MatMulNBits.
 */

import type { ElementType } from '../onnx/onnx-proto.js';
import type { ModelConfig } from './checkpoint-config.js';
import type { CheckpointReader } from './checkpoint-reader.js';
import type { BuiltGraph, TensorSpec } from './decoder-graphs.js';
import { CONTRIB_DOMAIN, GraphBuilder } from './graph-builder.js';
import { relativeTable, resizeBicubicAntialias } from './position-resize.js';
import { halfWeights, transposed, type Precision } from './precision.js';
import type { Quantise } from './quantise-pool.js';
import type { WeightsFile } from './weights-file.js';

/** Most queries one attention pass scores at once. */
const QUERY_BAND = 1024;
/** The 8-bit linear layers' block along K. */
const LINEAR_BLOCK = 32;
const SAM_EPS = 1e-6;

export interface VisionGraph extends Omit<BuiltGraph, 'file'> {
  viewSize: number;
  grid: number;
}

/** Node-writing steps over the encoder's weights, float32 inside the graph whatever the precision. */
class Encoder {
  constructor(
    readonly g: GraphBuilder,
    readonly reader: CheckpointReader,
    readonly precision: Precision,
    readonly quantise: Quantise,
  ) {}

  private get half(): boolean {
    return this.precision.weightType === 'float16';
  }

  /** A float weight as float32 in the graph: stored as it is, or in fp16 and widened by a Cast. `key` places it in the data file. */
  float(name: string, dims: readonly number[], make: () => Float32Array, key = name): string {
    if (!this.half) return this.g.weight(name, () => ({ type: 'float32', dims, data: make() }), key);
    const stored = this.g.weight(`${name}.fp16`, () => ({ type: 'float16', dims, data: halfWeights(name, make()) }), `${key}.fp16`);
    return this.g.op('Cast', [stored], name, { attributes: { to: 1 } });
  }

  tensor(name: string): string {
    return this.float(name, this.reader.shape(name), () => this.reader.read(name));
  }

  /** A checkpoint `nn.Linear` (`<prefix>.weight [out, in]`, `<prefix>.bias`) over the last axis. */
  linear(x: string, prefix: string): string {
    const g = this.g;
    const name = `${prefix}.weight`;
    const [n, k] = this.reader.shape(name) as [number, number];
    let y: string;
    const bits = this.precision.visionLinearBits;
    if (bits && k % LINEAR_BLOCK === 0) {
      let scales: Float32Array | undefined;
      const quantised = () => {
        const q = this.quantise(this.reader.read(name), n, k, LINEAR_BLOCK, bits);
        scales = q.scales;
        return q;
      };
      const packed = g.weight(`${name}.q${bits}`, () => ({ type: 'uint8', dims: [n, k / LINEAR_BLOCK, LINEAR_BLOCK], data: quantised().packed }));
      const scaleName = g.weight(`${name}.scales`, () => ({ type: 'float32', dims: [n, k / LINEAR_BLOCK], data: scales ?? quantised().scales }));
      y = g.op('MatMulNBits', [x, packed, scaleName], prefix, {
        domain: CONTRIB_DOMAIN,
        attributes: { K: k, N: n, bits, block_size: LINEAR_BLOCK, accuracy_level: 4 },
      });
    } else {
      y = g.op('MatMul', [x, this.float(`${name}.t`, [k, n], () => transposed(this.reader.read(name), n, k))], prefix);
    }
    return g.op('Add', [y, this.tensor(`${prefix}.bias`)], `${prefix}.add_bias`);
  }

  layerNorm(x: string, prefix: string, epsilon: number): string {
    return this.g.op('LayerNormalization', [x, this.tensor(`${prefix}.weight`), this.tensor(`${prefix}.bias`)], prefix, { attributes: { axis: -1, epsilon: { float: epsilon } } });
  }

  conv(x: string, prefix: string, options: { stride?: number; pad?: number; bias?: boolean }): string {
    const weight = `${prefix}.weight`;
    const [, , kh, kw] = this.reader.shape(weight) as [number, number, number, number];
    const pad = options.pad ?? 0;
    const stride = options.stride ?? 1;
    const inputs = [x, this.tensor(weight), ...(options.bias ? [this.tensor(`${prefix}.bias`)] : [])];
    return this.g.op('Conv', inputs, prefix, { attributes: { kernel_shape: [kh, kw], strides: [stride, stride], pads: [pad, pad, pad, pad], dilations: [1, 1], group: 1 } });
  }

  scalar(name: string, value: number): string {
    return this.g.weight(name, { type: 'float32', dims: [], data: Float32Array.of(value) });
  }

  /** GELU with erf, as PyTorch writes `F.gelu` (ONNX Runtime fuses it). */
  gelu(x: string, name: string): string {
    const g = this.g;
    const erf = g.op('Erf', [g.op('Div', [x, this.scalar(`${name}.sqrt2`, Math.SQRT2)], `${name}.scaled`)], `${name}.erf`);
    const gated = g.op('Mul', [x, g.op('Add', [erf, this.scalar(`${name}.one`, 1)], `${name}.shifted`)], `${name}.gated`);
    return g.op('Mul', [gated, this.scalar(`${name}.half`, 0.5)], name);
  }
}

/** SAM's attention over `[batch, side, side, C]` windows (or the whole grid), decomposed relative positions included. */
function samAttention(e: Encoder, x: string, prefix: string, side: number, heads: number, channels: number, tables: { h: string[]; w: string }): string {
  const g = e.g;
  const dim = channels / heads;
  const qkv = g.op('Reshape', [e.linear(x, `${prefix}.qkv`), g.ints(`${prefix}.qkv_shape`, [-1, side * side, 3, heads, dim])], `${prefix}.qkv_heads`);
  const parts = g.op('Transpose', [qkv], `${prefix}.qkv_t`, { attributes: { perm: [2, 0, 3, 1, 4] } });
  const [q, k, v] = [0, 1, 2].map((i) => g.op('Gather', [parts, g.ints(`${prefix}.index${i}`, i)], `${prefix}.${'qkv'[i]}`, { attributes: { axis: 0 } })) as [string, string, string];
  const keys = g.op('Transpose', [k], `${prefix}.k_t`, { attributes: { perm: [0, 1, 3, 2] } });
  const scale = e.scalar(`${prefix}.scale`, dim ** -0.5);
  const band = Math.max(1, Math.floor(QUERY_BAND / side));
  const single = band >= side;
  const outs: string[] = [];
  for (let top = 0, b = 0; top < side; top += band, b++) {
    const rows = single ? side : Math.min(band, side - top);
    const at = single ? prefix : `${prefix}.band${b}`;
    const queries = single ? q : g.op('Slice', [q, g.ints(`${at}.start`, [top * side]), g.ints(`${at}.end`, [(top + rows) * side]), g.ints(`${at}.axis`, [2])], `${at}.queries`);
    const scores = g.op('MatMul', [g.op('Mul', [queries, scale], `${at}.q_scaled`), keys], `${at}.scores`);
    // decomposed relative positions, from the unscaled query: one term per axis
    const grid = g.op('Reshape', [queries, g.ints(`${at}.grid_shape`, [-1, heads, rows, side, dim])], `${at}.grid_q`);
    const relH = g.op('MatMul', [grid, tables.h[b]!], `${at}.rel_h`);
    const byColumn = g.op('Transpose', [grid], `${at}.grid_q_t`, { attributes: { perm: [0, 1, 3, 2, 4] } });
    const relW = g.op('Transpose', [g.op('MatMul', [byColumn, tables.w], `${at}.rel_w_t`)], `${at}.rel_w`, { attributes: { perm: [0, 1, 3, 2, 4] } });
    const bias = g.op('Add', [
      g.op('Unsqueeze', [relH, g.ints(`${at}.axis_h`, [5])], `${at}.rel_h_column`),
      g.op('Unsqueeze', [relW, g.ints(`${at}.axis_w`, [4])], `${at}.rel_w_row`),
    ], `${at}.rel`);
    const flatBias = g.op('Reshape', [bias, g.ints(`${at}.bias_shape`, [-1, heads, rows * side, side * side])], `${at}.bias`);
    const probs = g.op('Softmax', [g.op('Add', [scores, flatBias], `${at}.biased`)], `${at}.probs`, { attributes: { axis: -1 } });
    outs.push(g.op('MatMul', [probs, v], `${at}.out`));
  }
  const joined = outs.length === 1 ? outs[0]! : g.op('Concat', outs, `${prefix}.bands`, { attributes: { axis: 2 } });
  const rows = g.op('Reshape', [g.op('Transpose', [joined], `${prefix}.out_t`, { attributes: { perm: [0, 2, 1, 3] } }), g.ints(`${prefix}.out_shape`, [-1, side, side, channels])], `${prefix}.out_rows`);
  return e.linear(rows, `${prefix}.proj`);
}

/** The relative tables of a block whose attention spans `side` positions a side, as MatMul operands (per band of query rows for the height). */
function relativeTables(e: Encoder, prefix: string, side: number, dim: number): { h: string[]; w: string } {
  const table = (axis: 'h' | 'w') => {
    const name = `${prefix}.rel_pos_${axis}`;
    const [length] = e.reader.shape(name) as [number];
    return () => relativeTable(e.reader.read(name), length, dim, side);
  };
  const band = Math.max(1, Math.floor(QUERY_BAND / side));
  const hTable = table('h');
  const h: string[] = [];
  for (let top = 0, b = 0; top < side; top += band, b++) {
    const rows = Math.min(band, side - top);
    const name = `${prefix}.rel_pos_h.table${rows === side ? '' : `.band${b}`}`;
    h.push(e.float(name, [rows, dim, side], () => hTable().subarray(top * dim * side, (top + rows) * dim * side), `${name}@${side}`));
  }
  const w = e.float(`${prefix}.rel_pos_w.table`, [side, dim, side], table('w'), `${prefix}.rel_pos_w.table@${side}`);
  return { h, w };
}

function samBlock(e: Encoder, config: ModelConfig, x: string, i: number, grid: number): string {
  const g = e.g;
  const { sam } = config;
  const prefix = `model.sam_model.blocks.${i}`;
  const window = sam.global_attn_indexes.includes(i) ? 0 : sam.window_size;
  const c = sam.embed_dim;
  const dim = c / sam.num_heads;
  let y = e.layerNorm(x, `${prefix}.norm1`, SAM_EPS);
  if (window) {
    const padded = Math.ceil(grid / window) * window;
    const windows = padded / window;
    if (padded !== grid) {
      const pad = padded - grid;
      y = g.op('Pad', [y, g.ints(`${prefix}.pads`, [0, 0, 0, 0, 0, pad, pad, 0])], `${prefix}.pad`);
    }
    const parted = g.op('Transpose', [g.op('Reshape', [y, g.ints(`${prefix}.windows_shape`, [-1, windows, window, windows, window, c])], `${prefix}.windows`)], `${prefix}.windows_t`, { attributes: { perm: [0, 1, 3, 2, 4, 5] } });
    const batch = g.op('Reshape', [parted, g.ints(`${prefix}.batch_shape`, [-1, window, window, c])], `${prefix}.window_batch`);
    const attended = samAttention(e, batch, `${prefix}.attn`, window, sam.num_heads, c, relativeTables(e, `${prefix}.attn`, window, dim));
    const back = g.op('Transpose', [g.op('Reshape', [attended, g.ints(`${prefix}.unwindows_shape`, [-1, windows, windows, window, window, c])], `${prefix}.unwindows`)], `${prefix}.unwindows_t`, { attributes: { perm: [0, 1, 3, 2, 4, 5] } });
    y = g.op('Reshape', [back, g.ints(`${prefix}.grid_shape`, [-1, padded, padded, c])], `${prefix}.unwindowed`);
    if (padded !== grid) y = g.op('Slice', [y, g.ints(`${prefix}.crop_start`, [0, 0]), g.ints(`${prefix}.crop_end`, [grid, grid]), g.ints(`${prefix}.crop_axes`, [1, 2])], `${prefix}.crop`);
  } else {
    y = samAttention(e, y, `${prefix}.attn`, grid, sam.num_heads, c, relativeTables(e, `${prefix}.attn`, grid, dim));
  }
  x = g.op('Add', [x, y], `${prefix}.attn_residual`);
  const hidden = e.linear(e.gelu(e.linear(e.layerNorm(x, `${prefix}.norm2`, SAM_EPS), `${prefix}.mlp.lin1`), `${prefix}.mlp.gelu`), `${prefix}.mlp.lin2`);
  return g.op('Add', [x, hidden], `${prefix}.mlp_residual`);
}

/** LayerNorm over the channels of an NCHW map. */
function layerNorm2d(e: Encoder, x: string, prefix: string): string {
  const g = e.g;
  const last = g.op('Transpose', [x], `${prefix}.nhwc`, { attributes: { perm: [0, 2, 3, 1] } });
  return g.op('Transpose', [e.layerNorm(last, prefix, SAM_EPS)], `${prefix}.nchw`, { attributes: { perm: [0, 3, 1, 2] } });
}

/** `[views, 3, S, S]` -> `[views, net_3_chans, S/64, S/64]`. */
function sam(e: Encoder, config: ModelConfig, pixels: string, size: number): string {
  const g = e.g;
  const { sam: s } = config;
  const grid = Math.floor(size / s.patch_size);
  const trained = Math.floor(s.img_size / s.patch_size);
  const s0 = 'model.sam_model';
  let x = g.op('Transpose', [e.conv(pixels, `${s0}.patch_embed.proj`, { stride: s.patch_size, bias: true })], `${s0}.patches`, { attributes: { perm: [0, 2, 3, 1] } });
  const positions = e.float(`${s0}.pos_embed.${grid}`, [1, grid, grid, s.embed_dim], () => {
    const table = e.reader.read(`${s0}.pos_embed`);
    return grid === trained ? table : resizeBicubicAntialias(table, trained, trained, s.embed_dim, grid, grid);
  });
  x = g.op('Add', [x, positions], `${s0}.positioned`);
  for (let i = 0; i < s.depth; i++) x = samBlock(e, config, x, i, grid);
  let maps = g.op('Transpose', [x], `${s0}.nchw`, { attributes: { perm: [0, 3, 1, 2] } });
  maps = layerNorm2d(e, e.conv(maps, `${s0}.neck.0`, {}), `${s0}.neck.1`);
  maps = layerNorm2d(e, e.conv(maps, `${s0}.neck.2`, { pad: 1 }), `${s0}.neck.3`);
  return e.conv(e.conv(maps, `${s0}.net_2`, { stride: 2, pad: 1 }), `${s0}.net_3`, { stride: 2, pad: 1 });
}

function clipLayer(e: Encoder, config: ModelConfig, x: string, i: number, tokens: number): string {
  const g = e.g;
  const { clip } = config;
  const prefix = `model.vision_model.transformer.layers.${i}`;
  const c = clip.hidden_size;
  const heads = clip.num_attention_heads;
  const dim = c / heads;
  const attn = `${prefix}.self_attn`;
  const qkv = g.op('Reshape', [e.linear(e.layerNorm(x, `${prefix}.layer_norm1`, clip.layernorm_epsilon), `${attn}.qkv_proj`), g.ints(`${attn}.qkv_shape`, [-1, tokens, 3, heads, dim])], `${attn}.qkv_heads`);
  const parts = g.op('Transpose', [qkv], `${attn}.qkv_t`, { attributes: { perm: [2, 0, 3, 1, 4] } });
  const [q, k, v] = [0, 1, 2].map((j) => g.op('Gather', [parts, g.ints(`${attn}.index${j}`, j)], `${attn}.${'qkv'[j]}`, { attributes: { axis: 0 } })) as [string, string, string];
  const scores = g.op('Mul', [g.op('MatMul', [q, g.op('Transpose', [k], `${attn}.k_t`, { attributes: { perm: [0, 1, 3, 2] } })], `${attn}.scores`), e.scalar(`${attn}.scale`, dim ** -0.5)], `${attn}.scaled`);
  const out = g.op('MatMul', [g.op('Softmax', [scores], `${attn}.probs`, { attributes: { axis: -1 } }), v], `${attn}.out`);
  const rows = g.op('Reshape', [g.op('Transpose', [out], `${attn}.out_t`, { attributes: { perm: [0, 2, 1, 3] } }), g.ints(`${attn}.out_shape`, [-1, tokens, c])], `${attn}.out_rows`);
  x = g.op('Add', [x, e.linear(rows, `${attn}.out_proj`)], `${prefix}.attn_residual`);
  const mlp = `${prefix}.mlp`;
  const fc1 = e.linear(e.layerNorm(x, `${prefix}.layer_norm2`, clip.layernorm_epsilon), `${mlp}.fc1`);
  const quickGelu = g.op('Mul', [fc1, g.op('Sigmoid', [g.op('Mul', [fc1, e.scalar(`${mlp}.gelu_scale`, 1.702)], `${mlp}.gelu_in`)], `${mlp}.gelu_gate`)], `${mlp}.gelu`);
  return g.op('Add', [x, e.linear(quickGelu, `${mlp}.fc2`)], `${prefix}.mlp_residual`);
}

/** `[views, tokens, C]` SAM tokens -> `[views, 1 + tokens, C]` (CLS first). */
function clip(e: Encoder, config: ModelConfig, samTokens: string, side: number): string {
  const g = e.g;
  const { clip: c } = config;
  const v = 'model.vision_model';
  const tokens = side * side + 1;
  const count = g.op('Shape', [samTokens], `${v}.views`, { attributes: { start: 0, end: 1 } });
  const shape = g.op('Concat', [count, g.ints(`${v}.cls_dims`, [1, c.hidden_size])], `${v}.cls_shape`, { attributes: { axis: 0 } });
  const cls = g.op('Expand', [g.op('Reshape', [e.tensor(`${v}.embeddings.class_embedding`), g.ints(`${v}.cls_row`, [1, 1, c.hidden_size])], `${v}.cls_one`), shape], `${v}.cls`);
  const table = `${v}.embeddings.position_embedding.weight`;
  const [trainedTokens] = e.reader.shape(table) as [number];
  const positions = e.float(`${table}.${side}`, [tokens, c.hidden_size], () => {
    const values = e.reader.read(table);
    if (trainedTokens === tokens) return values;
    const trained = Math.round(Math.sqrt(trainedTokens - 1));
    const out = new Float32Array(tokens * c.hidden_size);
    out.set(values.subarray(0, c.hidden_size));
    out.set(resizeBicubicAntialias(values.subarray(c.hidden_size), trained, trained, c.hidden_size, side, side), c.hidden_size);
    return out;
  });
  let x = g.op('Add', [g.op('Concat', [cls, samTokens], `${v}.with_cls`, { attributes: { axis: 1 } }), positions], `${v}.positioned`);
  x = e.layerNorm(x, `${v}.pre_layrnorm`, c.pre_layernorm_epsilon);
  for (let i = 0; i < c.num_layers; i++) x = clipLayer(e, config, x, i, tokens);
  return x;
}

export interface VisionBuild {
  reader: CheckpointReader;
  config: ModelConfig;
  precision: Precision;
  size: number;
  path: string;
  /** `vision.onnx.data`, shared by every view size's graph. */
  weights: WeightsFile;
  /** `quantise` or a pool's (the int4 package's 8-bit linear layers). */
  quantise: Quantise;
}

/** `vision_<size>.onnx`. */
export function buildVision(build: VisionBuild): VisionGraph {
  const { reader, config, precision, size } = build;
  if (config.sam.net_3_chans !== config.clip.hidden_size) {
    throw new Error(`SAM's output (${config.sam.net_3_chans} channels) must be CLIP's width (${config.clip.hidden_size}): CLIP takes SAM's map as its patch tokens`);
  }
  const g = new GraphBuilder(`vision_${size}`, build.weights);
  const e = new Encoder(g, reader, precision, build.quantise);
  const f: ElementType & ('float32' | 'float16') = precision.floatType;
  const hidden = config.decoder.hidden_size;
  const side = Math.floor(size / config.sam.patch_size / 4);
  const inputs: TensorSpec[] = [{ name: 'pixel_values', dtype: f, shape: ['views', 3, size, size] }];
  const outputs: TensorSpec[] = [
    { name: 'features', dtype: f, shape: ['views', side * side, hidden] },
    { name: 'image_newline', dtype: f, shape: [hidden] },
    { name: 'view_seperator', dtype: f, shape: [hidden] },
  ];
  g.input('pixel_values', f, inputs[0]!.shape);
  const pixels = f === 'float32' ? 'pixel_values' : g.op('Cast', ['pixel_values'], 'pixel_values.float', { attributes: { to: 1 } });
  const maps = sam(e, config, pixels, size);
  const grid = Math.ceil(Math.ceil(Math.floor(size / config.sam.patch_size) / 2) / 2);
  const samTokens = g.op('Transpose', [g.op('Reshape', [maps, g.ints('sam.tokens_shape', [-1, config.sam.net_3_chans, grid * grid])], 'sam.tokens_flat')], 'sam.tokens', { attributes: { perm: [0, 2, 1] } });
  const clipTokens = clip(e, config, samTokens, grid);
  const withoutCls = g.op('Slice', [clipTokens, g.ints('clip.first', [1]), g.ints('clip.end', [grid * grid + 1]), g.ints('clip.axis', [1])], 'clip.tokens');
  const fused = g.op('Concat', [withoutCls, samTokens], 'fused', { attributes: { axis: -1 } });
  let features = e.linear(fused, 'model.projector.layers');
  if (f !== 'float32') features = g.op('Cast', [features], 'features.half', { attributes: { to: 10 } });
  g.output(features, 'features', f, outputs[0]!.shape);
  for (const name of ['image_newline', 'view_seperator']) {
    const tensor = `model.${name}`;
    const stored = f === 'float32'
      ? g.weight(tensor, () => ({ type: 'float32', dims: [hidden], data: reader.read(tensor) }))
      : g.weight(`${tensor}.fp16`, () => ({ type: 'float16', dims: [hidden], data: halfWeights(tensor, reader.read(tensor)) }));
    g.output(stored, name, f, [hidden]);
  }
  g.finish(build.path);
  return { viewSize: size, grid: side, inputs, outputs, nodes: g.nodeCount(), requires: g.contribOps() };
}
