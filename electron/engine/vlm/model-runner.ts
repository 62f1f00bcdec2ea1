/**
 * The package's graphs as typed calls: vision views to features, token ids to embeddings, one
 * decoder or MTP pass over a cache, and each logits row to a token under a ban. Each call is one or
 * a few `session.run`s; their time is added to `runMs` so the host-side share of a step can be
 * measured, and the bytes of host tensors they take or return on a device provider are counted in
 * `traffic`.
 *
 * On the CPU and CUDA providers rows and logits are host arrays and tokens are chosen on the host.
 * On WebGPU (`resident`), caches, hidden rows and logits stay on the device as `gpu-buffer`
 * tensors and only ids cross: embeddings are looked up by a device session, the helper graphs of
 * device-graphs.ts append cache rows, slice hidden rows and choose tokens.
 */

import * as ort from 'onnxruntime-node';
import type { GraphSpec } from '../../core/model/manifest.js';
import { CapacityDecoderCache } from './capacity-decoder-cache.js';
import { CAPACITY_BLOCK, CapacityKvCache } from './capacity-kv-cache.js';
import { DeviceKvCache, DeviceMtpCache } from './device-kv-cache.js';
import { floatsFrom, halvesFrom } from './half-float.js';
import { KvCache, type CacheDtype } from './kv-cache.js';
import type { KeyValueCache } from './key-value-cache.js';
import { PackedCapacityCache, packedPasses, type LaneCache, type PackedRequest } from './packed-capacity-cache.js';
import { chooseToken, type Ban, type Logits } from './token-choice.js';
import type { ModelPackage } from './model-package.js';
import type { PreparedViews } from './views.js';
import type { VisionFeatures } from './visual-layout.js';

/** `[rows, width]` float rows: a host array, or a `[1, rows, width]` tensor on the device. */
export type Rows = Float32Array | ort.Tensor;
/** A pass's logits: host scores, or a `[1, rows, vocab]` tensor on the device. */
export type PassLogits = Logits | ort.Tensor;
export type DecoderCache = KeyValueCache;
export type MtpCache = KeyValueCache;

/** One page's rows in a packed pass: host rows over a lane of the pass's packed cache. */
export interface PackedPass {
  cache: LaneCache;
  embeds: Float32Array;
  /** The MTP head's: the decoder's hidden rows paired with `embeds`. */
  previousHidden?: Float32Array;
  /** Of the rows, the last ones whose logits are wanted. */
  logits: number;
}

/** A page's vision features and its turn on the vision encoder. */
export interface EncodedViews {
  features: VisionFeatures;
  /** Waiting for other pages' vision to finish first. */
  waitMs: number;
  /** Running its own vision, wall time. */
  ms: number;
  /** Whether it ran on the package's session thread, beside the decoding. */
  onThread: boolean;
}

export interface PassOutput {
  /** `[numLogits, vocab]`. */
  logits: PassLogits;
  /** `[rows, hidden]` after the final norm. */
  hidden: Rows;
}

/** Bytes of host tensors handed to or returned by sessions on a device (nothing on the CPU provider). */
export interface Traffic {
  uploaded: number;
  downloaded: number;
  /** Bytes by tensor name, both directions. */
  byName: Map<string, number>;
}

function int64(values: readonly number[], dims: readonly number[]): ort.Tensor {
  return new ort.Tensor('int64', BigInt64Array.from(values, BigInt), dims);
}

function positions(from: number, count: number): ort.Tensor {
  return int64(Array.from({ length: count }, (_, i) => from + i), [1, count]);
}

function emptyTensor(dtype: CacheDtype, dims: readonly number[]): ort.Tensor {
  return new ort.Tensor(dtype, dtype === 'float16' ? new Uint16Array(0) : new Float32Array(0), dims);
}

/** Logits as the graph gave them: fp16 halves are chosen from directly (token-choice.ts), not widened. */
function logitsOf(tensor: ort.Tensor | undefined): PassLogits {
  if (tensor?.location === 'gpu-buffer') return tensor;
  if (tensor?.type === 'float16' && tensor.data instanceof Uint16Array) return tensor.data;
  return float32(tensor, 'logits');
}

function rowsOf(tensor: ort.Tensor | undefined, what: string): Rows {
  return tensor?.location === 'gpu-buffer' ? tensor : float32(tensor, what);
}

