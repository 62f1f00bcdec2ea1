/**
 * Several pages' key/value caches in one set of capacity buffers, so that one decoder (or MTP) pass
 * takes new rows of several pages together. The buffers are split into `lanes` regions of
 * `laneCapacity` slots, one per page in flight, lane by lane (keys `[lanes, heads, dim, capacity]`,
 * values `[lanes, heads, capacity, dim]`: the layout `capacityAttention` in decoder-graphs.ts reads
 * with the lanes on its batch axis). A pass feeds the lanes from its first page's to its last page's
 * (a view, no copy) and its rows lane by lane in equal groups, so each row's attention reads only its
 * own lane's slots: with the lanes along one sequence axis every row read every lane's, and a pass of
 * 4 pages at 1,200 rows a lane spent 16x a page's attention time (docs/benchmarks.md). A page with
 * fewer rows than the pass's largest group is padded with rows of zeros that see only themselves and
 * that nothing keeps; the graph returns logits for its last `num_logits` rows, so a group's rows that
 * need logits are its last ones (`packedLayout`).
 */

import * as ort from 'onnxruntime-node';
import { CAPACITY_BLOCK } from './capacity-kv-cache.js';
import type { KeyValueCache } from './key-value-cache.js';
import type { CacheDtype } from './kv-cache.js';

type CacheArray = Float32Array | Uint16Array;

const HALF_MINUS_INFINITY = 0xfc00;

/**
 * Requests of more rows than this (a page's prompt, a draft head's catch-up) run in a pass of their
 * own: padding every other page's group to a prompt's length would run each of them through the
 * whole graph as many times.
 */
export const PACKED_GROUP_ROWS = 8;

/** One page's rows in a packed pass. */
export interface PackedRequest {
  lane: number;
  rows: number;
  /** Of `rows`, the last ones whose logits the page needs. */
  logits: number;
}

/** A row of a packed pass: the request it belongs to and its index among that request's rows; `null` for padding. */
export type PackedRow = { request: number; index: number } | null;

export interface PackedLayout {
  /** The lanes the pass feeds: `firstLane` and the `lanes - 1` after it. */
  firstLane: number;
  lanes: number;
  /** Rows per lane in the pass. */
  groupRows: number;
  /** For each row of the pass, lane group by lane group. */
  order: PackedRow[];
  /** Each row's position: its lane's length plus its index (padding: the lane's length). */
  positions: number[];
  /** Rows at the end of the pass that return logits. */
  numLogits: number;
  /** For each request, the first of its logit rows among the pass's logits. */
  logitStart: number[];
  /** `[lanes, 1, groupRows, laneCapacity + groupRows]`. */
  bias: ort.Tensor;
}

function blocks(rows: number): number {
  return Math.max(1, Math.ceil(rows / CAPACITY_BLOCK)) * CAPACITY_BLOCK;
}

/**
 * The rows of a packed pass, their positions and its attention bias. The pass holds the lanes from
 * the lowest to the highest requested, each a group of as many rows as the largest request: a
 * request's rows at the end of its lane's group (its logit rows are its last), padding before them
 * and in lanes nobody asked for. Row r of a request on lane l sees its lane's first `lengths[l]`
 * slots and the request's rows 0..r; a padding row sees only itself.
 */
export function packedLayout(dtype: CacheDtype, requests: readonly PackedRequest[], lengths: readonly number[], laneCapacity: number): PackedLayout {
  if (requests.length === 0) throw new Error('a packed pass needs at least one request');
  const byLane = new Map<number, number>();
  requests.forEach((request, i) => {
    if (byLane.has(request.lane)) throw new Error(`lane ${request.lane} has two requests in one pass`);
    byLane.set(request.lane, i);
    if (request.rows < 1) throw new Error(`a request needs at least one row, not ${request.rows}`);
    if (request.logits < 0 || request.logits > request.rows) throw new Error(`a request of ${request.rows} rows cannot return ${request.logits} logits`);
    if ((lengths[request.lane] ?? 0) + request.rows > laneCapacity) throw new Error(`lane ${request.lane} has room for ${laneCapacity} rows, not ${(lengths[request.lane] ?? 0) + request.rows}`);
  });
  const firstLane = Math.min(...byLane.keys());
  const lanes = Math.max(...byLane.keys()) - firstLane + 1;
  const groupRows = Math.max(...requests.map((r) => r.rows));
  const width = laneCapacity + groupRows;
  const rows = lanes * groupRows;
  const bias = dtype === 'float16' ? new Uint16Array(rows * width).fill(HALF_MINUS_INFINITY) : new Float32Array(rows * width).fill(Number.NEGATIVE_INFINITY);
  const order: PackedRow[] = [];
  const positions: number[] = [];
  const firstLogitRow = requests.map(() => -1);
  for (let group = 0; group < lanes; group++) {
    const lane = firstLane + group;
    const length = lengths[lane] ?? 0;
    const i = byLane.get(lane);
    const request = i === undefined ? undefined : requests[i];
    const padding = groupRows - (request?.rows ?? 0);
    for (let r = 0; r < groupRows; r++) {
      const at = group * groupRows + r;
      const start = at * width;
      if (request === undefined || i === undefined || r < padding) {
        order.push(null);
        positions.push(length);
        bias[start + laneCapacity + r] = 0;
        continue;
      }
      const index = r - padding;
      order.push({ request: i, index });
      positions.push(length + index);
      bias.fill(0, start, start + length);
      bias.fill(0, start + laneCapacity + padding, start + laneCapacity + r + 1);
      if (index === request.rows - request.logits) firstLogitRow[i] = at;
    }
  }
  const logitRows = firstLogitRow.filter((row) => row >= 0);
  const firstLogit = logitRows.length ? Math.min(...logitRows) : rows;
  return {
    firstLane,
    lanes,
    groupRows,
    order,
    positions,
    numLogits: rows - firstLogit,
    logitStart: firstLogitRow.map((row) => (row >= 0 ? row - firstLogit : 0)),
    bias: new ort.Tensor(dtype, bias, [lanes, 1, groupRows, width]),
  };
}

