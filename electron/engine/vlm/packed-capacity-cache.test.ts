import { describe, expect, it } from 'vitest';
import * as ort from 'onnxruntime-node';
import { CAPACITY_BLOCK } from './capacity-kv-cache.js';
import { PackedCapacityCache, packedLayout } from './packed-capacity-cache.js';

const HIDDEN = Number.NEGATIVE_INFINITY;

/** The bias as rows of 0 / '-' over `[slots | new rows]`, for reading. */
function picture(bias: ort.Tensor): string[] {
  const [, , rows, width] = bias.dims as [number, number, number, number];
  const data = bias.data as Float32Array;
  return Array.from({ length: rows }, (_, r) => Array.from(data.subarray(r * width, (r + 1) * width), (v) => (v === 0 ? '0' : v === HIDDEN ? '-' : '?')).join(''));
}

describe('packedLayout', () => {
  it('keeps each page to its own lane and earlier rows, puts rows that need logits last, and gives each row its page position', () => {
    // lane 0 holds 2 rows, lane 2 holds 1; lanes of 4 slots, 3 lanes
    const layout = packedLayout('float32', [{ lane: 2, rows: 3, logits: 1 }, { lane: 0, rows: 2, logits: 2 }], [2, 0, 1], 4, 3);
    // lane 2's first two rows (no logits), then lane 2's last row, then lane 0's two rows
    expect(layout.order).toEqual([{ request: 0, index: 0 }, { request: 0, index: 1 }, { request: 0, index: 2 }, { request: 1, index: 0 }, { request: 1, index: 1 }]);
    expect(layout.positions).toEqual([1, 2, 3, 2, 3]);
    expect(layout.numLogits).toBe(3);
    expect(layout.bias.dims).toEqual([1, 1, 5, 12 + 5]);
    expect(picture(layout.bias)).toEqual([
      // slots: lane 0 | lane 1 | lane 2     new rows
      '--------0---' + '0----',
      '--------0---' + '00---',
      '--------0---' + '000--',
      '00----------' + '---0-',
      '00----------' + '---00',
    ]);
  });

  it('orders rows so that each request\'s logit rows come last even when several requests have leading rows', () => {
    const layout = packedLayout('float32', [{ lane: 0, rows: 2, logits: 1 }, { lane: 1, rows: 3, logits: 1 }], [0, 0], 4, 2);
    expect(layout.order).toEqual([{ request: 0, index: 0 }, { request: 1, index: 0 }, { request: 1, index: 1 }, { request: 0, index: 1 }, { request: 1, index: 2 }]);
    expect(layout.numLogits).toBe(2);
    // lane 1's last row sees its own rows at columns 1, 2 and 4 of the new rows
    expect(picture(layout.bias)[4]).toBe('--------' + '-00-0');
    expect(picture(layout.bias)[3]).toBe('--------' + '0--0-');
  });

  it('hides with fp16 minus infinity in a half-float bias', () => {
    const layout = packedLayout('float16', [{ lane: 1, rows: 1, logits: 1 }], [0, 1], 2, 2);
    expect(Array.from(layout.bias.data as Uint16Array)).toEqual([0xfc00, 0xfc00, 0, 0xfc00, 0]);
  });

  it('refuses two requests on one lane, more logits than rows, and rows past a lane', () => {
    expect(() => packedLayout('float32', [{ lane: 0, rows: 1, logits: 1 }, { lane: 0, rows: 1, logits: 1 }], [0], 4, 1)).toThrow(/two requests/);
    expect(() => packedLayout('float32', [{ lane: 0, rows: 1, logits: 2 }], [0], 4, 1)).toThrow(/cannot return 2 logits/);
    expect(() => packedLayout('float32', [{ lane: 0, rows: 2, logits: 1 }], [3], 4, 1)).toThrow(/room for 4 rows/);
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

  it('writes each page\'s rows into its lane, forgets rejected rows per lane, and keeps rows when lanes grow', () => {
    const cache = new PackedCapacityCache({ heads, headDim, dtype: 'float32', layers: [''], lanes: 2 });
    const requests = [{ lane: 1, rows: 2, logits: 2 }, { lane: 0, rows: 1, logits: 1 }];
    const { layout, feeds } = cache.feeds(requests);
    expect(feeds.past_key?.dims).toEqual([1, heads, headDim, 2 * CAPACITY_BLOCK]);
    cache.appendPresent(present(layout.order.map(({ request, index }) => [requests[request]!.lane, index])), requests, layout.order);
    expect([cache.length(0), cache.length(1)]).toEqual([1, 2]);
    expect(Array.from(cache.heldRows(1).keys)).toEqual([1000, 1001, 1002, 1003, 1004, 1005, 1010, 1011, 1012, 1013, 1014, 1015]);
    cache.truncate(1, 1);
    // lane 0 grows past a block: every lane moves, and its rows with it
    const big = [{ lane: 0, rows: CAPACITY_BLOCK, logits: 1 }];
    const grown = cache.feeds(big);
    expect(cache.laneCapacity).toBe(2 * CAPACITY_BLOCK);
    cache.appendPresent(present(grown.layout.order.map(({ index }) => [0, index + 1])), big, grown.layout.order);
    expect(cache.length(0)).toBe(CAPACITY_BLOCK + 1);
    expect(Array.from(cache.heldRows(1).values)).toEqual([1000, 1001, 1002, 1003, 1004, 1005]);
    expect(Array.from(cache.heldRows(0).keys.subarray(0, 12))).toEqual([0, 1, 2, 3, 4, 5, 10, 11, 12, 13, 14, 15]);
    // a lane as a page's own cache: a pass over it alone, in order
    const lane = cache.lane(1);
    expect(lane.feeds(1).attention_bias?.dims).toEqual([1, 1, 1, 4 * CAPACITY_BLOCK + 1]);
    lane.appendPresent(present([[1, 7]]));
    expect(lane.length).toBe(2);
    lane.release();
    expect(cache.length(1)).toBe(0);
  });
});