/** A float output as float32, widened when the package is fp16. */
function float32(tensor: ort.Tensor | undefined, what: string): Float32Array {
  if (!tensor) throw new Error(`the graph returned no ${what}`);
  if (tensor.data instanceof Float32Array) return tensor.data;
  if (tensor.type === 'float16' && tensor.data instanceof Uint16Array) return floatsFrom(tensor.data);
  throw new Error(`${what}: expected a float tensor, got ${tensor.type}`);
}

/** A device tensor rather than a host array. */
export function isTensor(value: Rows | PassLogits): value is ort.Tensor {
  return !ArrayBuffer.isView(value);
}

function hostBytes(tensor: ort.Tensor): number {
  return tensor.location === 'cpu' && ArrayBuffer.isView(tensor.data) ? tensor.data.byteLength : 0;
}

/** Embedding rows kept between calls: about 20 MB at jina-ocr-v1's width, more distinct tokens than a document uses. */
const EMBEDDED_ROWS_KEPT = 4096;

export class ModelRunner {
  readonly hidden: number;
  readonly vocab: number;
  readonly layers: number;
  readonly kvHeads: number;
  readonly headDim: number;
  readonly hasMtp: boolean;
  /** True when caches, rows and logits stay on the device (the WebGPU provider). */
  readonly resident: boolean;
  /** Milliseconds spent inside `session.run` since the last reset. */
  runMs = 0;
  traffic: Traffic = { uploaded: 0, downloaded: 0, byName: new Map() };
  private readonly cacheDtype: CacheDtype;
  private readonly embedded = new Map<number, Float32Array>();
  /** The end of the last page's vision asked for: each page's waits for the one before it. */
  private visionTurn: Promise<void> = Promise.resolve();
  /** Set: the vision graphs run on the package's session thread with as many intra-op threads as it says as a page's vision starts. */
  private visionThreads: (() => number) | undefined;

  constructor(private readonly pkg: ModelPackage) {
    const sizes = pkg.manifest.architecture.language_config;
    this.hidden = sizes.hidden_size;
    this.vocab = sizes.vocab_size;
    this.layers = sizes.num_hidden_layers;
    this.kvHeads = sizes.num_key_value_heads;
    this.headDim = sizes.hidden_size / sizes.num_attention_heads;
    this.hasMtp = pkg.sessions.has('mtp');
    this.cacheDtype = pkg.manifest.dtype;
    this.resident = pkg.provider.provider === 'webgpu';
  }

  /**
   * From now on the vision graphs run on the package's session thread, beside the decoding, with
   * `threads()` intra-op threads as each page's vision starts (a session kept there keeps the count
   * it was opened with; the vision graphs must run on the CPU).
   */
  visionOnThread(threads: () => number): void {
    this.visionThreads = threads;
  }

  resetTraffic(): void {
    this.traffic = { uploaded: 0, downloaded: 0, byName: new Map() };
  }

  decoderCache(capacity: number): DecoderCache {
    const names = Array.from({ length: this.layers }, (_, l) => [`past_key.${l}`, `past_value.${l}`]).flat();
    const shape = { heads: this.kvHeads, headDim: this.headDim, dtype: this.cacheDtype };
    const atCapacity = this.pkg.manifest.graphs[this.pkg.decoderGraph]?.inputs.some((input) => input.name === 'attention_bias') ?? false;
    if (this.resident) {
      if (atCapacity) throw new Error(`${this.pkg.dir}: the package's only decoder takes its cache at capacity (exported with --cache-layout capacity), which the WebGPU path's resident cache cannot feed; use --device cpu or a package exported with the default --cache-layout both`);
      return new DeviceKvCache(names, shape, (feeds) => this.run('cache_append', feeds), emptyTensor, (value) => int64([value], [1]));
    }
    // Not `capacity` rows up front: the graph reads every slot, held or not, so the cache grows by
    // blocks as rows arrive (a page's 4,096-token budget would make every step read 4,400 slots).
    if (atCapacity) return new CapacityDecoderCache(this.layers, { ...shape, capacity: CAPACITY_BLOCK });
    return new KvCache({ names, ...shape, capacity });
  }

  mtpCache(capacity: number): MtpCache {
    const shape = { heads: this.kvHeads, headDim: this.headDim, dtype: this.cacheDtype };
    if (this.resident) {
      return new DeviceMtpCache(shape, (feeds) => this.run('mtp_cache_start', feeds), (feeds) => this.run('mtp_cache_prepare', feeds), emptyTensor, (value) => int64([value], [1]));
    }
    return new CapacityKvCache({ ...shape, capacity });
  }

