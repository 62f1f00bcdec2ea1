/**
 * The one contract of a sequence's key/value cache, for the decoder and the draft head alike, in
 * host memory or on the device: the decoding loops and ModelRunner see only this, and
 * ModelRunner's `decoderCache`/`mtpCache` choose the class by device and graph layout.
 */

import type * as ort from 'onnxruntime-node';

export interface KeyValueCache {
  /** Rows held: the positions the next pass starts at. */
  readonly length: number;
  /** Bytes held (allocated, not just used), wherever they live. */
  readonly bytes: number;
  /** Where the rows live: host memory, or the device's buffers between passes. */
  readonly place: 'host' | 'device';
  /** The cache's feeds for a pass over `rows` new rows (made on the device where it lives there). */
  feeds(rows: number): Record<string, ort.Tensor> | Promise<Record<string, ort.Tensor>>;
  /** Takes the `present_*` rows the pass returned. */
  appendPresent(outputs: Readonly<Record<string, ort.Tensor>>): void;
  /** Rewinds to `length` rows (rejected drafts): a length change, nothing copied. */
  truncate(length: number): void;
  /** Gives back what it holds; the cache is not used after. */
  release(): void;
}
