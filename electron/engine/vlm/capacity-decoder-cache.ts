/**
 * The decoder's key/value caches for a decoder in the capacity layout (a package's
 * `decoder_capacity` graph, which the CPU runs, or the only decoder of one exported with
 * `--cache-layout capacity`): one
 * `CapacityKvCache` per layer, handed to the graph whole (`past_key.N`, `past_value.N`) with one
 * `attention_bias` for every layer. The graph reads the caches in place instead of joining each
 * layer's past to the new rows, which copied the whole past every step (about 110 MB a step at 900
 * rows of the real model); the new rows it returns are written into their slots.
 */

import type * as ort from 'onnxruntime-node';
import { CapacityKvCache, capacityBias, type CapacityKvCacheShape } from './capacity-kv-cache.js';
import type { KeyValueCache } from './key-value-cache.js';

export class CapacityDecoderCache implements KeyValueCache {
  readonly place = 'host';
  private readonly layers: CapacityKvCache[];
  private readonly dtype: CapacityKvCacheShape['dtype'];

  constructor(layers: number, shape: CapacityKvCacheShape) {
    this.layers = Array.from({ length: layers }, () => new CapacityKvCache(shape));
    this.dtype = shape.dtype;
  }

  get length(): number {
    return this.first.length;
  }

  get capacity(): number {
    return this.first.capacity;
  }

  /** Bytes held by the buffers (allocated, not just used). */
  get bytes(): number {
    return this.layers.reduce((sum, layer) => sum + layer.bytes, 0);
  }

  /** The decoder's cache feeds for a pass over `rows` new rows. */
  feeds(rows: number): Record<string, ort.Tensor> {
    const feeds: Record<string, ort.Tensor> = { attention_bias: capacityBias(this.dtype, this.length, this.capacity, rows) };
    this.layers.forEach((layer, i) => Object.assign(feeds, layer.buffers(`past_key.${i}`, `past_value.${i}`)));
    return feeds;
  }

  /** Writes the `present_key.N`/`present_value.N` rows a pass returned into their slots. */
  appendPresent(outputs: Readonly<Record<string, ort.Tensor>>): void {
    this.layers.forEach((layer, i) => {
      const key = outputs[`present_key.${i}`];
      const value = outputs[`present_value.${i}`];
      if (!key || !value) throw new Error(`the decoder returned no present_key.${i} or present_value.${i}`);
      layer.appendPresent({ present_key: key, present_value: value });
    });
  }

  /** Forgets rows after `length` (rejected drafts). */
  truncate(length: number): void {
    for (const layer of this.layers) layer.truncate(length);
  }

  release(): void {
    for (const layer of this.layers) layer.release();
  }

  private get first(): CapacityKvCache {
    const layer = this.layers[0];
    if (!layer) throw new Error('a decoder cache needs at least one layer');
    return layer;
  }
}
