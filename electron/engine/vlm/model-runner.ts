/**
 * The package's graphs as typed calls: vision views to features, token ids to embeddings, one
 * decoder or MTP pass over a cache. Each call is one `session.run`; its time is added to `runMs` so
 * the host-side share of a step can be measured.
 */

import * as ort from 'onnxruntime-node';
import { CapacityKvCache } from './capacity-kv-cache.js';
import { floatsFrom, halvesFrom } from './half-float.js';
import { KvCache, type CacheDtype } from './kv-cache.js';
import type { Logits } from './token-choice.js';
import type { ModelPackage } from './model-package.js';
import type { PreparedViews } from './views.js';
import type { VisionFeatures } from './visual-layout.js';

export interface PassOutput {
  /** `[numLogits, vocab]`. */
  logits: Logits;
  /** `[rows, hidden]` after the final norm. */
  hidden: Float32Array;
}

function int64(values: readonly number[], dims: readonly number[]): ort.Tensor {
  return new ort.Tensor('int64', BigInt64Array.from(values, BigInt), dims);
}

function positions(from: number, count: number): ort.Tensor {
  return int64(Array.from({ length: count }, (_, i) => from + i), [1, count]);
}

/** Logits as the graph gave them: fp16 halves are chosen from directly (token-choice.ts), not widened. */
function logitsOf(tensor: ort.Tensor | undefined): Logits {
  if (tensor?.type === 'float16' && tensor.data instanceof Uint16Array) return tensor.data;
  return float32(tensor, 'logits');
}

/** A float output as float32, widened when the package is fp16. */
function float32(tensor: ort.Tensor | undefined, what: string): Float32Array {
  if (!tensor) throw new Error(`the graph returned no ${what}`);
  if (tensor.data instanceof Float32Array) return tensor.data;
  if (tensor.type === 'float16' && tensor.data instanceof Uint16Array) return floatsFrom(tensor.data);
  throw new Error(`${what}: expected a float tensor, got ${tensor.type}`);
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
  /** Milliseconds spent inside `session.run` since the last reset. */
  runMs = 0;
  private readonly cacheDtype: CacheDtype;
  private readonly embedded = new Map<number, Float32Array>();

  constructor(private readonly pkg: ModelPackage) {
    const sizes = pkg.manifest.architecture.language_config;
    this.hidden = sizes.hidden_size;
    this.vocab = sizes.vocab_size;
    this.layers = sizes.num_hidden_layers;
    this.kvHeads = sizes.num_key_value_heads;
    this.headDim = sizes.hidden_size / sizes.num_attention_heads;
    this.hasMtp = pkg.sessions.has('mtp');
    this.cacheDtype = pkg.manifest.dtype;
  }

  decoderCache(capacity: number): KvCache {
    const names = Array.from({ length: this.layers }, (_, l) => [`past_key.${l}`, `past_value.${l}`]).flat();
    return new KvCache({ names, heads: this.kvHeads, headDim: this.headDim, dtype: this.cacheDtype, capacity });
  }

  mtpCache(capacity: number): CapacityKvCache {
    return new CapacityKvCache({ heads: this.kvHeads, headDim: this.headDim, dtype: this.cacheDtype, capacity });
  }

  async vision(views: PreparedViews): Promise<VisionFeatures> {
    const global = await this.run(`vision_${views.baseSize}`, {
      pixel_values: this.floatInput(`vision_${views.baseSize}`, 'pixel_values', views.global, [1, 3, views.baseSize, views.baseSize]),
    });
    const globalSide = this.pkg.manifest.graphs[`vision_${views.baseSize}`]?.grid ?? 0;
    const tileSide = this.pkg.manifest.graphs[`vision_${views.tileSize}`]?.grid ?? 0;
    let tiles: Float32Array | null = null;
    if (views.tiles) {
      const count = views.grid[0] * views.grid[1];
      const out = await this.run(`vision_${views.tileSize}`, {
        pixel_values: this.floatInput(`vision_${views.tileSize}`, 'pixel_values', views.tiles, [count, 3, views.tileSize, views.tileSize]),
      });
      tiles = float32(out.features, 'features');
    }
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
   * Token ids to embedding rows. The embedding graph is a pure lookup, so rows already looked up are
   * kept and only new ids reach ONNX Runtime: a decoding step's few tokens usually cost no run at all.
   * The rows returned are a fresh array the caller may overwrite.
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

  /** One decoder pass over `embeds` at positions `start..`, appending the new rows to `cache`. */
  async decode(cache: KvCache, embeds: Float32Array, numLogits: number): Promise<PassOutput> {
    const rows = embeds.length / this.hidden;
    const out = await this.run(this.pkg.decoderGraph, {
      inputs_embeds: this.floatInput(this.pkg.decoderGraph, 'inputs_embeds', embeds, [1, rows, this.hidden]),
      position_ids: positions(cache.length, rows),
      num_logits: int64([numLogits], []),
      ...cache.pastFeeds(),
    });
    cache.appendPresent(out);
    return { logits: logitsOf(out.logits), hidden: float32(out.hidden_states, 'hidden_states') };
  }

  /** One MTP pass: token embeddings paired with the previous positions' post-norm hidden states. */
  async mtp(cache: CapacityKvCache, embeds: Float32Array, previousHidden: Float32Array): Promise<PassOutput> {
    const rows = embeds.length / this.hidden;
    const out = await this.run('mtp', {
      inputs_embeds: this.floatInput('mtp', 'inputs_embeds', embeds, [1, rows, this.hidden]),
      previous_hidden: this.floatInput('mtp', 'previous_hidden', previousHidden, [1, rows, this.hidden]),
      position_ids: positions(cache.length, rows),
      num_logits: int64([1], []),
      ...cache.feeds(rows),
    });
    cache.appendPresent(out);
    return { logits: logitsOf(out.logits), hidden: float32(out.hidden_states, 'hidden_states') };
  }

  /** A float input in the dtype the graph declares: fp16 packages take halves. */
  private floatInput(graph: string, name: string, data: Float32Array, dims: readonly number[]): ort.Tensor {
    const dtype = this.pkg.manifest.graphs[graph]?.inputs.find((input) => input.name === name)?.dtype;
    return dtype === 'float16' ? new ort.Tensor('float16', halvesFrom(data), dims) : new ort.Tensor('float32', data, dims);
  }

  private async run(graph: string, feeds: Record<string, ort.Tensor>): Promise<Record<string, ort.Tensor>> {
    const session = this.pkg.sessions.get(graph);
    if (!session) throw new Error(`${this.pkg.dir}: the package has no ${graph} graph`);
    const started = performance.now();
    const out = await session.run(feeds);
    this.runMs += performance.now() - started;
    return out as Record<string, ort.Tensor>;
  }
}
