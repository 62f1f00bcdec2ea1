import * as ort from 'onnxruntime-node';
import { describe, expect, it } from 'vitest';
import { CAPACITY_BLOCK, CapacityKvCache } from './capacity-kv-cache.js';

const heads = 2;
const headDim = 3;
const row = heads * headDim;

/** `count` rows from row `first` on; every value says which row, head and dim it belongs to. */
function present(first: number, count: number): Record<string, ort.Tensor> {
  const rows = (offset: number): ort.Tensor =>
    new ort.Tensor('float32', Float32Array.from({ length: count * row }, (_, i) => offset + first * row + i), [1, count, heads, headDim]);
  return { present_key: rows(0), present_value: rows(100000) };
}

function cache(capacity = 0): CapacityKvCache {
  return new CapacityKvCache({ heads, headDim, dtype: 'float32', capacity });
}

describe('capacity KV cache', () => {
  it('hands the graph both buffers whole, at a capacity of whole blocks', () => {
    const kv = cache(10);
    expect(kv.capacity).toBe(CAPACITY_BLOCK);
    const feeds = kv.feeds(3);
    expect(feeds.past_key?.dims).toEqual([1, heads, headDim, CAPACITY_BLOCK]);
    expect(feeds.past_value?.dims).toEqual([1, heads, CAPACITY_BLOCK, headDim]);
    expect(feeds.attention_bias?.dims).toEqual([1, 1, 3, CAPACITY_BLOCK + 3]);
  });

  it('writes keys transposed and values heads-first, and gives the same rows back', () => {
    const kv = cache();
    kv.appendPresent(present(0, 2));
    kv.appendPresent(present(2, 1));
    const keys = kv.feeds(1).past_key?.data as Float32Array;
    // key of row 2, head 1, dim 0 sits on line (head 1, dim 0), column 2
    expect(keys[(1 * headDim + 0) * kv.capacity + 2]).toBe(2 * row + headDim);
    const values = kv.feeds(1).past_value?.data as Float32Array;
    expect(Array.from(values.subarray((1 * kv.capacity + 2) * headDim, (1 * kv.capacity + 3) * headDim))).toEqual(
      [0, 1, 2].map((d) => 100000 + 2 * row + headDim + d),
    );
    const held = kv.heldRows();
    expect(Array.from(held.keys)).toEqual(Array.from({ length: 3 * row }, (_, i) => i));
    expect(Array.from(held.values)).toEqual(Array.from({ length: 3 * row }, (_, i) => 100000 + i));
  });

  it('keeps its rows when it grows past a block', () => {
    const kv = cache();
    kv.appendPresent(present(0, CAPACITY_BLOCK - 1));
    kv.appendPresent(present(CAPACITY_BLOCK - 1, 3));
    expect(kv.length).toBe(CAPACITY_BLOCK + 2);
    expect(kv.capacity).toBe(2 * CAPACITY_BLOCK);
    expect(Array.from(kv.heldRows().keys)).toEqual(Array.from({ length: kv.length * row }, (_, i) => i));
    expect(Array.from(kv.heldRows().values)).toEqual(Array.from({ length: kv.length * row }, (_, i) => 100000 + i));
  });

  it('lets each new row see the cache up to its length, itself and the new rows before it', () => {
    const kv = cache();
    kv.appendPresent(present(0, 5));
    kv.truncate(4);
    const width = kv.capacity + 3;
    const bias = kv.feeds(3).attention_bias?.data as Float32Array;
    for (let r = 0; r < 3; r++) {
      const line = Array.from(bias.subarray(r * width, (r + 1) * width));
      expect(line.slice(0, 4).every((v) => v === 0), `row ${r}: the cache`).toBe(true);
      expect(line.slice(4, kv.capacity).every((v) => v === -Infinity), `row ${r}: the rolled-back and empty slots`).toBe(true);
      expect(line.slice(kv.capacity), `row ${r}: the new rows`).toEqual([0, 1, 2].map((c) => (c <= r ? 0 : -Infinity)));
    }
  });

  it('overwrites rolled-back rows with the next ones', () => {
    const kv = cache();
    kv.appendPresent(present(0, 4));
    kv.truncate(2);
    kv.appendPresent(present(10, 1));
    expect(Array.from(kv.heldRows().keys.subarray(2 * row))).toEqual(Array.from({ length: row }, (_, i) => 10 * row + i));
  });

  it('builds an fp16 bias from half-precision zeros and minus infinity', () => {
    const kv = new CapacityKvCache({ heads, headDim, dtype: 'float16', capacity: 0 });
    const bias = kv.feeds(2).attention_bias;
    expect(bias?.type).toBe('float16');
    const data = bias?.data as Uint16Array;
    expect(data[0]).toBe(0xfc00);
    expect(data[CAPACITY_BLOCK]).toBe(0);
    expect(data[CAPACITY_BLOCK + 1]).toBe(0xfc00);
  });

  it('refuses to roll back past its start or forward past its length', () => {
    const kv = cache();
    kv.appendPresent(present(0, 2));
    expect(() => kv.truncate(3)).toThrow(/cannot truncate a cache of 2 rows to 3/);
    expect(() => kv.truncate(-1)).toThrow();
  });
});
