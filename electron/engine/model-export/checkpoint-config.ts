/**
 * Architecture sizes for DeepSeek-OCR / jina-ocr-v1, read from a checkpoint's config.json, where
 * every field is either honoured or refused by name (the rules of tools/model/folio_model/config.py,
 * which the PyTorch reference reads with).
 *
 * The published config.json files carry the decoder's fields twice, at the top level and under
 * `language_config` (which vLLM reads); both places are read and must agree. The DeepEncoder's sizes
 * come from `vision_config.width.{sam_vit_b,clip-l-14-224}`, the projector's from
 * `projector_config`; Folio's own `folio_vision` object (what a package's manifest records) may set
 * any SAM or CLIP size. Each field is one of:
 * - mapped into the SAM, CLIP or decoder sizes (or the MTP head count);
 * - required: a value that selects arithmetic Folio implements; any other value is refused, since
 *   the export would succeed and the model would decode garbage;
 * - known and ignored: it changes no arithmetic (`architectures`, training-only loss weights);
 * - unknown: refused too, unless `allowUnknown` (the exporter's `--allow-unknown-config`).
 */

import { pythonRepr } from './python-json.js';

export interface SamConfig {
  img_size: number;
  patch_size: number;
  embed_dim: number;
  depth: number;
  num_heads: number;
  mlp_ratio: number;
  out_chans: number;
  window_size: number;
  global_attn_indexes: number[];
  /** The 16x compressor after the neck: two stride-2 3x3 convolutions. */
  net_2_chans: number;
  net_3_chans: number;
}

export interface ClipConfig {
  hidden_size: number;
  num_layers: number;
  num_attention_heads: number;
  ffn_hidden_size: number;
  image_size: number;
  patch_size: number;
  layernorm_epsilon: number;
  pre_layernorm_epsilon: number;
}

export interface DecoderConfig {
  vocab_size: number;
  hidden_size: number;
  num_hidden_layers: number;
  num_attention_heads: number;
  num_key_value_heads: number;
  intermediate_size: number;
  moe_intermediate_size: number;
  n_routed_experts: number;
  n_shared_experts: number;
  num_experts_per_tok: number;
  first_k_dense_replace: number;
  routed_scaling_factor: number;
  norm_topk_prob: boolean;
  rms_norm_eps: number;
  rope_theta: number;
  max_position_embeddings: number;
  bos_token_id: number;
  eos_token_id: number;
  pad_token_id: number;
}

export interface ModelConfig {
  sam: SamConfig;
  clip: ClipConfig;
  decoder: DecoderConfig;
  /** FastMTP heads in the checkpoint (jina-ocr-v1: 1; DeepSeek-OCR: 0). */
  num_mtp_heads: number;
}

/** DeepSeek-OCR's sizes: what a field the config leaves out means. */
export const SAM_DEFAULTS: Readonly<SamConfig> = {
  img_size: 1024, patch_size: 16, embed_dim: 768, depth: 12, num_heads: 12, mlp_ratio: 4.0, out_chans: 256,
  window_size: 14, global_attn_indexes: [2, 5, 8, 11], net_2_chans: 512, net_3_chans: 1024,
};
export const CLIP_DEFAULTS: Readonly<ClipConfig> = {
  hidden_size: 1024, num_layers: 24, num_attention_heads: 16, ffn_hidden_size: 4096, image_size: 224, patch_size: 14,
  layernorm_epsilon: 1e-5, pre_layernorm_epsilon: 1e-5,
};
export const DECODER_DEFAULTS: Readonly<DecoderConfig> = {
  vocab_size: 129280, hidden_size: 1280, num_hidden_layers: 12, num_attention_heads: 10, num_key_value_heads: 10,
  intermediate_size: 6848, moe_intermediate_size: 896, n_routed_experts: 64, n_shared_experts: 2, num_experts_per_tok: 6,
  first_k_dense_replace: 1, routed_scaling_factor: 1.0, norm_topk_prob: false, rms_norm_eps: 1e-6, rope_theta: 10000.0,
  max_position_embeddings: 8192, bos_token_id: 0, eos_token_id: 1, pad_token_id: 2,
};

export function headDim(decoder: DecoderConfig): number {
  return decoder.hidden_size / decoder.num_attention_heads;
}

export function projectorInputDim(config: ModelConfig): number {
  return config.clip.hidden_size + config.sam.net_3_chans;
}

