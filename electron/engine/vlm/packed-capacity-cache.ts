/**
 * Several pages' key/value caches in one set of capacity buffers, so that one decoder (or MTP) pass
 * takes new rows of several pages together. The buffers are split into `lanes` regions of
 * `laneCapacity` slots, one per page in flight (keys `[1, heads, dim, lanes * capacity]`, values
 * `[1, heads, lanes * capacity, dim]`, the layout `capacityAttention` in decoder-graphs.ts reads).
 * The graph takes any bias and any position per row, so a packed pass needs no graph of its own:
 * each new row sees only its own lane's filled slots and its own page's earlier new rows, at its own
 * page's positions; rows of different pages never see each other. The graph returns logits for its
 * last `num_logits` rows only, so the rows that need logits are put last (`packedLayout`).
 */

import * as ort from 'onnxruntime-node';
import { CAPACITY_BLOCK } from './capacity-kv-cache.js';
import type { KeyValueCache } from './key-value-cache.js';
import type { CacheDtype } from './kv-cache.js';

type CacheArray = Float32Array | Uint16Array;

const HALF_MINUS_INFINITY = 0xfc00;

/** One page's rows in a packed pass. */
export interface PackedRequest {
  lane: number;
  rows: number;
  /** Of `rows`, the last ones whose logits the page needs. */
  logits: number;
}

export interface PackedLayout {
  /** For each row of the pass, in order: the request it belongs to and its index among that request's rows. */
  order: { request: number; index: number }[];
  /** Each row's position: its lane's length plus its index. */
  positions: number[];
  /** Rows at the end of the pass that return logits: every request's logit rows, in request order. */
  numLogits: number;
  /** `[1, 1, rows, lanes * laneCapacity + rows]`. */
  bias: ort.Tensor;
}

function blocks(rows: number): number {
  return Math.max(1, Math.ceil(rows / CAPACITY_BLOCK)) * CAPACITY_BLOCK;
}

/**
 * The rows of a packed pass, their positions and its attention bias. Rows that need no logits go
 * first (each request's leading rows), then every request's logit rows, so `num_logits` covers only
 * those. Row r of a request on lane l sees slots `l * laneCapacity .. + lengths[l]` and the
 * request's rows 0..r; the rest is hidden.
 */
export function packedLayout(dtype: CacheDtype, requests: readonly PackedRequest[], lengths: readonly number[], laneCapacity: number, lanes: number): PackedLayout {
  const seen = new Set<number>();
  for (const request of requests) {
    if (seen.has(request.lane)) throw new Error(`lane ${request.lane} has two requests in one pass`);
    seen.add(request.lane);
    if (request.logits < 0 || request.logits > request.rows) throw new Error(`a request of ${request.rows} rows cannot return ${request.logits} logits`);
    if ((lengths[request.lane] ?? 0) + request.rows > laneCapacity) throw new Error(`lane ${request.lane} has room for ${laneCapacity} rows, not ${(lengths[request.lane] ?? 0) + request.rows}`);
  }
  const order: PackedLayout['order'] = [];
  requests.forEach((request, i) => {
    for (let index = 0; index < request.rows - request.logits; index++) order.push({ request: i, index });
  });
  requests.forEach((request, i) => {
    for (let index = request.rows - request.logits; index < request.rows; index++) order.push({ request: i, index });
  });
  const rows = order.length;
  const capacity = lanes * laneCapacity;
  const width = capacity + rows;
  // where each request's row `index` sits in the pass
  const column = requests.map((request) => new Array<number>(request.rows));
  order.forEach(({ request, index }, at) => ((column[request] as number[])[index] = at));
  const bias = dtype === 'float16' ? new Uint16Array(rows * width).fill(HALF_MINUS_INFINITY) : new Float32Array(rows * width).fill(Number.NEGATIVE_INFINITY);
  const positions: number[] = [];
  order.forEach(({ request, index }, at) => {
    const { lane } = requests[request] as PackedRequest;
    const length = lengths[lane] ?? 0;
    positions.push(length + index);
    const start = at * width;
    bias.fill(0, start + lane * laneCapacity, start + lane * laneCapacity + length);
    const own = column[request] as number[];
    for (let earlier = 0; earlier <= index; earlier++) bias[start + capacity + (own[earlier] as number)] = 0;
  });
  return { order, positions, numLogits: requests.reduce((sum, r) => sum + r.logits, 0), bias: new ort.Tensor(dtype, bias, [1, 1, rows, width]) };
}

