/**
 * A package's `manifest.json` and what it reads from the checkpoint besides the tensors: the
 * tokenizer's special ids and the ids it has no token for (banned from decoding), the prompt (the
 * checkpoint's chat template, or DeepSeek-OCR's plain prompt), the weights' licence from the model
 * card, the resolution modes and their candidate tile grids, and every file's sha256. The manifest is
 * written as tools/model's Python writes the test models' manifests, field for field (electron/core/model/manifest.ts reads it).
 */

import { createHash } from 'node:crypto';
import { closeSync, existsSync, openSync, readFileSync, readSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { ResolutionModeSpec } from '../../../shared/model-export.js';
import type { ModelConfig } from './checkpoint-config.js';
import type { BuiltGraph, TensorSpec } from './decoder-graphs.js';
import type { ExpertLayout, PrecisionName } from './precision.js';
import { PyFloat, pythonJson } from './python-json.js';
import type { VisionGraph } from './vision-graph.js';

export const FORMAT = 'folio-model-package';
/** 2: the MTP graph takes its cache at its capacity, keys transposed, with an attention bias. */
export const FORMAT_VERSION = 2;
export const PLAIN_PROMPT = '<image>\n<|grounding|>Convert the document to markdown.';
export const SPECIAL_TOKENS = ['<image>', '<|ref|>', '<|/ref|>', '<|det|>', '<|/det|>', '<|grounding|>', '<td>', '</td>', '<tr>', '</tr>', '<|User|>', '<|Assistant|>'] as const;

export interface DecodingRule {
  ngramSize: number;
  window: number;
  /** Tokens the rule never bans. */
  exempt?: readonly string[];
}

/** DeepSeek-OCR's vLLM setting and jina-ocr-v1's (its ports'). */
export const DECODING_RULES: Readonly<Record<'deepseek-ocr' | 'jina-ocr-v1', DecodingRule>> = {
  'deepseek-ocr': { ngramSize: 30, window: 90 },
  'jina-ocr-v1': { ngramSize: 35, window: 1024 },
};
const EXEMPT = ['<td>', '</td>'];

/** A resolution mode as the manifest records it. */
export type ResolutionMode = ResolutionModeSpec;

export const RESOLUTION_MODES: Readonly<Record<string, ResolutionMode>> = {
  tiny: { name: 'tiny', base_size: 512, image_size: 512, crop: false, min_crops: 2, max_crops: 6 },
  small: { name: 'small', base_size: 640, image_size: 640, crop: false, min_crops: 2, max_crops: 6 },
  base: { name: 'base', base_size: 1024, image_size: 1024, crop: false, min_crops: 2, max_crops: 6 },
  large: { name: 'large', base_size: 1280, image_size: 1280, crop: false, min_crops: 2, max_crops: 6 },
  gundam: { name: 'gundam', base_size: 1024, image_size: 640, crop: true, min_crops: 2, max_crops: 6 },
};

/**
 * Gundam's candidate tile grids (w, h) for at least 2 and at most `max` tiles, in the order the
 * reference tries them. It sorts a Python set by area, so grids of equal area keep the set's
 * iteration order; these are the lists that gives (Python 3.11), for the 2..9 tiles `--max-crops` allows.
 */
const CANDIDATE_GRIDS: Readonly<Record<number, readonly (readonly [number, number])[]>> = {
  2: [[1, 2], [2, 1]],
  3: [[1, 2], [2, 1], [3, 1], [1, 3]],
  4: [[1, 2], [2, 1], [3, 1], [1, 3], [4, 1], [1, 4], [2, 2]],
  5: [[1, 2], [2, 1], [3, 1], [1, 3], [4, 1], [1, 4], [2, 2], [1, 5], [5, 1]],
  6: [[1, 2], [2, 1], [3, 1], [1, 3], [4, 1], [1, 4], [2, 2], [1, 5], [5, 1], [6, 1], [2, 3], [1, 6], [3, 2]],
  7: [[1, 2], [2, 1], [3, 1], [1, 3], [4, 1], [1, 4], [2, 2], [1, 5], [5, 1], [6, 1], [2, 3], [1, 6], [3, 2], [7, 1], [1, 7]],
  8: [[1, 2], [2, 1], [3, 1], [1, 3], [2, 2], [4, 1], [1, 4], [5, 1], [1, 5], [1, 6], [6, 1], [3, 2], [2, 3], [7, 1], [1, 7], [4, 2], [2, 4], [1, 8], [8, 1]],
  9: [[1, 2], [2, 1], [3, 1], [1, 3], [2, 2], [4, 1], [1, 4], [5, 1], [1, 5], [1, 6], [6, 1], [3, 2], [2, 3], [7, 1], [1, 7], [4, 2], [2, 4], [1, 8], [8, 1], [1, 9], [3, 3], [9, 1]],
};

export function candidateGrids(mode: ResolutionMode): (readonly [number, number])[] {
  if (!mode.crop) return [];
  const grids = CANDIDATE_GRIDS[mode.max_crops];
  if (mode.min_crops !== 2 || !grids) throw new Error(`mode ${mode.name}: Gundam tiles must number from 2 to 2..9 (got ${mode.min_crops}..${mode.max_crops})`);
  return [...grids];
}

/** The view sizes the modes need a vision graph for. */
export function viewSizes(modes: readonly ResolutionMode[]): number[] {
  return [...new Set(modes.flatMap((m) => (m.crop ? [m.base_size, m.image_size] : [m.base_size])))].sort((a, b) => a - b);
}

interface Tokenizer {
  model?: { vocab?: Record<string, number> };
  added_tokens?: { id: number; content: string }[];
}

/** The special tokens' ids, from added_tokens or the vocabulary. */
export function specialTokenIds(tokenizer: Tokenizer): Record<string, number> {
  const added = new Map((tokenizer.added_tokens ?? []).map((t) => [t.content, t.id]));
  const vocab = tokenizer.model?.vocab ?? {};
  const ids: Record<string, number> = {};
  for (const token of SPECIAL_TOKENS) {
    const id = added.get(token) ?? (Object.hasOwn(vocab, token) ? vocab[token] : undefined);
    if (id !== undefined) ids[token] = id;
  }
  if (!('<image>' in ids)) throw new Error('tokenizer.json has no <image> token; this is not a DeepSeek-OCR tokenizer');
  return ids;
}

/** `[start, end)` ranges of the ids below `vocabSize` the tokenizer has no token for: the model can emit them, the runtime must never choose them. */
export function bannedTokenIds(tokenizer: Tokenizer, vocabSize: number): [number, number][] {
  const known = new Set<number>([...Object.values(tokenizer.model?.vocab ?? {}), ...(tokenizer.added_tokens ?? []).map((t) => t.id)]);
  const ranges: [number, number][] = [];
  for (let id = 0; id < vocabSize; id++) {
    if (known.has(id)) continue;
    const last = ranges.at(-1);
    if (last && last[1] === id) last[1] = id + 1;
    else ranges.push([id, id + 1]);
  }
  return ranges;
}

/** The `license:` field of the model card's front matter, as Hugging Face publishes it. */
export function readLicence(checkpoint: string): string | undefined {
  const card = path.join(checkpoint, 'README.md');
  if (!existsSync(card)) return undefined;
  return /^license:\s*(\S+)/m.exec(readFileSync(card, 'utf8'))?.[1];
}

export function promptTemplate(checkpoint: string): Record<string, string> {
  const template = path.join(checkpoint, 'chat_template.jinja');
  if (existsSync(template)) return { kind: 'chat_template', template: readFileSync(template, 'utf8') };
  return { kind: 'plain', template: PLAIN_PROMPT, bos: 'prepend' };
}

export function sha256(file: string): string {
  const hash = createHash('sha256');
  const fd = openSync(file, 'r');
  try {
    const chunk = Buffer.allocUnsafe(1 << 22);
    for (let read; (read = readSync(fd, chunk, 0, chunk.length, null)) > 0; ) hash.update(chunk.subarray(0, read));
  } finally {
    closeSync(fd);
  }
  return hash.digest('hex');
}

/** The sizes as the manifest's `architecture` records them, floats written as Python's floats. */
function architecture(config: ModelConfig): Record<string, unknown> {
  const { sam, clip, decoder } = config;
  return {
    folio_vision: {
      sam: { ...sam, mlp_ratio: new PyFloat(sam.mlp_ratio) },
      clip: { ...clip, layernorm_epsilon: new PyFloat(clip.layernorm_epsilon), pre_layernorm_epsilon: new PyFloat(clip.pre_layernorm_epsilon) },
    },
    language_config: {
      ...decoder,
      routed_scaling_factor: new PyFloat(decoder.routed_scaling_factor),
      rms_norm_eps: new PyFloat(decoder.rms_norm_eps),
      rope_theta: new PyFloat(decoder.rope_theta),
    },
    num_mtp_heads: config.num_mtp_heads,
  };
}

const specJson = (specs: readonly TensorSpec[]) => specs.map((s) => ({ name: s.name, dtype: s.dtype, shape: s.shape }));

export function graphEntry(file: string, graph: Omit<BuiltGraph, 'file'> | VisionGraph): Record<string, unknown> {
  const vision = 'viewSize' in graph ? { view_size: graph.viewSize, grid: graph.grid } : {};
  const experts = (layout: ExpertLayout) => ({ bits: layout.bits, block_size: layout.blockSize, scales: layout.signed ? 'signed' : 'symmetric' });
  return {
    file,
    ...vision,
    inputs: specJson(graph.inputs),
    outputs: specJson(graph.outputs),
    nodes: graph.nodes,
    ...(graph.routedExperts ? { routed_experts: experts(graph.routedExperts) } : {}),
    ...(graph.requires.length ? { requires: graph.requires } : {}),
  };
}

export interface ManifestParts {
  out: string;
  checkpoint: string;
  config: ModelConfig;
  name: string;
  licence: string;
  precision: PrecisionName;
  providers: readonly string[];
  modes: readonly ResolutionMode[];
  decoding: DecodingRule;
  specials: Record<string, number>;
  banned: [number, number][];
  /** Graph name -> manifest entry. */
  graphs: Record<string, Record<string, unknown>>;
  /** Every file the package holds besides manifest.json. */
  files: readonly string[];
  /** Called as each file is hashed. */
  onHashed?: (done: number, total: number) => void;
}

export function writeManifest(parts: ManifestParts): string {
  const { config, specials } = parts;
  const decoding: Record<string, unknown> = {
    no_repeat_ngram: {
      size: parts.decoding.ngramSize,
      window: parts.decoding.window,
      exempt: (parts.decoding.exempt ?? EXEMPT).filter((t) => t in specials).map((t) => specials[t]),
    },
    mtp_emb_zero_at_position_0: true,
  };
  if (parts.banned.length) decoding.banned_ids = parts.banned;
  const sizes = viewSizes(parts.modes);
  const files: Record<string, string> = {};
  const names = [...parts.files].sort();
  names.forEach((file, i) => {
    files[file] = sha256(path.join(parts.out, file));
    parts.onHashed?.(i + 1, names.length);
  });
  const manifest = {
    format: FORMAT,
    format_version: FORMAT_VERSION,
    name: parts.name,
    weights_licence: parts.licence,
    dtype: parts.precision === 'fp16' ? 'float16' : 'float32',
    precision: parts.precision,
    providers: parts.providers,
    architecture: architecture(config),
    tokens: { bos: config.decoder.bos_token_id, eos: config.decoder.eos_token_id, pad: config.decoder.pad_token_id, special: specials },
    prompt: promptTemplate(parts.checkpoint),
    decoding,
    vision: {
      mean: new PyFloat(0.5),
      std: new PyFloat(0.5),
      pad_colour: [127, 127, 127],
      resample: 'bicubic',
      tokens_per_view_side: Object.fromEntries(sizes.map((s) => [String(s), Math.floor(Math.floor(s / config.sam.patch_size) / 4)])),
      layout: ['tiles as one grid, rows end with image_newline', 'global grid, rows end with image_newline', 'view_seperator'],
      resolution_modes: parts.modes.map((m) => ({ ...m, candidate_grids: candidateGrids(m) })),
    },
    graphs: parts.graphs,
    files,
  };
  const file = path.join(parts.out, 'manifest.json');
  writeFileSync(file, `${pythonJson(manifest)}\n`);
  return file;
}