/**
 * The passes that `requests` run as: every request of up to `PACKED_GROUP_ROWS` rows in one, each
 * larger one in its own. Indices into `requests`.
 */
export function packedPasses(requests: readonly PackedRequest[]): number[][] {
  const small = requests.flatMap((request, i) => (request.rows <= PACKED_GROUP_ROWS ? [i] : []));
  const large = requests.flatMap((request, i) => (request.rows > PACKED_GROUP_ROWS ? [[i]] : []));
  return small.length ? [small, ...large] : large;
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
   * The feeds of a packed pass over `requests` (the requested lanes' buffers, under the graph's
   * names, and the bias) and its layout. Each lane first grows to hold its new rows.
   */
  feeds(requests: readonly PackedRequest[]): { feeds: Record<string, ort.Tensor>; layout: PackedLayout } {
    this.ensureCapacity(Math.max(0, ...requests.map((r) => this.length(r.lane) + r.rows)));
    const layout = packedLayout(this.shape.dtype, requests, this.lengths, this.laneRows);
    const { heads, headDim, dtype } = this.shape;
    const laneSize = heads * headDim * this.laneRows;
    const from = layout.firstLane * laneSize;
    const to = from + layout.lanes * laneSize;
    const feeds: Record<string, ort.Tensor> = { attention_bias: layout.bias };
    this.shape.layers.forEach((layer, i) => {
      feeds[`past_key${layer}`] = new ort.Tensor(dtype, (this.keys[i] as CacheArray).subarray(from, to), [layout.lanes, heads, headDim, this.laneRows]);
      feeds[`past_value${layer}`] = new ort.Tensor(dtype, (this.values[i] as CacheArray).subarray(from, to), [layout.lanes, heads, this.laneRows, headDim]);
    });
    return { feeds, layout };
  }

  /** Writes the new rows a packed pass returned (`present_key<layer>` `[1, rows, heads, dim]`, in the layout's order) into their lanes; padding rows are dropped. */
  appendPresent(outputs: Readonly<Record<string, ort.Tensor>>, requests: readonly PackedRequest[], order: readonly PackedRow[]): void {
    const { heads, headDim } = this.shape;
    const rowSize = heads * headDim;
    const laneRows = this.laneRows;
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
      order.forEach((row, at) => {
        if (row === null) return;
        const { lane } = requests[row.request] as PackedRequest;
        const slot = this.length(lane) + row.index;
        for (let head = 0; head < heads; head++) {
          const from = (at * heads + head) * headDim;
          const laneHead = lane * heads + head;
          values.set(newValues.subarray(from, from + headDim), (laneHead * laneRows + slot) * headDim);
          for (let d = 0; d < headDim; d++) keys[(laneHead * headDim + d) * laneRows + slot] = newKeys[from + d] as number;
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
    const laneRows = this.laneRows;
    const rows = this.length(lane);
    const keys = this.allocate(rows, 1);
    const values = this.allocate(rows, 1);
    const allKeys = this.keys[layer] as CacheArray;
    const allValues = this.values[layer] as CacheArray;
    for (let row = 0; row < rows; row++) {
      for (let head = 0; head < heads; head++) {
        const to = (row * heads + head) * headDim;
        const line = (lane * heads + head) * headDim;
        values.set(allValues.subarray(line * laneRows + row * headDim, line * laneRows + (row + 1) * headDim), to);
        for (let d = 0; d < headDim; d++) keys[to + d] = allKeys[(line + d) * laneRows + row] as number;
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
    const laneRows = blocks(rows);
    const { heads, headDim } = this.shape;
    // keys: a line of `old` slots per lane, head and dim; values: `old` rows of `headDim` per lane and head
    this.keys = this.keys.map((from) => {
      const to = this.allocate(laneRows);
      for (let lane = 0; lane < this.lanes; lane++) {
        for (let line = lane * heads * headDim; line < (lane + 1) * heads * headDim; line++) {
          to.set(from.subarray(line * old, line * old + this.length(lane)), line * laneRows);
        }
      }
      return to;
    });
    this.values = this.values.map((from) => {
      const to = this.allocate(laneRows);
      for (let lane = 0; lane < this.lanes; lane++) {
        for (let head = lane * heads; head < (lane + 1) * heads; head++) {
          to.set(from.subarray(head * old * headDim, (head * old + this.length(lane)) * headDim), head * laneRows * headDim);
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