export interface PackedCacheShape {
  heads: number;
  headDim: number;
  dtype: CacheDtype;
  /** The graph's cache inputs and outputs end with these (`.0`, `.1`, ... for the decoder; `''` for the MTP head). */
  layers: readonly string[];
  lanes: number;
}

/** The buffers of every layer, split into lanes; rows are written and forgotten lane by lane. */
export class PackedCapacityCache {
  readonly lanes: number;
  private readonly shape: PackedCacheShape;
  private keys: CacheArray[];
  private values: CacheArray[];
  private laneRows: number;
  private readonly lengths: number[];

  constructor(shape: PackedCacheShape) {
    this.shape = shape;
    this.lanes = shape.lanes;
    this.laneRows = CAPACITY_BLOCK;
    this.lengths = Array<number>(shape.lanes).fill(0);
    this.keys = shape.layers.map(() => this.allocate(this.laneRows));
    this.values = shape.layers.map(() => this.allocate(this.laneRows));
  }

  /** Slots per lane. */
  get laneCapacity(): number {
    return this.laneRows;
  }

  get bytes(): number {
    return [...this.keys, ...this.values].reduce((sum, buffer) => sum + buffer.byteLength, 0);
  }

  length(lane: number): number {
    return this.lengths[lane] ?? 0;
  }

  /** A lane as one page's cache: passes through ModelRunner over it alone read and write only its slots. */
  lane(lane: number): LaneCache {
    return new LaneCache(this, lane);
  }

  /**
   * The feeds of a packed pass over `requests` (the buffers whole, under the graph's names, and the
   * bias) and its layout. Each lane first grows to hold its new rows.
   */
  feeds(requests: readonly PackedRequest[]): { feeds: Record<string, ort.Tensor>; layout: PackedLayout } {
    this.ensureCapacity(Math.max(0, ...requests.map((r) => this.length(r.lane) + r.rows)));
    const layout = packedLayout(this.shape.dtype, requests, this.lengths, this.laneRows, this.lanes);
    const { heads, headDim, dtype } = this.shape;
    const capacity = this.lanes * this.laneRows;
    const feeds: Record<string, ort.Tensor> = { attention_bias: layout.bias };
    this.shape.layers.forEach((layer, i) => {
      feeds[`past_key${layer}`] = new ort.Tensor(dtype, this.keys[i] as CacheArray, [1, heads, headDim, capacity]);
      feeds[`past_value${layer}`] = new ort.Tensor(dtype, this.values[i] as CacheArray, [1, heads, capacity, headDim]);
    });
    return { feeds, layout };
  }

  /** Writes the new rows a packed pass returned (`present_key<layer>` `[1, rows, heads, dim]`, in the layout's order) into their lanes. */
  appendPresent(outputs: Readonly<Record<string, ort.Tensor>>, requests: readonly PackedRequest[], order: PackedLayout['order']): void {
    const { heads, headDim } = this.shape;
    const rowSize = heads * headDim;
    const capacity = this.lanes * this.laneRows;
    this.shape.layers.forEach((layer, i) => {
      const key = outputs[`present_key${layer}`];
      const value = outputs[`present_value${layer}`];
      if (!key || !value) throw new Error(`the graph returned no present_key${layer} or present_value${layer}`);
      if (key.data.length !== order.length * rowSize || value.data.length !== key.data.length) {
        throw new Error(`present_key${layer}: expected ${order.length} rows of ${rowSize}, got ${key.data.length} values`);
      }
      const keys = this.keys[i] as CacheArray;
      const values = this.values[i] as CacheArray;
      const newKeys = key.data as CacheArray;
      const newValues = value.data as CacheArray;
      order.forEach(({ request, index }, row) => {
        const { lane } = requests[request] as PackedRequest;
        const slot = lane * this.laneRows + this.length(lane) + index;
        for (let head = 0; head < heads; head++) {
          const from = (row * heads + head) * headDim;
          values.set(newValues.subarray(from, from + headDim), (head * capacity + slot) * headDim);
          for (let d = 0; d < headDim; d++) keys[(head * headDim + d) * capacity + slot] = newKeys[from + d] as number;
        }
      });
    });
    for (const request of requests) this.lengths[request.lane] = this.length(request.lane) + request.rows;
  }