  /**
   * Whether several pages' rows can share a decoder pass: on the CPU, with a decoder (and draft head)
   * that takes its cache at capacity with a bias and the pages on its batch axis
   * (packed-capacity-cache.ts; packages exported before that axis decode one page at a time). The rows layout's decoder builds its
   * own causal bias, and the device caches are resident rows of one page.
   */
  get packs(): boolean {
    const graphs = this.pkg.manifest.graphs;
    return !this.resident && lanesOnBatch(graphs[this.pkg.decoderGraph]) && (!this.hasMtp || lanesOnBatch(graphs.mtp));
  }

  /** The decoder's and the draft head's caches for `lanes` pages decoding together. */
  packedCaches(lanes: number): { decoder: PackedCapacityCache; mtp: PackedCapacityCache | null } {
    if (!this.packs) throw new Error(`${this.pkg.dir}: several pages decode together only on the CPU with a decoder that takes its cache at capacity`);
    const shape = { heads: this.kvHeads, headDim: this.headDim, dtype: this.cacheDtype, lanes };
    return {
      decoder: new PackedCapacityCache({ ...shape, layers: Array.from({ length: this.layers }, (_, l) => `.${l}`) }),
      mtp: this.hasMtp ? new PackedCapacityCache({ ...shape, layers: [''] }) : null,
    };
  }

  /**
   * One pass of the decoder (`mtp`: of the draft head) over several pages' rows at once, each page
   * on its own lane of `pool`; returns each page's logits and hidden rows as its own pass would.
   */
  async packed(graph: 'decoder' | 'mtp', pool: PackedCapacityCache, passes: readonly PackedPass[]): Promise<PassOutput[]> {
    const requests: PackedRequest[] = passes.map((pass) => ({ lane: pass.cache.lane, rows: pass.embeds.length / this.hidden, logits: pass.logits }));
    const outputs = new Array<PassOutput>(passes.length);
    for (const group of packedPasses(requests)) {
      const results = await this.packedPass(graph, pool, group.map((i) => passes[i] as PackedPass), group.map((i) => requests[i] as PackedRequest));
      group.forEach((i, at) => (outputs[i] = results[at] as PassOutput));
    }
    return outputs;
  }

  /** One session run of a packed pass. */
  private async packedPass(graph: 'decoder' | 'mtp', pool: PackedCapacityCache, passes: readonly PackedPass[], requests: readonly PackedRequest[]): Promise<PassOutput[]> {
    const name = graph === 'decoder' ? this.pkg.decoderGraph : 'mtp';
    const hidden = this.hidden;
    const { feeds, layout } = pool.feeds(requests);
    const rows = layout.order.length;
    // padding rows stay zeros
    const gather = (pick: (pass: PackedPass) => Float32Array | undefined): Float32Array => {
      const packed = new Float32Array(rows * hidden);
      layout.order.forEach((row, at) => {
        if (row === null) return;
        const from = pick(passes[row.request] as PackedPass);
        if (!from) throw new Error(`the ${name} graph's packed pass lacks a page's rows`);
        packed.set(from.subarray(row.index * hidden, (row.index + 1) * hidden), at * hidden);
      });
      return packed;
    };
    const out = await this.run(name, {
      inputs_embeds: this.floatInput(name, 'inputs_embeds', gather((pass) => pass.embeds), [1, rows, hidden]),
      ...(graph === 'mtp' ? { previous_hidden: this.floatInput(name, 'previous_hidden', gather((pass) => pass.previousHidden), [1, rows, hidden]) } : {}),
      position_ids: int64(layout.positions, [1, rows]),
      num_logits: int64([layout.numLogits], []),
      ...feeds,
    });
    pool.appendPresent(out, requests, layout.order);
    const logits = logitsOf(out.logits);
    if (isTensor(logits)) throw new Error('a packed pass runs on the host');
    const states = float32(out.hidden_states, 'hidden_states');
    const pageRows = requests.map((request) => new Float32Array(request.rows * hidden));
    layout.order.forEach((row, at) => {
      if (row !== null) (pageRows[row.request] as Float32Array).set(states.subarray(at * hidden, (at + 1) * hidden), row.index * hidden);
    });
    return requests.map((request, i) => {
      const from = layout.logitStart[i] as number;
      // views, not copies: the output is this pass's alone (four rows of a real vocabulary are 2 MB)
      return { logits: logits.subarray(from * this.vocab, (from + request.logits) * this.vocab), hidden: pageRows[i] as Float32Array };
    });
  }