/** config.json holds fields Folio cannot honour; `problems` has one line per field. */
export class ConfigError extends Error {
  readonly problems: string[];
  constructor(problems: string[], source = 'config.json') {
    const count = problems.length === 1 ? '1 field' : `${problems.length} fields`;
    super(`${source}: ${count} Folio cannot honour:${problems.map((p) => `\n  - ${p}`).join('')}`);
    this.name = 'ConfigError';
    this.problems = problems;
  }
}

// ---- the field table ----------------------------------------------------------------------------

type Kind = 'int' | 'float' | 'bool' | 'ints';

/** Sets `target` ("decoder.rope_theta", "sam.depth", "mtp"); null means the default unless `nullRefused` says why it cannot be honoured. */
interface MapRule { rule: 'map'; target: string; nullRefused?: string; convert?: (value: unknown) => unknown }
/** Honoured only at one of `allowed` (absent means the default, which is implemented). */
interface RequireRule { rule: 'require'; allowed: readonly unknown[]; supported: string }
interface IgnoreRule { rule: 'ignore'; reason: string }
/** A nested object read by its own table. */
interface SectionRule { rule: 'section'; name: string }
type Rule = MapRule | RequireRule | IgnoreRule | SectionRule;

const map = (target: string, nullRefused?: string, convert?: (value: unknown) => unknown): MapRule => ({ rule: 'map', target, nullRefused, convert });
const require = (allowed: readonly unknown[], supported: string): RequireRule => ({ rule: 'require', allowed, supported });
const ignore = (reason: string): IgnoreRule => ({ rule: 'ignore', reason });
const section = (name: string): SectionRule => ({ rule: 'section', name });

const NO_MLA = 'plain multi-head attention (use_mla false) is implemented, not MLA';
const NONE_OR_ZERO = [null, 0];

const DECODER_MAPPED = [
  'vocab_size', 'hidden_size', 'num_hidden_layers', 'num_attention_heads', 'num_key_value_heads', 'intermediate_size',
  'moe_intermediate_size', 'num_experts_per_tok', 'first_k_dense_replace', 'routed_scaling_factor', 'norm_topk_prob',
  'rms_norm_eps', 'rope_theta', 'max_position_embeddings', 'bos_token_id', 'eos_token_id', 'pad_token_id',
] as const;

/** Decoder fields: valid at the top level, under language_config / text_config, or both. */
const LANGUAGE_FIELDS: Record<string, Rule> = {
  ...Object.fromEntries(DECODER_MAPPED.map((name) => [name, map(`decoder.${name}`)])),
  n_routed_experts: map('decoder.n_routed_experts', 'null (every layer dense) is not implemented; Folio needs MoE layers'),
  n_shared_experts: map('decoder.n_shared_experts', 'null (no shared experts) is not implemented'),
  num_nextn_predict_layers: map('mtp'),
  num_mtp_heads: map('mtp'),
  mtp_num_heads: map('mtp'),
  hidden_act: require(['silu'], "'silu' (SwiGLU experts and MLPs)"),
  scoring_func: require(['softmax'], "'softmax' router scores"),
  topk_method: require(['greedy'], "'greedy' top-k over all experts"),
  n_group: require([null, 1], '1 (ungrouped routing)'),
  topk_group: require([null, 1], '1 (ungrouped routing)'),
  moe_layer_freq: require([null, 1], '1 (every layer after first_k_dense_replace is MoE)'),
  rope_scaling: require([null], 'null (plain RoPE without scaling)'),
  sliding_window: require([null], 'null (full causal attention)'),
  sliding_window_size: require([null], 'null (full causal attention)'),
  use_sliding_window: require([null, false], 'false (full causal attention)'),
  attention_bias: require([null, false], 'false (q/k/v/o without bias)'),
  mlp_bias: require([null, false], 'false (MLPs without bias)'),
  use_mla: require([null, false], NO_MLA),
  kv_lora_rank: require([null], `null: ${NO_MLA}`),
  q_lora_rank: require([null], `null: ${NO_MLA}`),
  qk_nope_head_dim: require(NONE_OR_ZERO, `0: ${NO_MLA}`),
  qk_rope_head_dim: require(NONE_OR_ZERO, `0: ${NO_MLA}`),
  v_head_dim: require(NONE_OR_ZERO, `0: ${NO_MLA}`),
  tie_word_embeddings: require([null, false], 'false (a separate lm_head)'),
  lm_head: require([null, true], 'true (the model has an lm_head)'),
  rm_head: require([null, false], 'false (no reward-model head)'),
  mtp_moe: require([null, false], 'false (the FastMTP head has a dense MLP)'),
  mtp_recursive: require([null, true], 'true (one FastMTP head applied recursively)'),
  mtp_share_embedding_weights: require([null, true], 'true (the head uses the model\'s embedding)'),
  mtp_share_lm_head: require([null, true], 'true (the head uses the model\'s lm_head)'),
  mtp_share_norm: require([null, true], 'true (the head uses the model\'s final norm)'),
  image_token_index: require([null, 128815], '128815, the `<image>` id of the published tokenizers'),
  image_token_id: require([null, 128815], '128815, the `<image>` id of the published tokenizers'),
  mtp_num_speculative_steps: ignore('a runtime default for K; Folio measures K per device'),
  aux_loss_alpha: ignore('training loss weight'),
  seq_aux: ignore('training loss switch'),
  ep_size: ignore('expert parallelism across devices: same arithmetic'),
  pretraining_tp: ignore('tensor-parallel split of the MLPs: same arithmetic'),
  attention_dropout: ignore('dropout: inactive at inference'),
  initializer_range: ignore('initialisation of untrained weights'),
  use_cache: ignore('a generation switch'),
};

