/**
 * The MTP head's key/value cache, handed to its graph whole, at its capacity, in the layout the
 * head's attention reads: keys `[1, heads, dim, capacity]` (already transposed for the scores),
 * values `[1, heads, capacity, dim]`, and an attention bias that hides the slots past the cache's
 * length. The graph reads the buffers in place and attends to its new rows beside them, so no pass
 * copies the cache (`CapacityAttention` in tools/model/folio_model/graphs.py is the graph's side);
 * the new rows it returns are written into their slots. Capacity grows by whole blocks, so a pass
 * reads few slots beyond the length. Rolling back rejected drafts is a length change.
 */

import * as ort from 'onnxruntime-node';
import type { CacheDtype } from './kv-cache.js';
import type { KeyValueCache } from './key-value-cache.js';

type CacheArray = Float32Array | Uint16Array;

/** Capacity grows in blocks of this many rows: each growth copies the cache once. */
export const CAPACITY_BLOCK = 64;
const HALF_MINUS_INFINITY = 0xfc00;

export interface CapacityKvCacheShape {
  heads: number;
  headDim: number;
  dtype: CacheDtype;
  /** Rows wanted at first; rounded up to whole blocks. */
  capacity: number;
}

function blocks(rows: number): number {
  return Math.max(1, Math.ceil(rows / CAPACITY_BLOCK)) * CAPACITY_BLOCK;
}

/**
 * `[1, 1, rows, capacity + rows]`: 0 where new row i may look (the `length` rows held, and the new
 * rows up to itself), minus infinity over the empty slots and the later new rows.
 */
export function capacityBias(dtype: CacheDtype, length: number, capacity: number, rows: number): ort.Tensor {
  const width = capacity + rows;
  const bias = dtype === 'float16' ? new Uint16Array(rows * width) : new Float32Array(rows * width);
  const hidden = dtype === 'float16' ? HALF_MINUS_INFINITY : Number.NEGATIVE_INFINITY;
  for (let row = 0; row < rows; row++) {
    const start = row * width;
    bias.fill(hidden, start + length, start + capacity);
    bias.fill(hidden, start + capacity + row + 1, start + width);
  }
  return new ort.Tensor(dtype, bias, [1, 1, rows, width]);
}

export class CapacityKvCache implements KeyValueCache {
  readonly place = 'host';
  private readonly heads: number;
  private readonly headDim: number;
  private readonly dtype: CacheDtype;
  private keys: CacheArray;
  private values: CacheArray;
  private capacityRows: number;
  private rows = 0;

  constructor(shape: CapacityKvCacheShape) {
    this.heads = shape.heads;
    this.headDim = shape.headDim;
    this.dtype = shape.dtype;
    this.capacityRows = blocks(shape.capacity);
    this.keys = this.allocate(this.capacityRows);
    this.values = this.allocate(this.capacityRows);
  }

  get length(): number {
    return this.rows;
  }

  get capacity(): number {
    return this.capacityRows;
  }

  /** Bytes held by the buffers (allocated, not just used). */
  get bytes(): number {
    return this.keys.byteLength + this.values.byteLength;
  }

  /** The graph's cache feeds for a pass over `rows` new rows: both buffers whole, and the bias. */
  feeds(rows: number): Record<string, ort.Tensor> {
    return { ...this.buffers('past_key', 'past_value'), attention_bias: capacityBias(this.dtype, this.rows, this.capacityRows, rows) };
  }

  /** Both buffers whole, under the given input names, no copy. */
  buffers(keyName: string, valueName: string): Record<string, ort.Tensor> {
    const { heads, headDim, capacityRows: capacity } = this;
    return {
      [keyName]: new ort.Tensor(this.dtype, this.keys, [1, heads, headDim, capacity]),
      [valueName]: new ort.Tensor(this.dtype, this.values, [1, heads, capacity, headDim]),
    };
  }

  /** Writes the `present_key`/`present_value` rows a pass returned (`[1, rows, heads, dim]`) into their slots. */
  appendPresent(outputs: Readonly<Record<string, ort.Tensor>>): void {
    const key = outputs.present_key;
    const value = outputs.present_value;
    if (!key || !value) throw new Error('the graph returned no present_key or present_value');
    const { heads, headDim } = this;
    const rowSize = heads * headDim;
    const count = key.dims[1] ?? 0;
    for (const [name, tensor] of [['present_key', key], ['present_value', value]] as const) {
      if (tensor.data.length !== count * rowSize) throw new Error(`${name}: expected ${count} rows of ${rowSize}, got ${tensor.data.length} values`);
    }
    this.ensureCapacity(this.rows + count);
    const capacity = this.capacityRows;
    const newKeys = key.data as CacheArray;
    const newValues = value.data as CacheArray;
    for (let row = 0; row < count; row++) {
      const slot = this.rows + row;
      for (let head = 0; head < heads; head++) {
        const from = (row * heads + head) * headDim;
        this.values.set(newValues.subarray(from, from + headDim), (head * capacity + slot) * headDim);
        for (let d = 0; d < headDim; d++) this.keys[(head * headDim + d) * capacity + slot] = newKeys[from + d] as number;
      }
    }
    this.rows += count;
  }

  /** Forgets rows after `length` (rejected drafts). */
  truncate(length: number): void {
    if (length < 0 || length > this.rows) throw new Error(`cannot truncate a cache of ${this.rows} rows to ${length}`);
    this.rows = length;
  }

  /** Drops the buffers at once rather than when the cache object is collected. */
  release(): void {
    this.keys = this.allocate(0);
    this.values = this.allocate(0);
    this.capacityRows = 0;
    this.rows = 0;
  }

  /** The rows held, each `[length, heads, dim]`: what a cache of rows would hold, for comparing caches. */
  heldRows(): { keys: CacheArray; values: CacheArray } {
    const { heads, headDim, capacityRows: capacity, rows } = this;
    const keys = this.allocate(rows);
    const values = this.allocate(rows);
    for (let slot = 0; slot < rows; slot++) {
      for (let head = 0; head < heads; head++) {
        const to = (slot * heads + head) * headDim;
        values.set(this.values.subarray((head * capacity + slot) * headDim, (head * capacity + slot + 1) * headDim), to);
        for (let d = 0; d < headDim; d++) keys[to + d] = this.keys[(head * headDim + d) * capacity + slot] as number;
      }
    }
    return { keys, values };
  }

  private allocate(rows: number): CacheArray {
    const size = rows * this.heads * this.headDim;
    return this.dtype === 'float16' ? new Uint16Array(size) : new Float32Array(size);
  }

  private ensureCapacity(rows: number): void {
    if (rows <= this.capacityRows) return;
    const old = this.capacityRows;
    const capacity = blocks(rows);
    const keys = this.allocate(capacity);
    const values = this.allocate(capacity);
    const { headDim, heads } = this;
    for (let line = 0; line < heads * headDim; line++) keys.set(this.keys.subarray(line * old, line * old + this.rows), line * capacity);
    for (let head = 0; head < heads; head++) {
      values.set(this.values.subarray(head * old * headDim, (head * old + this.rows) * headDim), head * capacity * headDim);
    }
    this.keys = keys;
    this.values = values;
    this.capacityRows = capacity;
  }
}
