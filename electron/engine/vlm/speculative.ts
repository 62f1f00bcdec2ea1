/**
 * FastMTP speculative decoding. Each cycle drafts K tokens with the MTP head (`draft`), checks them
 * in one decoder pass over `[current, d1..dK]` (`verify`), commits the longest agreeing prefix plus
 * the decoder's own token there, and rolls both caches back. Verification chooses every token with
 * the same rule as greedy decoding, so the committed tokens are greedy decoding's, whatever the
 * drafts were: drafts only decide how many tokens one pass yields.
 *
 * Position bookkeeping: the decoder cache holds positions 0..L-1 and `current` (position L) is
 * committed but not yet run. The MTP cache also holds 0..L-1, position p pairing the embedding of
 * token p+1 with the decoder's post-norm hidden state at p; the pass that filled position L-1 gave
 * the first draft d1.
 */

import { finished, type DecodeLimits, type DecodeResult, type DecoderModel, type DraftingModel, type Prefill } from './decoding.js';
import { CAPACITY_BLOCK, type CapacityKvCache } from './capacity-kv-cache.js';
import type { KvCache } from './kv-cache.js';
import { fixedDraftLength, type DraftLength } from './draft-length.js';
import { nextToken, type Logits, type NoRepeatRule } from './token-choice.js';

export interface Drafter {
  /** Proposes `k` tokens to follow `generated` (its last token is the current one). */
  draft(k: number, generated: readonly number[]): Promise<number[]>;
  /** Forgets this cycle's draft rows, then takes in the committed tokens paired with the verify pass's hidden rows. */
  commit(tokens: readonly number[], hidden: Float32Array): Promise<void>;
}

export class MtpDrafter implements Drafter {
  private nextLogits: Logits = new Float32Array(0);
  private nextHidden: Float32Array = new Float32Array(0);
  private cycleStart = 0;

  private constructor(
    private readonly runner: DraftingModel,
    private readonly rule: NoRepeatRule,
    readonly cache: CapacityKvCache,
  ) {}

  /** Fills the MTP cache from the prompt: positions 0..n-1 pair tokens 1..n (the first generated one last) with the prompt's hidden rows. */
  static async start(runner: DraftingModel, rule: NoRepeatRule, promptIds: readonly number[], promptHidden: Float32Array, firstToken: number): Promise<MtpDrafter> {
    const drafter = new MtpDrafter(runner, rule, runner.mtpCache(promptIds.length + CAPACITY_BLOCK));
    await drafter.fill([...promptIds.slice(1), firstToken], promptHidden);
    return drafter;
  }

  /** Rows that pair committed tokens with the decoder's hidden states (the rest are this cycle's drafts). */
  get settledLength(): number {
    return this.cycleStart;
  }

  async draft(k: number, generated: readonly number[]): Promise<number[]> {
    this.cycleStart = this.cache.length;
    const drafts = [nextToken(this.nextLogits, this.runner.vocab, 0, generated, this.rule)];
    let hidden: Float32Array = this.nextHidden;
    while (drafts.length < k) {
      const previous = drafts.at(-1) as number;
      const out = await this.runner.mtp(this.cache, await this.runner.embed([previous]), hidden);
      hidden = out.hidden;
      drafts.push(nextToken(out.logits, this.runner.vocab, 0, [...generated, ...drafts], this.rule));
    }
    return drafts;
  }

  async commit(tokens: readonly number[], hidden: Float32Array): Promise<void> {
    this.cache.truncate(this.cycleStart);
    await this.fill(tokens, hidden);
  }

  private async fill(tokens: readonly number[], hidden: Float32Array): Promise<void> {
    const out = await this.runner.mtp(this.cache, await this.runner.embed(tokens), hidden);
    this.nextLogits = out.logits;
    this.nextHidden = out.hidden.slice(out.hidden.length - this.runner.hidden);
    // a commit before the next draft has no draft rows to forget
    this.cycleStart = this.cache.length;
  }
}

export interface Verified {
  /** Accepted drafts, then the decoder's own token (fewer when decoding stops inside the pass). */
  committed: number[];
  /** The pass's post-norm hidden rows for `[current, d1..dK]`. */
  hidden: Float32Array;
  /** Drafts that agreed with the decoder. */
  accepted: number;
}