const METADATA_FIELDS: Record<string, Rule> = Object.fromEntries(
  ['architectures', 'auto_map', 'model_type', '_name_or_path', 'transformers_version', 'torch_dtype', 'dtype'].map((name) => [name, ignore('metadata')]),
);

const TOP_FIELDS: Record<string, Rule> = {
  ...LANGUAGE_FIELDS,
  ...METADATA_FIELDS,
  language_config: section('language'),
  text_config: section('language'),
  vision_config: section('vision'),
  projector_config: section('projector'),
  folio_vision: section('folio_vision'),
  candidate_resolutions: require([null, [[1024, 1024]]], '[[1024, 1024]] (a 1024-pixel global view with 640-pixel tiles)'),
  global_view_pos: require([null, 'head'], "'head' (tiles, then the global view, then the separator)"),
  tile_tag: require([null, '2D'], "'2D' (a newline after each row of visual tokens)"),
};

function channels(value: unknown): [number, number] {
  if (!(Array.isArray(value) && value.length === 2)) throw new Error('two channel counts [net_2, net_3]');
  return [typed(value[0], 'int') as number, typed(value[1], 'int') as number];
}

const SECTIONS: Record<string, Record<string, Rule>> = {
  top: TOP_FIELDS,
  language: { ...LANGUAGE_FIELDS, ...METADATA_FIELDS },
  vision: {
    ...METADATA_FIELDS,
    model_name: require([null, 'deeplip_b_l'], "'deeplip_b_l' (SAM ViT-B + CLIP-L DeepEncoder)"),
    image_size: map('sam.img_size'),
    // DeepSeek-VL2's SigLIP ratio (4304/1152); DeepEncoder's SAM and CLIP fix their own MLP widths
    mlp_ratio: ignore("not read by DeepSeek-OCR's DeepEncoder"),
    width: section('vision_width'),
  },
  vision_width: { sam_vit_b: section('sam_vit_b'), 'clip-l-14-224': section('clip_l') },
  sam_vit_b: {
    width: map('sam.embed_dim'),
    layers: map('sam.depth'),
    heads: map('sam.num_heads'),
    global_attn_indexes: map('sam.global_attn_indexes'),
    downsample_channels: map('sam.net_channels', undefined, channels),
    image_size: map('sam.img_size'),
    patch_size: map('sam.patch_size'),
  },
  clip_l: {
    width: map('clip.hidden_size'),
    layers: map('clip.num_layers'),
    heads: map('clip.num_attention_heads'),
    image_size: map('clip.image_size'),
    patch_size: map('clip.patch_size'),
  },
  projector: {
    ...METADATA_FIELDS,
    projector_type: require([null, 'linear'], "'linear' (one Linear(2048, 1280) with bias)"),
    input_dim: map('projector.input_dim'),
    n_embed: map('projector.n_embed'),
  },
  folio_vision: { sam: section('folio_sam'), clip: section('folio_clip') },
  folio_sam: Object.fromEntries(Object.keys(SAM_DEFAULTS).map((name) => [name, map(`sam.${name}`)])),
  folio_clip: Object.fromEntries(Object.keys(CLIP_DEFAULTS).map((name) => [name, map(`clip.${name}`)])),
};

const FLOAT_FIELDS = new Set(['decoder.routed_scaling_factor', 'decoder.rms_norm_eps', 'decoder.rope_theta', 'sam.mlp_ratio', 'clip.layernorm_epsilon', 'clip.pre_layernorm_epsilon']);

function targetKind(target: string): Kind {
  if (target === 'decoder.norm_topk_prob') return 'bool';
  if (target === 'sam.global_attn_indexes') return 'ints';
  return FLOAT_FIELDS.has(target) ? 'float' : 'int';
}

