/**
 * The schema of a Folio model package's `manifest.json` (written by the exporter, electron/engine/model-export/; the test models' by tools/model). Only what the
 * runtime reads is checked; unknown keys are kept so a newer exporter does not break an older app.
 */

import { z } from 'zod';

export const MANIFEST_FORMAT = 'folio-model-package';
/** 2: the MTP graph takes its cache at its capacity, keys transposed, with an attention bias (capacity-kv-cache.ts). */
export const MANIFEST_FORMAT_VERSION = 2;

/**
 * Bounds on every size the runtime allocates by, far above any real model's (DeepSeek-OCR: vocabulary
 * 129,280, 12 layers, views of 1,280 pixels): a manifest that says 1e15 is refused naming the field,
 * instead of a typed array of that length failing somewhere later.
 */
const count = (max: number) => z.number().int().positive().max(max);
const MAX_VOCABULARY = 4_194_304;
const MAX_WIDTH = 65_536;
const MAX_LAYERS = 1_024;
const MAX_HEADS = 1_024;
const MAX_PIXELS = 8_192;
const MAX_CROPS = 256;

const dimension = z.union([z.number().int().nonnegative().max(2 ** 31 - 1), z.string().max(256)]);

const tensorSpec = z.object({
  name: z.string(),
  dtype: z.enum(['float32', 'float16', 'int64']),
  shape: z.array(dimension),
});

const graphSpec = z.object({
  file: z.string(),
  inputs: z.array(tensorSpec),
  outputs: z.array(tensorSpec),
  view_size: count(MAX_PIXELS).optional(),
  grid: count(MAX_CROPS).optional(),
  requires: z.array(z.string()).optional(),
  /** How an int4 decoder's routed experts are stored (the exporter's ExpertLayout, electron/engine/model-export/precision.ts). */
  routed_experts: z.object({
    bits: z.union([z.literal(4), z.literal(8)]),
    block_size: z.number().int().nonnegative(),
    scales: z.enum(['signed', 'symmetric']),
  }).optional(),
});

const resolutionMode = z.object({
  name: z.string(),
  base_size: count(MAX_PIXELS),
  image_size: count(MAX_PIXELS),
  crop: z.boolean(),
  min_crops: count(MAX_CROPS),
  max_crops: count(MAX_CROPS),
  candidate_grids: z.array(z.tuple([count(MAX_CROPS), count(MAX_CROPS)])).max(MAX_CROPS * MAX_CROPS),
});

export const manifestSchema = z.looseObject({
  format: z.literal(MANIFEST_FORMAT),
  format_version: z.number().int(),
  name: z.string(),
  dtype: z.enum(['float32', 'float16']),
  /** The weights' precision; packages from before it was written say only `dtype` (see packagePrecision). */
  precision: z.enum(['fp32', 'fp16', 'int4']).optional(),
  architecture: z.looseObject({
    language_config: z.looseObject({
      vocab_size: count(MAX_VOCABULARY),
      hidden_size: count(MAX_WIDTH),
      num_hidden_layers: count(MAX_LAYERS),
      num_attention_heads: count(MAX_HEADS),
      num_key_value_heads: count(MAX_HEADS),
    }),
    num_mtp_heads: z.number().int().nonnegative().max(16).optional(),
  }),
  tokens: z.object({
    bos: z.number().int(),
    eos: z.number().int(),
    pad: z.number().int(),
    special: z.record(z.string(), z.number().int()).refine((special) => '<image>' in special, 'names no <image> token'),
  }),
  prompt: z.discriminatedUnion('kind', [
    z.object({ kind: z.literal('plain'), template: z.string(), bos: z.enum(['prepend', 'none']) }),
    z.object({ kind: z.literal('chat_template'), template: z.string() }),
  ]),
  decoding: z.looseObject({
    no_repeat_ngram: z.object({
      size: count(1_024),
      window: count(1_048_576),
      exempt: z.array(z.number().int()),
    }),
    mtp_emb_zero_at_position_0: z.boolean().optional(),
    /** `[start, end)` id ranges the model can emit but the tokenizer cannot decode: never chosen. */
    banned_ids: z.array(z.tuple([z.number().int().nonnegative(), z.number().int().nonnegative()])).optional(),
  }),
  vision: z.looseObject({
    mean: z.number(),
    std: z.number().positive(),
    pad_colour: z.tuple([z.number().int(), z.number().int(), z.number().int()]),
    resample: z.literal('bicubic'),
    tokens_per_view_side: z.record(z.string(), count(MAX_PIXELS)),
    resolution_modes: z.array(resolutionMode).min(1),
  }),
  graphs: z.record(z.string(), graphSpec),
  files: z.record(z.string(), z.string().regex(/^[0-9a-f]{64}$/)),
});

export type Manifest = z.infer<typeof manifestSchema>;
export type GraphSpec = z.infer<typeof graphSpec>;
export type ResolutionMode = z.infer<typeof resolutionMode>;
export type TensorSpec = z.infer<typeof tensorSpec>;

export type Precision = 'fp32' | 'fp16' | 'int4';

export function packagePrecision(manifest: Manifest): Precision {
  return manifest.precision ?? (manifest.dtype === 'float16' ? 'fp16' : 'fp32');
}

/** The ids `decoding.banned_ids` lists, clipped to the vocabulary. */
export function bannedIds(manifest: Manifest): Set<number> {
  const vocab = manifest.architecture.language_config.vocab_size;
  const ids = new Set<number>();
  for (const [start, end] of manifest.decoding.banned_ids ?? []) {
    for (let id = start; id < Math.min(end, vocab); id++) ids.add(id);
  }
  return ids;
}
