/**
 * The repetition guard: a page whose tokens have fallen into a loop (the same line, or the same short
 * token cycle, over and over) is stopped. The no-repeat n-gram rule cannot see a cycle longer than
 * its window, and a model can dodge it with near-copies, so loops still happen on real pages. The
 * check looks only at the tail ending in the newest token, so decoding calls it after every token at
 * a cost of about `maxPeriod` comparisons when there is no loop.
 */

export interface RepetitionRule {
  /** Longest cycle looked for, in tokens (a long table row or line). */
  maxPeriod: number;
  /** A cycle must repeat this many times in a row... */
  minRepeats: number;
  /** ...and the repeats must span at least this many tokens (one token repeated 10 times is a rule line). */
  minSpan: number;
}

/**
 * Loose enough that a blank form's ten identical empty rows or a long dot leader pass: stopping
 * cuts the rest of the page, so a false alarm costs more than a late one.
 */
export const DEFAULT_REPETITION_RULE: RepetitionRule = { maxPeriod: 256, minRepeats: 12, minSpan: 192 };

export interface Loop {
  /** Tokens in one cycle. */
  period: number;
  /** Index of the first token of the repeating tail. */
  start: number;
}

/** The loop that `tokens` end in, if any: the shortest cycle repeated enough times back from the end. */
export function trailingLoop(tokens: readonly number[], rule: RepetitionRule): Loop | null {
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