/** One decoder pass over `[current, ...drafts]`; picks each position's token exactly as greedy decoding would. */
export async function verify(runner: DecoderModel, cache: KvCache, generated: readonly number[], drafts: readonly number[], limits: DecodeLimits): Promise<Verified> {
  const current = generated.at(-1) as number;
  const out = await runner.decode(cache, await runner.embed([current, ...drafts]), drafts.length + 1);
  const committed: number[] = [];
  let accepted = 0;
  for (let row = 0; row <= drafts.length; row++) {
    const token = nextToken(out.logits, runner.vocab, row, [...generated, ...committed], limits.rule);
    committed.push(token);
    if (token !== drafts[row] || finished([...generated, ...committed], { ...limits, signal: undefined })) break;
    accepted++;
  }
  return { committed, hidden: out.hidden, accepted };
}

/** Rolls the decoder cache back to `current` and the accepted drafts; the last committed token becomes the new current. */
export function keepVerifiedRows(cache: KvCache, lengthBefore: number, committed: number): void {
  cache.truncate(lengthBefore + committed);
}

/**
 * Speculative decoding with `length` choosing K each step (a number: always that K). A step with
 * K = 0 is a plain decoder pass; its tokens and hidden rows wait, and reach the draft head in one
 * pass when drafting resumes, so a page that stops speculating pays nothing for the head.
 */
export async function decodeSpeculative(
  runner: DraftingModel,
  start: Prefill,
  drafter: Drafter | null,
  length: number | DraftLength,
  limits: DecodeLimits,
  promptIds: readonly number[],
): Promise<DecodeResult> {
  const started = performance.now();
  runner.runMs = 0;
  const policy = typeof length === 'number' ? fixedDraftLength(length) : length;
  const first = nextToken(start.out.logits, runner.vocab, 0, [], limits.rule);
  const tokens = [first];
  limits.onTokens?.([first]);
  const drafted = Array<number>(policy.maxK).fill(0);
  const acceptedAt = Array<number>(policy.maxK).fill(0);
  const stepsAtK = Array<number>(policy.maxK + 1).fill(0);
  let steps = 1;
  let stopped = finished(tokens, limits);
  let draftHead: Drafter | null = drafter;
  const waiting = new PendingRows(runner.hidden);
  while (!stopped) {
    const k = policy.next();
    let drafts: number[] = [];
    const stepStarted = performance.now();
    // bringing the head up to date (the prompt, then rows from plain steps) is no part of a step's cost
    let catchUpMs = 0;
    if (k > 0) {
      draftHead ??= await MtpDrafter.start(runner, limits.rule, promptIds, start.out.hidden, first);
      if (waiting.count) {
        await draftHead.commit(waiting.tokens, waiting.hidden());
        waiting.clear();
      }
      catchUpMs = performance.now() - stepStarted;
      drafts = await draftHead.draft(k, tokens);
    }
    const lengthBefore = start.decoderCache.length;
    const verified = await verify(runner, start.decoderCache, tokens, drafts, limits);
    steps++;
    stepsAtK[k] = (stepsAtK[k] ?? 0) + 1;
    for (let i = 0; i < Math.min(k, verified.committed.length); i++) drafted[i] = (drafted[i] ?? 0) + 1;
    for (let i = 0; i < verified.accepted; i++) acceptedAt[i] = (acceptedAt[i] ?? 0) + 1;
    tokens.push(...verified.committed);
    limits.onTokens?.(verified.committed);
    stopped = finished(tokens, limits);
    if (stopped) break;
    keepVerifiedRows(start.decoderCache, lengthBefore, verified.committed.length);
    const hidden = verified.hidden.subarray(0, verified.committed.length * runner.hidden);
    if (draftHead && k > 0) await draftHead.commit(verified.committed, hidden);
    else if (policy.maxK > 0) waiting.add(verified.committed, hidden);
    policy.observe({ k, accepted: verified.accepted, ms: performance.now() - stepStarted - catchUpMs });
  }
  return {
    tokens, steps, drafted, accepted: acceptedAt, stepsAtK, prefillMs: start.ms, decodeMs: performance.now() - started, runMs: runner.runMs,
    stopped: stopped ?? 'limit',
  };
}

/** Committed tokens and their hidden rows from plain steps, kept for the draft head. */
class PendingRows {
  readonly tokens: number[] = [];
  private rows: Float32Array[] = [];

  constructor(private readonly width: number) {}

  get count(): number {
    return this.tokens.length;
  }

  add(tokens: readonly number[], hidden: Float32Array): void {
    this.tokens.push(...tokens);
    // the pass's output buffer is not ours to keep
    this.rows.push(hidden.slice());
  }

  hidden(): Float32Array {
    const all = new Float32Array(this.tokens.length * this.width);
    let at = 0;
    for (const rows of this.rows) {
      all.set(rows, at);
      at += rows.length;
    }
    return all;
  }

  clear(): void {
    this.tokens.length = 0;
    this.rows = [];
  }
}
