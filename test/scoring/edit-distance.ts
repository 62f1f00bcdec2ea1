/**
 * Levenshtein distances on strings Folio produces. Inputs are capped in length so that a runaway
 * output cannot make scoring quadratic in the size of a book.
 */

/** Longest text compared character by character; beyond this both sides are truncated. */
export const EDIT_DISTANCE_CAP = 20_000;

/** Edit distance between `a` and `b` (insertions, deletions, substitutions all cost 1). */
export function levenshtein(a: string, b: string): number {
  if (a === b) return 0;
  if (a.length < b.length) [a, b] = [b, a];
  if (b.length === 0) return a.length;
  let previous = new Int32Array(b.length + 1);
  let current = new Int32Array(b.length + 1);
  for (let j = 0; j <= b.length; j++) previous[j] = j;
  for (let i = 1; i <= a.length; i++) {
    current[0] = i;
    const ca = a.charCodeAt(i - 1);
    for (let j = 1; j <= b.length; j++) {
      const substitution = previous[j - 1]! + (ca === b.charCodeAt(j - 1) ? 0 : 1);
      current[j] = Math.min(substitution, previous[j]! + 1, current[j - 1]! + 1);
    }
    [previous, current] = [current, previous];
  }
  return previous[b.length]!;
}

/** Edit distance divided by the longer length: 0 for identical, 1 for nothing in common. */
export function normalisedEditDistance(a: string, b: string, cap = EDIT_DISTANCE_CAP): number {
  const x = a.slice(0, cap);
  const y = b.slice(0, cap);
  const longer = Math.max(x.length, y.length);
  return longer === 0 ? 0 : levenshtein(x, y) / longer;
}

/**
 * The fewest edits that turn `needle` into some substring of `haystack` (Sellers' algorithm):
 * what a fuzzy "text present" check needs.
 */
export function substringEditDistance(needle: string, haystack: string): number {
  if (needle.length === 0) return 0;
  const text = haystack.slice(0, EDIT_DISTANCE_CAP);
  // Rows run over the needle, columns over the haystack; a free start anywhere in the haystack.
  let previous = new Int32Array(text.length + 1);
  let current = new Int32Array(text.length + 1);
  for (let i = 1; i <= needle.length; i++) {
    current[0] = i;
    const cn = needle.charCodeAt(i - 1);
    for (let j = 1; j <= text.length; j++) {
      const substitution = previous[j - 1]! + (cn === text.charCodeAt(j - 1) ? 0 : 1);
      current[j] = Math.min(substitution, previous[j]! + 1, current[j - 1]! + 1);
    }
    [previous, current] = [current, previous];
  }
  let best = needle.length;
  for (let j = 0; j <= text.length; j++) best = Math.min(best, previous[j]!);
  return best;
}
