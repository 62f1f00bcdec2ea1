/**
 * Small graphs the WebGPU path runs beside the package's own, so that caches, hidden rows and
 * logits stay on the device and only token ids cross to the host:
 *
 * - `cacheAppendGraph`: each cache tensor becomes `concat(past, new)[:, :keep]`, which appends a
 *   pass's new rows (the package's decoder returns only those) and rolls back rejected drafts in
 *   the same run;
 * - `mtpCachePrepareGraph`: the MTP head's cache in the layout its graph reads (keys transposed),
 *   at exactly its length plus one hidden slot in front (the provider aborts on a cache of no
 *   rows, so `mtpCacheStartGraph` makes that slot on the device), with the attention bias for the
 *   coming pass made on the device;
 * - `rowsGraph`: `concat(a, b)[:, start:end]` over hidden-state rows (slicing a verify pass's
 *   accepted rows, joining rows from plain steps);
 * - `tokenChoiceGraph`: the no-repeat ban (token ids per row, padded with -1) and the package's
 *   banned ids applied to the logits, then argmax: what greedy and verify read back is one id per row.
 *
 * All are built here, per package shape, with onnx-writer.ts; none holds weights.
 */

import { onnxModel, type ConstantTensor, type ElementType, type GraphNode } from '../onnx/onnx-writer.js';
import type { CacheDtype } from './kv-cache.js';

const int64 = (values: readonly number[]): ConstantTensor => ({ type: 'int64', dims: [values.length], data: BigInt64Array.from(values, BigInt) });

/** A scalar of the cache dtype: 0 or minus infinity (the bias and the ban). */
function floatScalar(dtype: CacheDtype, value: 0 | -1): ConstantTensor {
  if (dtype === 'float16') return { type: 'float16', dims: [], data: Uint16Array.of(value === 0 ? 0 : 0xfc00) };
  return { type: 'float32', dims: [], data: Float32Array.of(value === 0 ? 0 : Number.NEGATIVE_INFINITY) };
}

const COMMON = { zero: int64([0]), one: int64([1]), two: int64([2]), three: int64([3]), last: int64([-1]) };

/** `names` are the cache inputs (`past_key.0`...); inputs `<name>` and `new.<name>`, outputs `kept.<name>`, plus `keep`. */
export function cacheAppendGraph(names: readonly string[], dtype: CacheDtype, heads: number, headDim: number): Uint8Array {
  const nodes: GraphNode[] = names.flatMap((name) => [
    { op: 'Concat', inputs: [name, `new.${name}`], outputs: [`all.${name}`], attributes: { axis: 1 } },
    { op: 'Slice', inputs: [`all.${name}`, 'zero', 'keep', 'one'], outputs: [`kept.${name}`] },
  ]);
  return onnxModel({
    name: 'cache_append',
    nodes,
    initializers: { zero: COMMON.zero, one: COMMON.one },
    inputs: [
      ...names.flatMap((name) => [
        { name, type: dtype as ElementType, dims: [1, 'past', heads, headDim] },
        { name: `new.${name}`, type: dtype as ElementType, dims: [1, 'rows', heads, headDim] },
      ]),
      { name: 'keep', type: 'int64', dims: [1] },
    ],
    outputs: names.map((name) => ({ name: `kept.${name}`, type: dtype as ElementType, dims: [1, 'kept', heads, headDim] })),
  });
}

/** No inputs; outputs `key` `[1, heads, dim, 1]` and `value` `[1, heads, 1, dim]` of zeros: the MTP cache's hidden first slot. */
export function mtpCacheStartGraph(dtype: CacheDtype, heads: number, headDim: number): Uint8Array {
  const type = dtype as ElementType;
  const zeros = (dims: number[]): ConstantTensor => ({ type, dims, data: dtype === 'float16' ? new Uint16Array(heads * headDim) : new Float32Array(heads * headDim) });
  return onnxModel({
    name: 'mtp_cache_start',
    nodes: [
      { op: 'Identity', inputs: ['zero_key'], outputs: ['key'] },
      { op: 'Identity', inputs: ['zero_value'], outputs: ['value'] },
    ],
    initializers: { zero_key: zeros([1, heads, headDim, 1]), zero_value: zeros([1, heads, 1, headDim]) },
    inputs: [],
    outputs: [
      { name: 'key', type, dims: [1, heads, headDim, 1] },
      { name: 'value', type, dims: [1, heads, 1, headDim] },
    ],
  });
}

