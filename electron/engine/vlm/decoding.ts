/** What greedy and speculative decoding share: the limits, the result, and the prompt's prefill. */

import type { DecoderCache, ModelRunner, PassOutput } from './model-runner.js';
import { isLooping, type RepetitionRule } from './repetition.js';
import type { NoRepeatRule } from './token-choice.js';

export interface DecodeLimits {
  eos: number;
  maxNewTokens: number;
  rule: NoRepeatRule;
  /** Stops a page whose tokens loop; absent: no guard. */
  repetition?: RepetitionRule;
  /** Aborting stops decoding before the next step; the tokens committed so far are kept. */
  signal?: AbortSignal;
  /** Called with each step's committed tokens, in order. */
  onTokens?: (tokens: readonly number[]) => void;
}

export type StopReason = 'eos' | 'limit' | 'cancelled' | 'repetition';

export interface DecodeResult {
  /** Generated tokens, EOS included when it was reached. */
  tokens: number[];
  /** Decoder passes that yielded tokens, the prefill included. */
  steps: number;
  /** Per draft position: drafts proposed there, and how many were accepted. */
  drafted: number[];
  accepted: number[];
  /** Decoder passes after the prefill, by the number of drafts they checked (index 0: plain passes). */
  stepsAtK: number[];
  prefillMs: number;
  decodeMs: number;
  /** Of `decodeMs`, the time inside `session.run`. */
  runMs: number;
  stopped: StopReason;
}

export interface Prefill {
  decoderCache: DecoderCache;
  out: PassOutput;
  ms: number;
}

/** What decoding needs of the model: a ModelRunner, or a scripted stand-in in tests. */
export type DecoderModel = Pick<ModelRunner, 'vocab' | 'hidden' | 'runMs' | 'embedTokens' | 'decode' | 'decoderCache' | 'chooseTokens' | 'release'>;
/** Speculative decoding also drafts with the MTP head, and slices and joins hidden rows for it. */
export type DraftingModel = DecoderModel & Pick<ModelRunner, 'mtp' | 'mtpCache' | 'sliceRows' | 'joinRows'>;

/** Runs the whole prompt (visual features already in place) through the decoder. */
export async function prefill(runner: Pick<DecoderModel, 'decode' | 'decoderCache'>, promptEmbeds: Float32Array, capacity: number): Promise<Prefill> {
  const started = performance.now();
  const decoderCache = runner.decoderCache(capacity);
  const out = await runner.decode(decoderCache, promptEmbeds, 1);
  return { decoderCache, out, ms: performance.now() - started };
}

/** True when decoding must stop after `tokens`. */
export function finished(tokens: readonly number[], limits: DecodeLimits): StopReason | null {
  if (tokens.at(-1) === limits.eos) return 'eos';
  if (tokens.length >= limits.maxNewTokens) return 'limit';
  if (limits.repetition && isLooping(tokens, limits.repetition)) return 'repetition';
  if (limits.signal?.aborted) return 'cancelled';
  return null;
}
