/**
 * Picks the next token greedily under the package's no-repeat n-gram rule: a token that would
 * complete an n-gram already present among the last `window` generated tokens is banned, unless it
 * is exempt (`<td>`, `</td>`: table rows legitimately repeat). Greedy decoding and speculative
 * verification both call this, which is what keeps them identical.
 */

export interface NoRepeatRule {
  size: number;
  window: number;
  exempt: readonly number[];
}

export function bannedTokens(generated: readonly number[], rule: NoRepeatRule): Set<number> {
  const banned = new Set<number>();
  const n = generated.length;
  if (rule.size < 1 || n < rule.size - 1) return banned;
  const prefixStart = n - rule.size + 1;
  for (let i = Math.max(0, n - rule.window); i + rule.size - 1 < n; i++) {
    let same = true;
    for (let k = 0; k < rule.size - 1 && same; k++) same = generated[i + k] === generated[prefixStart + k];
    if (same) banned.add(generated[i + rule.size - 1] as number);
  }
  for (const token of rule.exempt) banned.delete(token);
  return banned;
}

/** Index of the largest logit in row `row` of `[rows, vocab]` logits, skipping banned tokens; ties go to the lower id. */
export function chooseToken(logits: Float32Array, vocab: number, row: number, banned: ReadonlySet<number>): number {
  const values = logits.subarray(row * vocab, (row + 1) * vocab);
  let best = -1;
  let bestValue = Number.NEGATIVE_INFINITY;
  // the ban is looked up only for a new best, a few dozen times per row
  for (let i = 0; i < values.length; i++) {
    const value = values[i] as number;
    if ((best < 0 || value > bestValue) && !banned.has(i)) {
      best = i;
      bestValue = value;
    }
  }
  return best;
}

export function nextToken(logits: Float32Array, vocab: number, row: number, generated: readonly number[], rule: NoRepeatRule): number {
  return chooseToken(logits, vocab, row, bannedTokens(generated, rule));
}