/**
 * Inputs `past_key` `[1, heads, dim, past]`, `past_value` `[1, heads, past, dim]`, the last pass's
 * `new_key`/`new_value` `[1, new, heads, dim]`, `keep` and the coming pass's `rows` (int64 `[1]`).
 * Outputs `key`, `value` (the first `keep` slots, the hidden first one included) and `bias`
 * `[1, 1, rows, keep + rows]`: a slot is visible to new row r when its column is from 1 to `keep + r`
 * (the cache, then the causal triangle).
 */
export function mtpCachePrepareGraph(dtype: CacheDtype, heads: number, headDim: number): Uint8Array {
  const type = dtype as ElementType;
  const nodes: GraphNode[] = [
    { op: 'Transpose', inputs: ['new_key'], outputs: ['new_key_t'], attributes: { perm: [0, 2, 3, 1] } },
    { op: 'Concat', inputs: ['past_key', 'new_key_t'], outputs: ['all_key'], attributes: { axis: 3 } },
    { op: 'Slice', inputs: ['all_key', 'zero', 'keep', 'three'], outputs: ['key'] },
    { op: 'Transpose', inputs: ['new_value'], outputs: ['new_value_t'], attributes: { perm: [0, 2, 1, 3] } },
    { op: 'Concat', inputs: ['past_value', 'new_value_t'], outputs: ['all_value'], attributes: { axis: 2 } },
    { op: 'Slice', inputs: ['all_value', 'zero', 'keep', 'two'], outputs: ['value'] },
    { op: 'Add', inputs: ['keep', 'rows'], outputs: ['width'] },
    { op: 'Squeeze', inputs: ['rows', 'zero'], outputs: ['rows_scalar'] },
    { op: 'Squeeze', inputs: ['width', 'zero'], outputs: ['width_scalar'] },
    { op: 'Squeeze', inputs: ['zero', 'zero'], outputs: ['zero_scalar'] },
    { op: 'Squeeze', inputs: ['one', 'zero'], outputs: ['one_scalar'] },
    { op: 'Range', inputs: ['zero_scalar', 'rows_scalar', 'one_scalar'], outputs: ['row'] },
    { op: 'Range', inputs: ['zero_scalar', 'width_scalar', 'one_scalar'], outputs: ['column'] },
    { op: 'Add', inputs: ['row', 'keep'], outputs: ['last_visible'] },
    { op: 'Unsqueeze', inputs: ['last_visible', 'last'], outputs: ['last_visible_column'] },
    { op: 'LessOrEqual', inputs: ['column', 'last_visible_column'], outputs: ['not_after'] },
    { op: 'GreaterOrEqual', inputs: ['column', 'one_scalar'], outputs: ['not_first'] },
    { op: 'And', inputs: ['not_after', 'not_first'], outputs: ['visible'] },
    { op: 'Where', inputs: ['visible', 'visible_bias', 'hidden_bias'], outputs: ['bias_rows'] },
    { op: 'Unsqueeze', inputs: ['bias_rows', 'batch_axes'], outputs: ['bias'] },
  ];
  return onnxModel({
    name: 'mtp_cache_prepare',
    nodes,
    initializers: {
      ...COMMON,
      batch_axes: int64([0, 1]),
      visible_bias: floatScalar(dtype, 0),
      hidden_bias: floatScalar(dtype, -1),
    },
    inputs: [
      { name: 'past_key', type, dims: [1, heads, headDim, 'past'] },
      { name: 'past_value', type, dims: [1, heads, 'past', headDim] },
      { name: 'new_key', type, dims: [1, 'new', heads, headDim] },
      { name: 'new_value', type, dims: [1, 'new', heads, headDim] },
      { name: 'keep', type: 'int64', dims: [1] },
      { name: 'rows', type: 'int64', dims: [1] },
    ],
    outputs: [
      { name: 'key', type, dims: [1, heads, headDim, 'kept'] },
      { name: 'value', type, dims: [1, heads, 'kept', headDim] },
      { name: 'bias', type, dims: [1, 1, 'rows', 'width'] },
    ],
  });
}