/** Equal as JSON values: 1 == 1.0, but true is not 1. */
function same(a: unknown, b: unknown): boolean {
  if (typeof a === 'boolean' || typeof b === 'boolean') return a === b;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => same(x, b[i]));
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return a === b;
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((k) => same((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
}

/** The JSON value as the field's kind; an Error names the expected kind. */
function typed(value: unknown, kind: Kind): unknown {
  if (kind === 'bool') {
    if (typeof value !== 'boolean') throw new Error('true or false');
    return value;
  }
  if (kind === 'int') {
    if (typeof value !== 'number' || !Number.isInteger(value)) throw new Error('an integer');
    return value;
  }
  if (kind === 'float') {
    if (typeof value !== 'number') throw new Error('a number');
    return value;
  }
  if (!Array.isArray(value) || value.some((v) => typeof v !== 'number' || !Number.isInteger(v))) throw new Error('a list of integers');
  return [...(value as number[])];
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Walks config.json against the tables, collecting mapped values, problems and unknown fields. */
class FieldReader {
  readonly values = new Map<string, { value: unknown; path: string }>();
  readonly problems: string[] = [];
  readonly unknown: string[] = [];

  /** `sizesOnly`: refuse nothing that leaves the tensor shapes defined (for checkpoint makers). */
  constructor(private readonly sizesOnly = false) {}

  read(raw: Record<string, unknown>, sectionName: string, prefix: string): void {
    const table = SECTIONS[sectionName]!;
    for (const [key, value] of Object.entries(raw)) {
      const path = `${prefix}${key}`;
      const rule = Object.hasOwn(table, key) ? table[key] : undefined;
      if (rule === undefined) {
        this.unknown.push(path);
      } else if (rule.rule === 'section') {
        if (value === null) continue;
        if (!isObject(value)) {
          this.problems.push(`${path} = ${pythonRepr(value)}: expected an object`);
          continue;
        }
        this.read(value, rule.name, `${path}.`);
      } else if (rule.rule === 'require' && !this.sizesOnly) {
        if (!rule.allowed.some((allowed) => same(value, allowed))) this.problems.push(`${path} = ${pythonRepr(value)} is not supported: Folio implements ${rule.supported}`);
      } else if (rule.rule === 'map') {
        this.map(rule, value, path);
      }
    }
  }

  private map(rule: MapRule, raw: unknown, path: string): void {
    if (raw === null) {
      if (rule.nullRefused && !this.sizesOnly) this.problems.push(`${path} = null is not supported: ${rule.nullRefused}`);
      return;
    }
    let value: unknown;
    try {
      value = rule.convert ? rule.convert(raw) : typed(raw, targetKind(rule.target));
    } catch (error) {
      this.problems.push(`${path} = ${pythonRepr(raw)}: expected ${(error as Error).message}`);
      return;
    }
    const earlier = this.values.get(rule.target);
    if (earlier !== undefined && !same(earlier.value, value)) {
      // the more nested place first, so the message reads the same whatever the key order
      const places = [{ path, value }, { path: earlier.path, value: earlier.value }].sort((a, b) => depth(b.path) - depth(a.path) || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
      this.problems.push(`${places[0]!.path} = ${pythonRepr(places[0]!.value)} contradicts ${places[1]!.path} = ${pythonRepr(places[1]!.value)}; the two must agree`);
      return;
    }
    if (earlier === undefined) this.values.set(rule.target, { value, path });
  }

  group(name: string): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    for (const [target, { value }] of this.values) if (target.startsWith(`${name}.`)) out[target.slice(name.length + 1)] = value;
    return out;
  }

  pathOf(target: string, fallback: string): string {
    return this.values.get(target)?.path ?? fallback;
  }
}

const depth = (path: string) => path.split('.').length - 1;

function build(reader: FieldReader): ModelConfig {
  const sam = reader.group('sam');
  if ('net_channels' in sam) {
    [sam.net_2_chans, sam.net_3_chans] = sam.net_channels as [number, number];
    delete sam.net_channels;
  }
  return {
    sam: { ...SAM_DEFAULTS, global_attn_indexes: [...SAM_DEFAULTS.global_attn_indexes], ...(sam as Partial<SamConfig>) },
    clip: { ...CLIP_DEFAULTS, ...(reader.group('clip') as Partial<ClipConfig>) },
    decoder: { ...DECODER_DEFAULTS, ...(reader.group('decoder') as Partial<DecoderConfig>) },
    num_mtp_heads: (reader.values.get('mtp')?.value as number | undefined) ?? 0,
  };
}

/** Values that are each honoured alone but cannot build a model together. */
function sizeProblems(config: ModelConfig, reader: FieldReader): string[] {
  const { decoder: d, sam, clip } = config;
  const at = (target: string, fallback: string) => reader.pathOf(target, fallback);
  const problems: string[] = [];
  for (const [target, heads, width] of [
    ['decoder.num_attention_heads', d.num_attention_heads, d.hidden_size],
    ['sam.num_heads', sam.num_heads, sam.embed_dim],
    ['clip.num_attention_heads', clip.num_attention_heads, clip.hidden_size],
  ] as const) {
    if (heads <= 0 || width % heads) problems.push(`${at(target, target)} = ${heads} does not divide the width ${width} into heads`);
  }
  if (d.num_key_value_heads <= 0 || d.num_attention_heads % d.num_key_value_heads) {
    problems.push(`${at('decoder.num_key_value_heads', 'num_key_value_heads')} = ${d.num_key_value_heads} does not divide num_attention_heads ${d.num_attention_heads}`);
  }
  if (!(d.num_experts_per_tok > 0 && d.num_experts_per_tok <= d.n_routed_experts)) {
    problems.push(`${at('decoder.num_experts_per_tok', 'num_experts_per_tok')} = ${d.num_experts_per_tok} must be between 1 and n_routed_experts (${d.n_routed_experts})`);
  }
  if (!(d.first_k_dense_replace >= 0 && d.first_k_dense_replace <= d.num_hidden_layers)) {
    problems.push(`${at('decoder.first_k_dense_replace', 'first_k_dense_replace')} = ${d.first_k_dense_replace} must be between 0 and num_hidden_layers (${d.num_hidden_layers})`);
  }
  const outside = sam.global_attn_indexes.filter((i) => !(i >= 0 && i < sam.depth));
  if (outside.length) {
    problems.push(`${at('sam.global_attn_indexes', 'global_attn_indexes')} = ${pythonRepr(sam.global_attn_indexes)}: ${pythonRepr(outside)} are not blocks of a SAM of depth ${sam.depth}`);
  }
  if (sam.img_size % sam.patch_size) problems.push(`${at('sam.img_size', 'image_size')} = ${sam.img_size} is not a multiple of the SAM patch size ${sam.patch_size}`);
  if (clip.image_size % clip.patch_size) problems.push(`${at('clip.image_size', 'image_size')} = ${clip.image_size} is not a multiple of the CLIP patch size ${clip.patch_size}`);
  const projector = reader.group('projector');
  if ('input_dim' in projector && projector.input_dim !== projectorInputDim(config)) {
    problems.push(`${at('projector.input_dim', 'input_dim')} = ${projector.input_dim as number} is not CLIP width ${clip.hidden_size} + SAM output ${sam.net_3_chans} = ${projectorInputDim(config)}`);
  }
  if ('n_embed' in projector && projector.n_embed !== d.hidden_size) {
    problems.push(`${at('projector.n_embed', 'n_embed')} = ${projector.n_embed as number} is not the decoder's hidden_size ${d.hidden_size}`);
  }
  if (config.num_mtp_heads !== 0 && config.num_mtp_heads !== 1) {
    problems.push(`${at('mtp', 'num_nextn_predict_layers')} = ${config.num_mtp_heads} is not supported: Folio exports one FastMTP head (or none)`);
  }
  return problems;
}

/** The sizes config.json gives. Throws a ConfigError listing every field it cannot honour; unknown fields are among them unless `allowUnknown`. */
export function readModelConfig(raw: unknown, options: { allowUnknown?: boolean; source?: string } = {}): ModelConfig {
  if (!isObject(raw)) throw new ConfigError([`the file holds ${pythonRepr(raw)}, not an object`], options.source);
  const reader = new FieldReader();
  reader.read(raw, 'top', '');
  const problems = [...reader.problems];
  if (reader.unknown.length && !options.allowUnknown) {
    problems.push(...reader.unknown.map((path) => `${path}: unknown field; Folio cannot tell whether it changes the model's arithmetic (export with --allow-unknown-config to skip it)`));
  }
  if (problems.length) throw new ConfigError(problems, options.source);
  const config = build(reader);
  const sizes = sizeProblems(config, reader);
  if (sizes.length) throw new ConfigError(sizes, options.source);
  return config;
}

/** Paths of the fields no table knows: what `allowUnknown` skips. */
export function unknownFields(raw: unknown): string[] {
  if (!isObject(raw)) return [];
  const reader = new FieldReader();
  reader.read(raw, 'top', '');
  return reader.unknown;
}
