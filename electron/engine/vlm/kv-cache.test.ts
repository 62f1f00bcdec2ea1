import * as ort from 'onnxruntime-node';
import { describe, expect, it } from 'vitest';
import { KvCache } from './kv-cache.js';

const heads = 2;
const headDim = 3;
const row = heads * headDim;

function present(first: number, count: number): Record<string, ort.Tensor> {
  const rows = (offset: number): ort.Tensor =>
    new ort.Tensor('float32', Float32Array.from({ length: count * row }, (_, i) => offset + first * row + i), [1, count, heads, headDim]);
  return { 'present_key.0': rows(0), 'present_value.0': rows(1000) };
}

function cache(capacity: number): KvCache {
  return new KvCache({ names: ['past_key.0', 'past_value.0'], heads, headDim, dtype: 'float32', capacity });
}

describe('KV cache', () => {
  it('starts as an empty past of the right shape', () => {
    const feeds = cache(4).pastFeeds();
    expect(feeds['past_key.0']?.dims).toEqual([1, 0, heads, headDim]);
  });

  it('appends rows and hands out a prefix view that shares the buffer', () => {
    const kv = cache(8);
    kv.appendPresent(present(0, 3));
    kv.appendPresent(present(3, 2));
    expect(kv.length).toBe(5);
    const key = kv.pastFeeds()['past_key.0'];
    expect(key?.dims).toEqual([1, 5, heads, headDim]);
    const data = key?.data as Float32Array;
    expect(Array.from(data)).toEqual(Array.from({ length: 5 * row }, (_, i) => i));
    expect(data.buffer.byteLength).toBe(8 * row * 4);
    expect((kv.pastFeeds()['past_value.0']?.data as Float32Array)[0]).toBe(1000);
  });

  it('rolls back by length and overwrites the forgotten rows on the next append', () => {
    const kv = cache(8);
    kv.appendPresent(present(0, 4));
    kv.truncate(2);
    expect(kv.pastFeeds()['past_key.0']?.dims[1]).toBe(2);
    kv.appendPresent(present(10, 1));
    const data = kv.pastFeeds()['past_key.0']?.data as Float32Array;
    expect(Array.from(data.subarray(2 * row))).toEqual(Array.from({ length: row }, (_, i) => 10 * row + i));
    expect(() => kv.truncate(5)).toThrow(/cannot truncate a cache of 3 rows to 5/);
  });

  it('grows past its preallocation keeping the rows it holds, and reports its memory', () => {
    const kv = cache(2);
    expect(kv.bytes).toBe(2 * 2 * row * 4);
    kv.appendPresent(present(0, 2));
    kv.appendPresent(present(2, 3));
    expect(kv.capacity).toBe(8);
    expect(kv.bytes).toBe(2 * 8 * row * 4);
    expect(Array.from(kv.pastFeeds()['past_key.0']?.data as Float32Array)).toEqual(Array.from({ length: 5 * row }, (_, i) => i));
  });
});