/** Inputs `a` `[1, A, width]`, `b` `[1, B, width]`, `start`, `end` (int64 `[1]`); output `rows` = `concat(a, b)[:, start:end]`. */
export function rowsGraph(dtype: CacheDtype, width: number): Uint8Array {
  const type = dtype as ElementType;
  return onnxModel({
    name: 'rows',
    nodes: [
      { op: 'Concat', inputs: ['a', 'b'], outputs: ['all'], attributes: { axis: 1 } },
      { op: 'Slice', inputs: ['all', 'start', 'end', 'one'], outputs: ['rows'] },
    ],
    initializers: { one: COMMON.one },
    inputs: [
      { name: 'a', type, dims: [1, 'a', width] },
      { name: 'b', type, dims: [1, 'b', width] },
      { name: 'start', type: 'int64', dims: [1] },
      { name: 'end', type: 'int64', dims: [1] },
    ],
    outputs: [{ name: 'rows', type, dims: [1, 'sliced', width] }],
  });
}

/**
 * Inputs `logits` `[1, rows, vocab]` and `banned` int32 `[rows, m]` (ids, -1 for none); output
 * `tokens` int64 `[rows]`: each row's argmax once the banned ids and `alwaysBanned` are minus
 * infinity. ArgMax takes the first of equal values, as chooseToken does.
 */
export function tokenChoiceGraph(dtype: CacheDtype, vocab: number, alwaysBanned: ReadonlySet<number>): Uint8Array {
  const type = dtype as ElementType;
  const always = alwaysBanned.size > 0;
  const nodes: GraphNode[] = [
    { op: 'Squeeze', inputs: ['logits', 'zero'], outputs: ['scores'] },
    { op: 'Unsqueeze', inputs: ['banned', 'last'], outputs: ['banned_column'] },
    { op: 'Equal', inputs: ['banned_column', 'ids'], outputs: ['hits'] },
    { op: 'Cast', inputs: ['hits'], outputs: ['hit_counts'], attributes: { to: 1 } },
    { op: 'ReduceMax', inputs: ['hit_counts'], outputs: ['any_hit'], attributes: { axes: [1], keepdims: 0 } },
    { op: 'Greater', inputs: ['any_hit', 'half'], outputs: always ? ['banned_now'] : ['ban'] },
    ...(always ? [{ op: 'Or', inputs: ['banned_now', 'always_banned'], outputs: ['ban'] }] : []),
    { op: 'Where', inputs: ['ban', 'minus_infinity', 'scores'], outputs: ['allowed'] },
    { op: 'ArgMax', inputs: ['allowed'], outputs: ['tokens'], attributes: { axis: -1, keepdims: 0 } },
  ];
  const mask = new Uint8Array(vocab);
  for (const id of alwaysBanned) if (id >= 0 && id < vocab) mask[id] = 1;
  return onnxModel({
    name: 'token_choice',
    nodes,
    initializers: {
      zero: COMMON.zero,
      last: COMMON.last,
      ids: { type: 'int32', dims: [vocab], data: Int32Array.from({ length: vocab }, (_, i) => i) },
      half: { type: 'float32', dims: [], data: Float32Array.of(0.5) },
      minus_infinity: floatScalar(dtype, -1),
      ...(always ? { always_banned: { type: 'bool', dims: [vocab], data: mask } as ConstantTensor } : {}),
    },
    inputs: [
      { name: 'logits', type, dims: [1, 'rows', vocab] },
      { name: 'banned', type: 'int32', dims: ['rows', 'm'] },
    ],
    outputs: [{ name: 'tokens', type: 'int64', dims: ['rows'] }],
  });
}