  async vision(views: PreparedViews): Promise<VisionFeatures> {
    return (await this.encode(views)).features;
  }

  /**
   * The page's vision features, and how long the page waited for the vision encoder (another
   * page's views before it) and then ran on it. Pages take turns in the order they ask; `turn` is
   * told when this one's comes.
   */
  async encode(views: PreparedViews, turn?: () => void): Promise<EncodedViews> {
    const asked = performance.now();
    const before = this.visionTurn;
    let done = (): void => {};
    this.visionTurn = new Promise<void>((resolve) => (done = resolve));
    await before;
    const started = performance.now();
    turn?.();
    try {
      const features = await this.visionFeatures(views);
      return { features, waitMs: started - asked, ms: performance.now() - started, onThread: this.visionThreads !== undefined };
    } finally {
      done();
    }
  }

  private async visionFeatures(views: PreparedViews): Promise<VisionFeatures> {
    const [global] = await this.visionEach(`vision_${views.baseSize}`, [{
      pixel_values: this.floatInput(`vision_${views.baseSize}`, 'pixel_values', views.global, [1, 3, views.baseSize, views.baseSize]),
    }]);
    if (!global) throw new Error(`${this.pkg.dir}: the vision_${views.baseSize} graph gave no outputs`);
    const globalSide = this.pkg.manifest.graphs[`vision_${views.baseSize}`]?.grid ?? 0;
    const tileSide = this.pkg.manifest.graphs[`vision_${views.tileSize}`]?.grid ?? 0;
    let tiles: Float32Array | null = null;
    if (views.tiles) tiles = await this.tileFeatures(`vision_${views.tileSize}`, views.tiles, views.grid[0] * views.grid[1], views.tileSize);
    return {
      global: float32(global.features, 'features'),
      globalSide,
      tiles,
      tileSide,
      grid: views.grid,
      newline: float32(global.image_newline, 'image_newline'),
      separator: float32(global.view_seperator, 'view_seperator'),
      hidden: this.hidden,
    };
  }

  /**
   * The tiles' features. On the CPU each tile runs alone, all in one session: six 640-pixel tiles
   * in one batch peaked at 2.6 GB over the session's 0.65, one at a time at 1.4 GB, in the same
   * time (24 s, 6 x 3.7 s). A GPU takes them as one batch.
   */
  private async tileFeatures(graph: string, pixels: Float32Array, count: number, size: number): Promise<Float32Array> {
    const perTile = 3 * size * size;
    const batches = this.pkg.provider.provider === 'cpu' ? count : 1;
    const tiles = count / batches;
    const outs = await this.visionEach(graph, Array.from({ length: batches }, (_, i) => ({
      pixel_values: this.floatInput(graph, 'pixel_values', pixels.subarray(i * tiles * perTile, (i + 1) * tiles * perTile), [tiles, 3, size, size]),
    })));
    const features = outs.map((out) => float32(out.features, 'features'));
    if (features.length === 1 && features[0]) return features[0];
    const joined = new Float32Array(features.reduce((sum, part) => sum + part.length, 0));
    let offset = 0;
    for (const part of features) {
      joined.set(part, offset);
      offset += part.length;
    }
    return joined;
  }

  /**
   * What `views` views of `size` pixels cost the vision graph of that size, passed as a page's are
   * (on the CPU one view a pass, elsewhere all in one), for `--device auto` (page-costs.ts): one
   * pass's least ms (a kept session's first pass warms it up and is not counted), the passes a page
   * makes, and the ms to open a session opened for each pass, which every page pays. The pixels are
   * made up: a pass costs the same whatever they show.
   */
  async visionCost(size: number, views: number): Promise<{ openMs: number; passMs: number; passes: number }> {
    const graph = `vision_${size}`;
    const batch = this.pkg.provider.provider === 'cpu' ? 1 : views;
    const pixels = new Float32Array(batch * 3 * size * size).map((_, i) => ((i * 37) % 255) / 127.5 - 1);
    const feeds = { pixel_values: this.floatInput(graph, 'pixel_values', pixels, [batch, 3, size, size]) };
    const perPass = this.pkg.perPass.has(graph);
    const asked = performance.now();
    let openMs = 0;
    let passMs = Number.POSITIVE_INFINITY;
    await this.pkg.withSession(graph, async (session) => {
      openMs = perPass ? performance.now() - asked : 0;
      for (let run = 0; run < (perPass ? 1 : 2); run++) {
        const started = performance.now();
        await session.run(feeds);
        passMs = Math.min(passMs, performance.now() - started);
      }
    });
    return { openMs, passMs, passes: views / batch };
  }

