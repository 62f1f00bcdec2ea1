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
import { CAPACITY_BLOCK } from './capacity-kv-cache.js';
import { fixedDraftLength, type DraftLength } from './draft-length.js';
import type { DecoderCache, MtpCache, PassLogits, Rows } from './model-runner.js';
import { bannedTokens, type NoRepeatRule } from './token-choice.js';

export interface Drafter {
  /** Proposes `k` tokens to follow `generated` (its last token is the current one). */
  draft(k: number, generated: readonly number[]): Promise<number[]>;
  /** Forgets this cycle's draft rows, then takes in the committed tokens paired with the verify pass's hidden rows. */
  commit(tokens: readonly number[], hidden: Rows): Promise<void>;
}

export class MtpDrafter implements Drafter {
  private nextLogits: PassLogits = new Float32Array(0);
  private nextHidden: Rows = new Float32Array(0);
  private cycleStart = 0;

  private constructor(
    private readonly runner: DraftingModel,
    private readonly rule: NoRepeatRule,
    readonly cache: MtpCache,
  ) {}

  /** Fills the MTP cache from the prompt: positions 0..n-1 pair tokens 1..n (the first generated one last) with the prompt's hidden rows. */
  static async start(runner: DraftingModel, rule: NoRepeatRule, promptIds: readonly number[], promptHidden: Rows, firstToken: number): Promise<MtpDrafter> {
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
    const drafts = [await this.choose(this.nextLogits, generated)];
    let hidden: Rows = this.nextHidden;
    while (drafts.length < k) {
      const previous = drafts.at(-1) as number;
      const out = await this.runner.mtp(this.cache, await this.runner.embedTokens([previous]), hidden);
      if (hidden !== this.nextHidden) this.runner.release(hidden);
      hidden = out.hidden;
      drafts.push(await this.choose(out.logits, [...generated, ...drafts]));
    }
    if (hidden !== this.nextHidden) this.runner.release(hidden);
    return drafts;
  }

  async commit(tokens: readonly number[], hidden: Rows): Promise<void> {
    this.cache.truncate(this.cycleStart);
    await this.fill(tokens, hidden);
  }

  /** Lets go of the head's cache and rows (on the device they are not the garbage collector's). */
  release(): void {
    this.runner.release(this.nextHidden, this.nextLogits);
    this.cache.release();
  }

  private async choose(logits: PassLogits, generated: readonly number[]): Promise<number> {
    const [token] = await this.runner.chooseTokens(logits, [bannedTokens(generated, this.rule)], this.rule.alwaysBanned);
    if (token === undefined) throw new Error('no draft token chosen');
    return token;
  }

  private async fill(tokens: readonly number[], hidden: Rows): Promise<void> {
    const out = await this.runner.mtp(this.cache, await this.runner.embedTokens(tokens), hidden);
    this.runner.release(this.nextHidden);
    this.nextLogits = out.logits;
    this.nextHidden = await this.runner.sliceRows(out.hidden, tokens.length - 1, tokens.length);
    this.runner.release(out.hidden);
    // a commit before the next draft has no draft rows to forget
    this.cycleStart = this.cache.length;
  }
}

export interface Verified {
  /** Accepted drafts, then the decoder's own token (fewer when decoding stops inside the pass). */
  committed: number[];
  /** The pass's post-norm hidden rows for `[current, d1..dK]`. */
  hidden: Rows;
  /** Drafts that agreed with the decoder. */
  accepted: number;
}

/**
 * One decoder pass over `[current, ...drafts]`; picks each position's token exactly as greedy
 * decoding would. Row r is read only when drafts 1..r were accepted, so its ban is the one after
 * them, and all rows' bans can be set before the pass (on a device, one choice run for the pass).
 */
export async function verify(runner: DecoderModel, cache: DecoderCache, generated: readonly number[], drafts: readonly number[], limits: DecodeLimits): Promise<Verified> {
  const current = generated.at(-1) as number;
  const out = await runner.decode(cache, await runner.embedTokens([current, ...drafts]), drafts.length + 1);
  const bans = Array.from({ length: drafts.length + 1 }, (_, row) => bannedTokens([...generated, ...drafts.slice(0, row)], limits.rule));
  const chosen = await runner.chooseTokens(out.logits, bans, limits.rule.alwaysBanned);
  const committed: number[] = [];
  let accepted = 0;
  for (let row = 0; row <= drafts.length; row++) {
    const token = chosen[row] as number;
    committed.push(token);
    if (token !== drafts[row] || finished([...generated, ...committed], { ...limits, signal: undefined })) break;
    accepted++;
  }
  return { committed, hidden: out.hidden, accepted };
}

