/**
 * The caches of the WebGPU path, kept on the device as `gpu-buffer` tensors between passes. The
 * package's graphs return only a pass's new rows, so the rows wait (`pending`) until the next pass,
 * whose feeds are made by one run of a helper graph (device-graphs.ts) that appends them and drops
 * rows past `length` at once: rolling back rejected drafts stays a length change, and nothing is
 * read back to the host. Superseded tensors are disposed as soon as the helper has run.
 */

import type * as ort from 'onnxruntime-node';
import type { CacheDtype } from './kv-cache.js';
import type { KeyValueCache } from './key-value-cache.js';

export type HelperRun = (feeds: Record<string, ort.Tensor>) => Promise<Record<string, ort.Tensor>>;
export type EmptyTensor = (dtype: CacheDtype, dims: readonly number[]) => ort.Tensor;

export interface DeviceCacheShape {
  heads: number;
  headDim: number;
  dtype: CacheDtype;
}

function dispose(tensors: Iterable<ort.Tensor>): void {
  for (const tensor of tensors) if (tensor.location === 'gpu-buffer') tensor.dispose();
}

/** Bytes one row of a cache tensor takes. */
function rowBytes(shape: DeviceCacheShape): number {
  return shape.heads * shape.headDim * (shape.dtype === 'float16' ? 2 : 4);
}

/** The decoder's cache: inputs `past_*` `[1, length, heads, dim]`, outputs `present_*` (new rows). */
export class DeviceKvCache implements KeyValueCache {
  readonly place = 'device';
  private past: Record<string, ort.Tensor>;
  private pending: Record<string, ort.Tensor> | null = null;
  private stored = 0;
  private rows = 0;

  constructor(
    readonly names: readonly string[],
    private readonly shape: DeviceCacheShape,
    private readonly append: HelperRun,
    private readonly empty: EmptyTensor,
    private readonly makeInt: (value: number) => ort.Tensor,
  ) {
    this.past = Object.fromEntries(names.map((name) => [name, empty(shape.dtype, [1, 0, shape.heads, shape.headDim])]));
  }

  get length(): number {
    return this.rows;
  }

  /** Bytes the cache holds on the device. */
  get bytes(): number {
    return this.names.length * this.stored * rowBytes(this.shape);
  }

  /** The tensors held now (past and waiting rows), for checking where they live. */
  get tensors(): ort.Tensor[] {
    return [...Object.values(this.past), ...Object.values(this.pending ?? {})];
  }

  /** The past as graph feeds: the waiting rows appended and rows past `length` dropped, on the device. */
  async feeds(_rows?: number): Promise<Record<string, ort.Tensor>> {
    const pastRows = this.past[this.names[0] ?? '']?.dims[1] ?? 0;
    if (!this.pending && pastRows === this.rows) return this.past;
    if (this.pending && pastRows === 0 && this.stored === this.rows) {
      // the first pass's rows become the cache as they are
      this.past = Object.fromEntries(this.names.map((name) => [name, (this.pending as Record<string, ort.Tensor>)[name] as ort.Tensor]));
      this.pending = null;
      return this.past;
    }
    const { heads, headDim, dtype } = this.shape;
    const feeds: Record<string, ort.Tensor> = { keep: this.makeInt(this.rows) };
    for (const name of this.names) {
      feeds[name] = this.past[name] as ort.Tensor;
      feeds[`new.${name}`] = this.pending?.[name] ?? this.empty(dtype, [1, 0, heads, headDim]);
    }
    const out = await this.append(feeds);
    dispose(this.tensors);
    this.past = Object.fromEntries(this.names.map((name) => [name, out[`kept.${name}`] as ort.Tensor]));
    this.pending = null;
    this.stored = this.rows;
    return this.past;
  }