  /** A vision graph's passes: on the package's session thread when the runner has one, else here. */
  private visionEach(graph: string, passes: readonly Record<string, ort.Tensor>[]): Promise<Record<string, ort.Tensor>[]> {
    if (this.visionThreads === undefined) return this.runEach(graph, passes);
    return this.pkg.runOnThread(graph, passes, this.visionThreads());
  }

  /**
   * Token ids to embedding rows on the host. The embedding graph is a pure lookup, so rows already
   * looked up are kept and only new ids reach ONNX Runtime: a decoding step's few tokens usually
   * cost no run at all. The rows returned are a fresh array the caller may overwrite.
   */
  async embed(ids: readonly number[]): Promise<Float32Array> {
    const missing = [...new Set(ids)].filter((id) => !this.embedded.has(id));
    if (missing.length) {
      if (this.embedded.size + missing.length > EMBEDDED_ROWS_KEPT) this.embedded.clear();
      const out = await this.run('embedding', { input_ids: int64(missing, [1, missing.length]) });
      const rows = float32(out.inputs_embeds, 'inputs_embeds');
      missing.forEach((id, i) => this.embedded.set(id, rows.slice(i * this.hidden, (i + 1) * this.hidden)));
    }
    const embeds = new Float32Array(ids.length * this.hidden);
    ids.forEach((id, i) => embeds.set(this.embedded.get(id) as Float32Array, i * this.hidden));
    return embeds;
  }

  /** Embedding rows for decoding steps: on the device when resident (only the ids cross), else as `embed`. */
  async embedTokens(ids: readonly number[]): Promise<Rows> {
    if (!this.resident) return this.embed(ids);
    const out = await this.run('embedding_device', { input_ids: int64(ids, [1, ids.length]) });
    return out.inputs_embeds as ort.Tensor;
  }

  /** One decoder pass over `embeds` at positions `start..`, appending the new rows to `cache`. */
  async decode(cache: DecoderCache, embeds: Rows, numLogits: number): Promise<PassOutput> {
    const input = this.rowsInput(this.pkg.decoderGraph, 'inputs_embeds', embeds);
    const rows = input.dims[1] ?? 0;
    const out = await this.run(this.pkg.decoderGraph, {
      inputs_embeds: input,
      position_ids: positions(cache.length, rows),
      num_logits: int64([numLogits], []),
      ...(await cache.feeds(rows)),
    });
    cache.appendPresent(out);
    this.release(embeds);
    return { logits: logitsOf(out.logits), hidden: rowsOf(out.hidden_states, 'hidden_states') };
  }

  /** One MTP pass: token embeddings paired with the previous positions' post-norm hidden states. */
  async mtp(cache: MtpCache, embeds: Rows, previousHidden: Rows): Promise<PassOutput> {
    const input = this.rowsInput('mtp', 'inputs_embeds', embeds);
    const rows = input.dims[1] ?? 0;
    const out = await this.run('mtp', {
      inputs_embeds: input,
      previous_hidden: this.rowsInput('mtp', 'previous_hidden', previousHidden),
      position_ids: positions(cache.length, rows),
      num_logits: int64([1], []),
      ...(await cache.feeds(rows)),
    });
    cache.appendPresent(out);
    this.release(embeds);
    return { logits: logitsOf(out.logits), hidden: rowsOf(out.hidden_states, 'hidden_states') };
  }

  /**
   * Each logits row's token under that row's ban (`bans[row]`; `always` holds for every row); the
   * logits are released. On the device only the n-gram bans go up (the always-banned ids are in
   * the choice graph) and only the ids come back.
   */
  async chooseTokens(logits: PassLogits, bans: readonly ReadonlySet<number>[], always?: ReadonlySet<number>): Promise<number[]> {
    if (!isTensor(logits)) {
      return bans.map((ban, row) => chooseToken(logits, this.vocab, row, always?.size ? joinBans(ban, always) : ban));
    }
    const width = Math.max(1, ...bans.map((ban) => ban.size));
    const banned = new Int32Array(bans.length * width).fill(-1);
    bans.forEach((ban, row) => banned.set([...ban], row * width));
    const out = await this.run(`token_choice.${logits.type}`, { logits, banned: new ort.Tensor('int32', banned, [bans.length, width]) });
    this.release(logits);
    return Array.from(out.tokens?.data as BigInt64Array, Number);
  }

