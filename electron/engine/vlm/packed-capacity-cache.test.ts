import { describe, expect, it } from 'vitest';
import * as ort from 'onnxruntime-node';
import { CAPACITY_BLOCK } from './capacity-kv-cache.js';
import { PACKED_GROUP_ROWS, PackedCapacityCache, packedLayout, packedPasses, type PackedRow } from './packed-capacity-cache.js';

const HIDDEN = Number.NEGATIVE_INFINITY;

/** The bias as rows of 0 / '-' over `[lane's slots | group's new rows]`, group by group, for reading. */
function picture(bias: ort.Tensor): string[] {
  const [lanes, , rows, width] = bias.dims as [number, number, number, number];
  const data = bias.data as Float32Array;
  return Array.from({ length: lanes * rows }, (_, r) => Array.from(data.subarray(r * width, (r + 1) * width), (v) => (v === 0 ? '0' : v === HIDDEN ? '-' : '?')).join(''));
}

describe('packedLayout', () => {
  it('puts each page in its own lane group, padded to the largest, each row over its own lane and earlier rows at its page position', () => {
    // lane 0 holds 2 rows, lane 2 holds 1; lanes of 4 slots; lane 1 has no request
    const layout = packedLayout('float32', [{ lane: 2, rows: 3, logits: 1 }, { lane: 0, rows: 2, logits: 2 }], [2, 0, 1], 4);
    expect([layout.firstLane, layout.lanes, layout.groupRows]).toEqual([0, 3, 3]);
    // lane 0: a padding row, then its two rows; lane 1: padding; lane 2: its three rows
    expect(layout.order).toEqual([null, { request: 1, index: 0 }, { request: 1, index: 1 }, null, null, null, { request: 0, index: 0 }, { request: 0, index: 1 }, { request: 0, index: 2 }]);
    expect(layout.positions).toEqual([2, 2, 3, 0, 0, 0, 1, 2, 3]);
    // logits from lane 0's first row to the end: lane 0's two, then lane 2's last
    expect(layout.numLogits).toBe(8);
    expect(layout.logitStart).toEqual([7, 0]);
    expect(layout.bias.dims).toEqual([3, 1, 3, 4 + 3]);
    expect(picture(layout.bias)).toEqual([
      // slots   new rows of the group
      '----' + '0--',
      '00--' + '-0-',
      '00--' + '-00',
      '----' + '0--',
      '----' + '-0-',
      '----' + '--0',
      '0---' + '0--',
      '0---' + '00-',
      '0---' + '000',
    ]);
  });

  it('feeds only the lanes from the first requested to the last', () => {
    const layout = packedLayout('float32', [{ lane: 3, rows: 1, logits: 1 }, { lane: 2, rows: 1, logits: 1 }], [0, 0, 5, 1], 8);
    expect([layout.firstLane, layout.lanes, layout.groupRows, layout.numLogits]).toEqual([2, 2, 1, 2]);
    expect(layout.logitStart).toEqual([1, 0]);
    expect(picture(layout.bias)).toEqual(['00000---' + '0', '0-------' + '0']);
  });

  it('hides with fp16 minus infinity in a half-float bias', () => {
    const layout = packedLayout('float16', [{ lane: 1, rows: 1, logits: 1 }], [0, 1], 2);
    expect(Array.from(layout.bias.data as Uint16Array)).toEqual([0, 0xfc00, 0]);
  });

  it('refuses two requests on one lane, more logits than rows, and rows past a lane', () => {
    expect(() => packedLayout('float32', [{ lane: 0, rows: 1, logits: 1 }, { lane: 0, rows: 1, logits: 1 }], [0], 4)).toThrow(/two requests/);
    expect(() => packedLayout('float32', [{ lane: 0, rows: 1, logits: 2 }], [0], 4)).toThrow(/cannot return 2 logits/);
    expect(() => packedLayout('float32', [{ lane: 0, rows: 2, logits: 1 }], [3], 4)).toThrow(/room for 4 rows/);
  });
});