/** Rolls the decoder cache back to `current` and the accepted drafts; the last committed token becomes the new current. */
export function keepVerifiedRows(cache: Pick<DecoderCache, 'truncate'>, lengthBefore: number, committed: number): void {
  cache.truncate(lengthBefore + committed);
}

/**
 * The decoding loop: speculative decoding with `length` choosing K each step (a number: always
 * that K), and greedy decoding as K = 0 throughout (greedy.ts is kept as the tests' oracle). A step
 * with K = 0 is a plain decoder pass; its tokens and hidden rows wait, and reach the draft head in one
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
  const [first] = await runner.chooseTokens(start.out.logits, [bannedTokens([], limits.rule)], limits.rule.alwaysBanned);
  if (first === undefined) throw new Error('no token chosen');
  const tokens = [first];
  limits.onTokens?.([first]);
  const drafted = Array<number>(policy.maxK).fill(0);
  const acceptedAt = Array<number>(policy.maxK).fill(0);
  const stepsAtK = Array<number>(policy.maxK + 1).fill(0);
  let steps = 1;
  let stopped = finished(tokens, limits);
  let draftHead: Drafter | null = drafter;
  let ownHead: MtpDrafter | null = null;
  const waiting = new PendingRows(runner);
  while (!stopped) {
    const k = policy.next();
    let drafts: number[] = [];
    const stepStarted = performance.now();
    // bringing the head up to date (the prompt, then rows from plain steps) is no part of a step's cost
    let catchUpMs = 0;
    if (k > 0) {
      if (!draftHead) draftHead = ownHead = await MtpDrafter.start(runner, limits.rule, promptIds, start.out.hidden, first);
      if (waiting.count) {
        const rows = waiting.take();
        await draftHead.commit(waiting.tokens, rows);
        runner.release(rows);
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
    if (stopped) {
      runner.release(verified.hidden);
      break;
    }
    keepVerifiedRows(start.decoderCache, lengthBefore, verified.committed.length);
    // greedy (K = 0 throughout) never drafts, so its hidden rows are not kept for a head
    if (policy.maxK > 0) {
      const hidden = await runner.sliceRows(verified.hidden, 0, verified.committed.length);
      if (draftHead && k > 0) {
        await draftHead.commit(verified.committed, hidden);
        runner.release(hidden);
      } else await waiting.add(verified.committed, hidden);
    }
    runner.release(verified.hidden);
    policy.observe({ k, accepted: verified.accepted, ms: performance.now() - stepStarted - catchUpMs, catchUpMs });
  }
  ownHead?.release();
  runner.release(start.out.hidden, waiting.take());
  return {
    tokens, steps, drafted, accepted: acceptedAt, stepsAtK, prefillMs: start.ms, decodeMs: performance.now() - started, runMs: runner.runMs,
    stopped: stopped ?? 'limit',
  };
}

/** Committed tokens and their hidden rows from plain steps, kept for the draft head. */
class PendingRows {
  readonly tokens: number[] = [];
  private rows: Rows = new Float32Array(0);

  constructor(private readonly runner: Pick<DraftingModel, 'joinRows' | 'release'>) {}

  get count(): number {
    return this.tokens.length;
  }

  /** Takes in `tokens` and their rows, which become this object's. */
  async add(tokens: readonly number[], rows: Rows): Promise<void> {
    this.tokens.push(...tokens);
    const joined = await this.runner.joinRows(this.rows, rows);
    this.runner.release(this.rows, rows);
    this.rows = joined;
  }

  /** The rows held, handed over to the caller. */
  take(): Rows {
    const rows = this.rows;
    this.rows = new Float32Array(0);
    return rows;
  }

  clear(): void {
    this.tokens.length = 0;
    this.runner.release(this.take());
  }
}
