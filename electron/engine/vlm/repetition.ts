/**
 * The repetition guard: a page whose tokens have fallen into a loop (the same line, or the same short
 * token cycle, over and over) is stopped. Two checks, on the tail ending in the newest token:
 *
 * - an exact cycle repeated many times, which the no-repeat n-gram rule misses when the cycle is
 *   longer than its window or the rule is loose;
 * - near-repetition: under a strict rule (jina bans any 35-gram seen in the last 1,024 tokens) a
 *   looping model cannot repeat exactly, so it repeats with a token changed here and there; then the
 *   tail holds few distinct short runs of tokens, where real text holds almost only new ones.
 *   Runs made only of `ignored` tokens (table structure: `<tr><td></td>`) do not count, so an empty
 *   table is not a loop.
 */

export interface RepetitionRule {
  /** Longest exact cycle looked for, in tokens (a long table row or line). */
  maxPeriod: number;
  /** An exact cycle must repeat this many times in a row... */
  minRepeats: number;
  /** ...and the repeats must span at least this many tokens (one token repeated 10 times is a rule line). */
  minSpan: number;
  /** Tokens the near-repetition check looks back over. */
  window: number;
  /** Length of the runs of tokens it compares. */
  gram: number;
  /** The tail loops when at most this share of its runs are distinct. */
  maxDistinctShare: number;
  /** Token ids whose runs are skipped (special tokens such as `<td>`). */
  ignored: readonly number[];
}

/**
 * Loose enough that a blank form's ten identical empty rows or a long dot leader pass: stopping cuts
 * the rest of the page, so a false alarm costs more than a late one. Running text has nearly all of
 * its 8-token runs distinct; a loop with a token changed every 35 has well under a third.
 */
export const DEFAULT_REPETITION_RULE: RepetitionRule = { maxPeriod: 256, minRepeats: 12, minSpan: 192, window: 400, gram: 8, maxDistinctShare: 0.3, ignored: [] };

const NEAR_CHECK_STRIDE = 8;

export interface Loop {
  /** Tokens in one cycle. */
  period: number;
  /** Index of the first token of the repeating tail. */
  start: number;
}

export function isLooping(tokens: readonly number[], rule: RepetitionRule): boolean {
  return trailingLoop(tokens, rule) !== null || nearlyRepeating(tokens, rule);
}

/** The exact loop that `tokens` end in, if any: the shortest cycle repeated enough times back from the end. */
export function trailingLoop(tokens: readonly number[], rule: Pick<RepetitionRule, 'maxPeriod' | 'minRepeats' | 'minSpan'>): Loop | null {
  const n = tokens.length;
  for (let period = 1; period <= rule.maxPeriod; period++) {
    const span = Math.max(period * rule.minRepeats, rule.minSpan);
    if (span > n) break;
    // the tail of length `span` is periodic when every token equals the one a period before it
    let periodic = true;
    for (let i = n - 1; i >= n - span + period; i--) {
      if (tokens[i] !== tokens[i - period]) {
        periodic = false;
        break;
      }
    }
    if (periodic) {
      let start = n - span;
      while (start > 0 && tokens[start - 1] === tokens[start - 1 + period]) start--;
      return { period, start };
    }
  }
  return null;
}

/** True when the last `window` tokens hold few distinct `gram`-token runs (ignoring runs of ignored tokens only). */
export function nearlyRepeating(tokens: readonly number[], rule: Pick<RepetitionRule, 'window' | 'gram' | 'maxDistinctShare' | 'ignored'>): boolean {
  const n = tokens.length;
  // every eighth token is soon enough, and keeps the check off the per-token cost; both decoders see every length
  if (n < rule.window || n % NEAR_CHECK_STRIDE !== 0) return false;
  const ignored = new Set(rule.ignored);
  const seen = new Set<number>();
  let counted = 0;
  for (let start = n - rule.window; start + rule.gram <= n; start++) {
    let structureOnly = true;
    let low = 0x811c9dc5;
    let high = 0x01000193;
    for (let i = start; i < start + rule.gram; i++) {
      const token = tokens[i] as number;
      if (structureOnly && !ignored.has(token)) structureOnly = false;
      low = Math.imul(low ^ token, 0x01000193);
      high = Math.imul(high ^ token, 0x5bd1e995) ^ (high >>> 13);
    }
    if (structureOnly) continue;
    counted++;
    // two 32-bit hashes as one 53-bit key: a collision among 400 runs is vanishingly unlikely
    seen.add((low >>> 0) * 0x200000 + ((high >>> 0) & 0x1fffff));
  }
  // a tail that is mostly table structure says nothing either way
  return counted >= rule.window / 2 && seen.size <= counted * rule.maxDistinctShare;
}