describe('packedPasses', () => {
  it('packs the short requests together and runs each long one (a prompt) alone', () => {
    const row = (lane: number, rows: number) => ({ lane, rows, logits: 1 });
    expect(packedPasses([row(0, 1), row(1, PACKED_GROUP_ROWS + 1), row(2, 4), row(3, 900)])).toEqual([[0, 2], [1], [3]]);
    expect(packedPasses([row(0, 900)])).toEqual([[0]]);
    expect(packedPasses([row(0, 1), row(1, 1)])).toEqual([[0, 1]]);
  });
});

describe('PackedCapacityCache', () => {
  const heads = 2;
  const headDim = 3;
  /** A pass's new rows `[1, rows, heads, dim]` whose values say lane, row index and element. */
  function present(rows: readonly [number, number][]): Record<string, ort.Tensor> {
    const data = new Float32Array(rows.length * heads * headDim);
    rows.forEach(([lane, index], r) => {
      for (let e = 0; e < heads * headDim; e++) data[r * heads * headDim + e] = lane * 1000 + index * 10 + e;
    });
    return { present_key: new ort.Tensor('float32', data, [1, rows.length, heads, headDim]), present_value: new ort.Tensor('float32', data.slice(), [1, rows.length, heads, headDim]) };
  }

  /** The pass's rows as [lane, index], padding as [-1, 0]. */
  const rowsOf = (order: readonly PackedRow[], requests: readonly { lane: number }[]): [number, number][] => order.map((row) => (row ? [requests[row.request]!.lane, row.index] : [-1, 0]));

  it('writes each page\'s rows into its lane, drops padding, forgets rejected rows per lane, and keeps rows when lanes grow', () => {
    const cache = new PackedCapacityCache({ heads, headDim, dtype: 'float32', layers: [''], lanes: 2 });
    const requests = [{ lane: 1, rows: 2, logits: 2 }, { lane: 0, rows: 1, logits: 1 }];
    const { layout, feeds } = cache.feeds(requests);
    expect(feeds.past_key?.dims).toEqual([2, heads, headDim, CAPACITY_BLOCK]);
    expect(feeds.past_value?.dims).toEqual([2, heads, CAPACITY_BLOCK, headDim]);
    cache.appendPresent(present(rowsOf(layout.order, requests)), requests, layout.order);
    expect(Array.from(cache.heldRows(0).keys)).toEqual([0, 1, 2, 3, 4, 5]);
    expect([cache.length(0), cache.length(1)]).toEqual([1, 2]);
    expect(Array.from(cache.heldRows(1).keys)).toEqual([1000, 1001, 1002, 1003, 1004, 1005, 1010, 1011, 1012, 1013, 1014, 1015]);
    cache.truncate(1, 1);
    // lane 0 grows past a block: every lane moves, and its rows with it
    const big = [{ lane: 0, rows: CAPACITY_BLOCK, logits: 1 }];
    const grown = cache.feeds(big);
    expect(cache.laneCapacity).toBe(2 * CAPACITY_BLOCK);
    expect(grown.feeds.past_key?.dims).toEqual([1, heads, headDim, 2 * CAPACITY_BLOCK]);
    cache.appendPresent(present(rowsOf(grown.layout.order, big).map(([lane, index]) => [lane, index + 1])), big, grown.layout.order);
    expect(cache.length(0)).toBe(CAPACITY_BLOCK + 1);
    expect(Array.from(cache.heldRows(1).values)).toEqual([1000, 1001, 1002, 1003, 1004, 1005]);
    expect(Array.from(cache.heldRows(0).keys.subarray(0, 12))).toEqual([0, 1, 2, 3, 4, 5, 10, 11, 12, 13, 14, 15]);
    // a lane as a page's own cache: a pass over it alone, in order
    const lane = cache.lane(1);
    const own = lane.feeds(1);
    expect(own.attention_bias?.dims).toEqual([1, 1, 1, 2 * CAPACITY_BLOCK + 1]);
    // lane 1's own buffers, in place: its first key line starts with its row
    expect(own.past_key?.dims).toEqual([1, heads, headDim, 2 * CAPACITY_BLOCK]);
    expect((own.past_key?.data as Float32Array)[0]).toBe(1000);
    expect((own.past_value?.data as Float32Array).subarray(0, 3)).toEqual(Float32Array.of(1000, 1001, 1002));
    lane.appendPresent(present([[1, 7]]));
    expect(lane.length).toBe(2);
    lane.release();
    expect(cache.length(1)).toBe(0);
  });
});