  /** Forgets a lane's rows after `length` (rejected drafts; 0: the lane is free for another page). */
  truncate(lane: number, length: number): void {
    if (length < 0 || length > this.length(lane)) throw new Error(`cannot truncate lane ${lane} of ${this.length(lane)} rows to ${length}`);
    this.lengths[lane] = length;
  }

  /** A lane's rows `[length, heads, dim]`, as a cache of rows would hold them: for comparing caches. */
  heldRows(lane: number, layer = 0): { keys: CacheArray; values: CacheArray } {
    const { heads, headDim } = this.shape;
    const capacity = this.lanes * this.laneRows;
    const rows = this.length(lane);
    const keys = this.allocate(rows, 1);
    const values = this.allocate(rows, 1);
    const allKeys = this.keys[layer] as CacheArray;
    const allValues = this.values[layer] as CacheArray;
    for (let row = 0; row < rows; row++) {
      const slot = lane * this.laneRows + row;
      for (let head = 0; head < heads; head++) {
        const to = (row * heads + head) * headDim;
        values.set(allValues.subarray((head * capacity + slot) * headDim, (head * capacity + slot + 1) * headDim), to);
        for (let d = 0; d < headDim; d++) keys[to + d] = allKeys[(head * headDim + d) * capacity + slot] as number;
      }
    }
    return { keys, values };
  }

  private allocate(laneRows: number, lanes = this.lanes): CacheArray {
    const size = lanes * laneRows * this.shape.heads * this.shape.headDim;
    return this.shape.dtype === 'float16' ? new Uint16Array(size) : new Float32Array(size);
  }

  /** Grows every lane to `rows` slots (whole blocks), copying each lane's held rows to its new place. */
  private ensureCapacity(rows: number): void {
    if (rows <= this.laneRows) return;
    const old = this.laneRows;
    const oldTotal = this.lanes * old;
    const laneRows = blocks(rows);
    const total = this.lanes * laneRows;
    const { heads, headDim } = this.shape;
    this.keys = this.keys.map((from) => {
      const to = this.allocate(laneRows);
      for (let line = 0; line < heads * headDim; line++) {
        for (let lane = 0; lane < this.lanes; lane++) {
          const start = line * oldTotal + lane * old;
          to.set(from.subarray(start, start + this.length(lane)), line * total + lane * laneRows);
        }
      }
      return to;
    });
    this.values = this.values.map((from) => {
      const to = this.allocate(laneRows);
      for (let head = 0; head < heads; head++) {
        for (let lane = 0; lane < this.lanes; lane++) {
          const start = (head * oldTotal + lane * old) * headDim;
          to.set(from.subarray(start, start + this.length(lane) * headDim), (head * total + lane * laneRows) * headDim);
        }
      }
      return to;
    });
    this.laneRows = laneRows;
  }
}

/** One lane of a packed cache as a page's cache. */
export class LaneCache implements KeyValueCache {
  readonly place = 'host';
  /** Rows of the pass whose feeds were made last. */
  private passRows = 0;

  constructor(
    readonly pool: PackedCapacityCache,
    readonly lane: number,
  ) {}

  get length(): number {
    return this.pool.length(this.lane);
  }

  /** The lane's share of the buffers. */
  get bytes(): number {
    return this.pool.bytes / this.pool.lanes;
  }

  /** A pass over this lane alone: its rows in order, so ModelRunner's positions and logits hold. */
  feeds(rows: number): Record<string, ort.Tensor> {
    this.passRows = rows;
    return this.pool.feeds([{ lane: this.lane, rows, logits: rows }]).feeds;
  }

  appendPresent(outputs: Readonly<Record<string, ort.Tensor>>): void {
    const rows = this.passRows;
    this.pool.appendPresent(outputs, [{ lane: this.lane, rows, logits: rows }], Array.from({ length: rows }, (_, index) => ({ request: 0, index })));
  }

  truncate(length: number): void {
    this.pool.truncate(this.lane, length);
  }

  /** The lane is emptied; the pool keeps its buffers for the next page. */
  release(): void {
    this.pool.truncate(this.lane, 0);
  }
}