  /** Takes the `present_*` rows a pass returned; they join the cache when the next pass's feeds are made. */
  appendPresent(outputs: Readonly<Record<string, ort.Tensor>>): void {
    if (this.pending) throw new Error('a pass ran without the cache feeds of the pass before it being made');
    this.pending = Object.fromEntries(this.names.map((name) => {
      const present = outputs[name.replace(/^past_/, 'present_')];
      if (!present) throw new Error(`the graph returned no ${name.replace(/^past_/, 'present_')}`);
      return [name, present];
    }));
    const count = this.pending[this.names[0] ?? '']?.dims[1] ?? 0;
    this.rows += count;
    this.stored = this.rows;
  }

  truncate(length: number): void {
    if (length < 0 || length > this.rows) throw new Error(`cannot truncate a cache of ${this.rows} rows to ${length}`);
    this.rows = length;
  }

  release(): void {
    dispose(this.tensors);
    this.pending = null;
  }
}

/**
 * The MTP head's cache in the layout its graph reads (keys `[1, heads, dim, slots]`, values
 * `[1, heads, slots, dim]`): a hidden zero slot, then exactly `length` rows, so the attention bias
 * (made on the device by the helper graph) masks that slot and the new rows' causal triangle. The
 * slot is there because the provider aborts on a cache of no rows.
 */
export class DeviceMtpCache implements KeyValueCache {
  readonly place = 'device';
  private key: ort.Tensor | null = null;
  private value: ort.Tensor | null = null;
  private bias: ort.Tensor | null = null;
  private pending: { key: ort.Tensor; value: ort.Tensor } | null = null;
  private stored = 0;
  private rows = 0;

  constructor(
    private readonly shape: DeviceCacheShape,
    private readonly start: HelperRun,
    private readonly prepare: HelperRun,
    private readonly empty: EmptyTensor,
    private readonly makeInt: (value: number) => ort.Tensor,
  ) {}

  get length(): number {
    return this.rows;
  }

  get bytes(): number {
    return 2 * (this.stored + 1) * rowBytes(this.shape);
  }

  get tensors(): ort.Tensor[] {
    return [this.key, this.value, this.pending?.key, this.pending?.value].filter((tensor): tensor is ort.Tensor => tensor !== null && tensor !== undefined);
  }

  /** Feeds for a pass over `rows` new rows: the cache and its attention bias. */
  async feeds(rows: number): Promise<Record<string, ort.Tensor>> {
    const { heads, headDim, dtype } = this.shape;
    if (!this.key || !this.value) {
      const slot = await this.start({});
      this.key = slot.key as ort.Tensor;
      this.value = slot.value as ort.Tensor;
    }
    const none = (): ort.Tensor => this.empty(dtype, [1, 0, heads, headDim]);
    const out = await this.prepare({
      past_key: this.key,
      past_value: this.value,
      new_key: this.pending?.key ?? none(),
      new_value: this.pending?.value ?? none(),
      keep: this.makeInt(this.rows + 1),
      rows: this.makeInt(rows),
    });
    dispose([...this.tensors, ...(this.bias ? [this.bias] : [])]);
    this.key = out.key as ort.Tensor;
    this.value = out.value as ort.Tensor;
    this.bias = out.bias as ort.Tensor;
    this.pending = null;
    this.stored = this.rows;
    return { past_key: this.key, past_value: this.value, attention_bias: this.bias };
  }

  appendPresent(outputs: Readonly<Record<string, ort.Tensor>>): void {
    const key = outputs.present_key;
    const value = outputs.present_value;
    if (!key || !value) throw new Error('the graph returned no present_key or present_value');
    this.pending = { key, value };
    this.rows += key.dims[1] ?? 0;
    this.stored = this.rows;
  }

  truncate(length: number): void {
    if (length < 0 || length > this.rows) throw new Error(`cannot truncate a cache of ${this.rows} rows to ${length}`);
    this.rows = length;
  }

  release(): void {
    dispose([...this.tensors, ...(this.bias ? [this.bias] : [])]);
    this.key = this.value = this.bias = null;
    this.pending = null;
  }
}