  /** Rows `from..to` of `rows`, a new array or tensor. */
  async sliceRows(rows: Rows, from: number, to: number): Promise<Rows> {
    if (!isTensor(rows)) return rows.slice(from * this.hidden, to * this.hidden);
    return this.rowsRun(rows, emptyTensor(this.cacheDtype, [1, 0, this.hidden]), from, to);
  }

  /** `a` then `b`, as one block of rows. */
  async joinRows(a: Rows, b: Rows): Promise<Rows> {
    if (!isTensor(a) && !isTensor(b)) {
      const all = new Float32Array(a.length + b.length);
      all.set(a);
      all.set(b, a.length);
      return all;
    }
    const rows = (x: Rows): number => (isTensor(x) ? (x.dims[1] ?? 0) : x.length / this.hidden);
    return this.rowsRun(a, b, 0, rows(a) + rows(b));
  }

  /** Disposes device tensors no longer needed; host arrays are left to the garbage collector. */
  release(...values: readonly (Rows | PassLogits)[]): void {
    for (const value of values) if (isTensor(value) && value.location === 'gpu-buffer') value.dispose();
  }

  private async rowsRun(a: Rows, b: Rows, from: number, to: number): Promise<Rows> {
    const out = await this.run('rows', {
      a: this.rowsInput('rows', 'a', a),
      b: this.rowsInput('rows', 'b', b),
      start: int64([from], [1]),
      end: int64([to], [1]),
    });
    return out.rows as ort.Tensor;
  }

  /** Rows as a `[1, rows, width]` input of the graph's float dtype; device tensors pass as they are. */
  private rowsInput(graph: string, name: string, rows: Rows): ort.Tensor {
    if (isTensor(rows)) return rows;
    return this.floatInput(graph, name, rows, [1, rows.length / this.hidden, this.hidden]);
  }

  /** A float input in the dtype the graph declares: fp16 packages take halves. */
  private floatInput(graph: string, name: string, data: Float32Array, dims: readonly number[]): ort.Tensor {
    const dtype = this.pkg.manifest.graphs[graph]?.inputs.find((input) => input.name === name)?.dtype ?? (graph === 'rows' ? this.cacheDtype : undefined);
    return dtype === 'float16' ? new ort.Tensor('float16', halvesFrom(data), dims) : new ort.Tensor('float32', data, dims);
  }

  private async run(graph: string, feeds: Record<string, ort.Tensor>): Promise<Record<string, ort.Tensor>> {
    const [out] = await this.runEach(graph, [feeds]);
    if (!out) throw new Error(`${this.pkg.dir}: the ${graph} graph gave no outputs`);
    return out;
  }

  /** Several passes of one graph, one after another, in one session (a per-pass graph's is made once). */
  private async runEach(graph: string, passes: readonly Record<string, ort.Tensor>[]): Promise<Record<string, ort.Tensor>[]> {
    const outs = await this.pkg.withSession(graph, async (session) => {
      const results: Record<string, ort.Tensor>[] = [];
      for (const feeds of passes) {
        const started = performance.now();
        try {
          results.push((await session.run(feeds)) as Record<string, ort.Tensor>);
        } catch (error) {
          throw new Error(`${this.pkg.dir}: the ${graph} graph failed: ${(error as Error).message}`);
        } finally {
          this.runMs += performance.now() - started;
        }
      }
      return results;
    });
    if (this.pkg.onDevice(graph)) {
      for (const [i, feeds] of passes.entries()) {
        for (const [name, tensor] of Object.entries(feeds)) this.count(name, hostBytes(tensor), 'uploaded');
        for (const [name, tensor] of Object.entries(outs[i] ?? {})) this.count(name, hostBytes(tensor), 'downloaded');
      }
    }
    return outs;
  }

  private count(name: string, bytes: number, direction: 'uploaded' | 'downloaded'): void {
    if (!bytes) return;
    this.traffic[direction] += bytes;
    this.traffic.byName.set(name, (this.traffic.byName.get(name) ?? 0) + bytes);
  }
}

function joinBans(a: ReadonlySet<number>, b: ReadonlySet<number>): Ban {
  return { has: (id) => a.has(id) || b.has(id) };
}

/** Whether a graph takes its cache at capacity with the pages of a packed pass on the batch axis (`lanes`). */
function lanesOnBatch(graph: GraphSpec | undefined): boolean {
  const bias = graph?.inputs.find((input) => input.name === 'attention_bias');
  return bias !== undefined && bias.shape[0] === 'lanes';
}
