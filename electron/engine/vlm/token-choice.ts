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
  /** Ids never chosen (the manifest's `banned_ids`: ids the tokenizer cannot decode). */
  alwaysBanned?: ReadonlySet<number>;
}

/** What chooseToken asks of a ban: a Set, or the union of two. */
export interface Ban {
  has(id: number): boolean;
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

/**
 * `[rows, vocab]` scores as the graph returned them: fp32, or the fp16 halves of an fp16 package,
 * which are never widened (a logits row is 129,280 entries; choosing from the halves is cheaper).
 */
export type Logits = Float32Array | Uint16Array;

/** Index of the largest logit in row `row`, skipping banned tokens; ties go to the lower id. */
export function chooseToken(logits: Logits, vocab: number, row: number, banned: Ban): number {
  const values = logits.subarray(row * vocab, (row + 1) * vocab);
  return values instanceof Uint16Array ? chooseHalf(values, banned) : chooseFloat(values, banned);
}

function chooseFloat(values: Float32Array, banned: Ban): number {
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

/**
 * The same choice on fp16 bit patterns: flipping the negatives makes integer order value order
 * (-0 counts as +0, NaN is skipped), so the result is the widened floats' argmax exactly.
 */
function chooseHalf(values: Uint16Array, banned: Ban): number {
  let best = -1;
  let bestKey = -1;
  for (let i = 0; i < values.length; i++) {
    const half = values[i] as number;
    // positives gain the top bit, negatives are inverted; branch-free but for -0
    const key = half === 0x8000 ? 0x8000 : half ^ (((half >> 15) * 0x7fff) | 0x8000);
    if (key > bestKey) {
      if ((half & 0x7fff) > 0x7c00 || banned.has(i)) continue;
      best = i;
      bestKey = key;
    }
  }
  return best;
}

/** The n-gram ban after `generated` joined with the rule's always-banned ids. */
export function fullBan(generated: readonly number[], rule: NoRepeatRule): Ban {
  const banned = bannedTokens(generated, rule);
  const always = rule.alwaysBanned;
  return always?.size ? { has: (id) => banned.has(id) || always.has(id) } : banned;
}

export function nextToken(logits: Logits, vocab: number, row: number, generated: readonly number[], rule: NoRepeatRule): number {
  return chooseToken(logits, vocab, row, fullBan(generated, rule));
}
