/**
 * A graph's key/value cache in preallocated host buffers laid out `[1, seq, heads, dim]`: the past
 * handed to ONNX Runtime is a zero-copy prefix view, the new rows a graph returns are appended with
 * one copy, and rolling back rejected drafts is a length change. Buffers double when full.
 */

import * as ort from 'onnxruntime-node';
import type { KeyValueCache } from './key-value-cache.js';

export type CacheDtype = 'float32' | 'float16';
type CacheArray = Float32Array | Uint16Array;

export interface KvCacheShape {
  /** Graph input names of the past, e.g. `past_key.0`; the outputs are the same with `present_`. */
  names: readonly string[];
  heads: number;
  headDim: number;
  dtype: CacheDtype;
  /** Rows preallocated; more are added by doubling. */
  capacity: number;
}

export class KvCache implements KeyValueCache {
  readonly place = 'host';
  readonly names: readonly string[];
  private readonly rowSize: number;
  private readonly shape: KvCacheShape;
  private buffers: CacheArray[];
  private capacityRows: number;
  private rows = 0;

  constructor(shape: KvCacheShape) {
    this.shape = shape;
    this.names = shape.names;
    this.rowSize = shape.heads * shape.headDim;
    this.capacityRows = Math.max(1, shape.capacity);
    this.buffers = shape.names.map(() => this.allocate(this.capacityRows));
  }

  get length(): number {
    return this.rows;
  }

  get capacity(): number {
    return this.capacityRows;
  }

  /** Bytes held by the buffers (allocated, not just used). */
  get bytes(): number {
    return this.buffers.reduce((sum, buffer) => sum + buffer.byteLength, 0);
  }

  /** The past as graph feeds: views onto the first `length` rows, no copy. */
  pastFeeds(): Record<string, ort.Tensor> {
    const feeds: Record<string, ort.Tensor> = {};
    this.names.forEach((name, i) => {
      const view = this.buffer(i).subarray(0, this.rows * this.rowSize);
      feeds[name] = new ort.Tensor(this.shape.dtype, view, [1, this.rows, this.shape.heads, this.shape.headDim]);
    });
    return feeds;
  }

  /** The past feeds of the next pass (as ModelRunner asks every cache). */
  feeds(): Record<string, ort.Tensor> {
    return this.pastFeeds();
  }

  /** Appends the `present_*` rows a graph returned (one copy per tensor). */
  appendPresent(outputs: Readonly<Record<string, ort.Tensor>>): void {
    const added = this.names.map((name) => {
      const present = outputs[name.replace(/^past_/, 'present_')];
      if (!present) throw new Error(`the graph returned no ${name.replace(/^past_/, 'present_')}`);
      return present;
    });
    const count = added[0]?.dims[1] ?? 0;
    this.ensureCapacity(this.rows + count);
    added.forEach((present, i) => {
      const data = present.data as CacheArray;
      if (data.length !== count * this.rowSize) throw new Error(`${this.names[i]}: expected ${count} rows of ${this.rowSize}, got ${data.length} values`);
      this.buffer(i).set(data, this.rows * this.rowSize);
    });
    this.rows += count;
  }

  /** Forgets rows after `length` (rejected drafts). */
  truncate(length: number): void {
    if (length < 0 || length > this.rows) throw new Error(`cannot truncate a cache of ${this.rows} rows to ${length}`);
    this.rows = length;
  }

  /** Drops the buffers at once rather than when the cache object is collected. */
  release(): void {
    this.buffers = this.shape.names.map(() => this.allocate(0));
    this.capacityRows = 0;
    this.rows = 0;
  }

  private buffer(i: number): CacheArray {
    const buffer = this.buffers[i];
    if (!buffer) throw new Error(`no cache buffer ${i}`);
    return buffer;
  }

  private allocate(rows: number): CacheArray {
    return this.shape.dtype === 'float16' ? new Uint16Array(rows * this.rowSize) : new Float32Array(rows * this.rowSize);
  }

  private ensureCapacity(rows: number): void {
    if (rows <= this.capacityRows) return;
    let capacity = Math.max(1, this.capacityRows);
    while (capacity < rows) capacity *= 2;
    this.buffers = this.buffers.map((old) => {
      const grown = this.allocate(capacity);
      grown.set(old.subarray(0, this.rows * this.rowSize));
      return grown;
    });
    this.capacityRows = capacity;
  }
}
