/**
 * The one fuzzy matcher of the repository, used by `folio bench` and by the quality checks: the
 * similarities olmOCR-Bench scores with, as rapidfuzz defines them (`ratio`, the normalised Indel
 * similarity; `partialRatio`, the best `ratio` of the shorter string against any window of the
 * longer one), and edit distances from one Levenshtein table: between two strings, and from a
 * needle to the closest substring of a text (Sellers' algorithm, as fuzzysearch finds near
 * matches). Strings are compared by code point, as Python compares them.
 */

/** rapidfuzz `fuzz.ratio` / 100: 1 - indel distance / total length; two empty strings are equal. */
export function ratio(a: string, b: string): number {
  const x = codePoints(a);
  const y = codePoints(b);
  if (x.length + y.length === 0) return 1;
  if (x.length === 0 || y.length === 0) return 0;
  const lcs = longestCommonSubsequence(patternMask(x), x.length, y, 0, y.length);
  return (2 * lcs) / (x.length + y.length);
}

/**
 * rapidfuzz `fuzz.partial_ratio` / 100: the shorter string is slid along the longer one, windows
 * running off either end included, and the best `ratio` counts. Windows ending (or, past the end,
 * starting) on a character the shorter string lacks are skipped, as rapidfuzz skips them: a
 * neighbouring window always scores at least as well.
 */
export function partialRatio(a: string, b: string): number {
  let needle = codePoints(a);
  let haystack = codePoints(b);
  if (needle.length > haystack.length) [needle, haystack] = [haystack, needle];
  const m = needle.length;
  const n = haystack.length;
  if (m === 0) return n === 0 ? 1 : 0;
  const mask = patternMask(needle);
  const present = new Set(needle);
  let best = 0;
  const score = (start: number, end: number) => {
    const lcs = longestCommonSubsequence(mask, m, haystack, start, end);
    best = Math.max(best, (2 * lcs) / (m + end - start));
  };
  for (let i = 1; i < m && best < 1; i++) if (present.has(haystack[i - 1]!)) score(0, i);
  for (let i = 0; i <= n - m && best < 1; i++) if (present.has(haystack[i + m - 1]!)) score(i, i + m);
  for (let i = n - m + 1; i < n && best < 1; i++) if (present.has(haystack[i]!)) score(i, n);
  return best;
}

/**
 * The last row of the Levenshtein table of `pattern` against `text`: entry j is the fewest edits
 * turning the pattern into text[0, j) (`anywhere` false) or into some substring ending at j
 * (`anywhere` true: a match may start anywhere for free, Sellers' algorithm). `visit` sees each
 * column's last entry as the table fills, as the distance of a match ending there.
 */
function lastRow(pattern: readonly number[], text: readonly number[], anywhere: boolean, visit?: (end: number, distance: number) => void): Int32Array {
  const m = pattern.length;
  // columns run over the text, rows over the pattern
  let column = Int32Array.from({ length: m + 1 }, (_, i) => i);
  let next = new Int32Array(m + 1);
  const row = new Int32Array(text.length + 1);
  row[0] = m;
  for (let j = 1; j <= text.length; j++) {
    next[0] = anywhere ? 0 : j;
    const c = text[j - 1];
    for (let i = 1; i <= m; i++) next[i] = Math.min(column[i]! + 1, next[i - 1]! + 1, column[i - 1]! + (pattern[i - 1] === c ? 0 : 1));
    [column, next] = [next, column];
    row[j] = column[m]!;
    visit?.(j, column[m]!);
  }
  return row;
}

/** Edit distance between `a` and `b` (insertions, deletions, substitutions all cost 1). */
export function levenshtein(a: string, b: string): number {
  if (a === b) return 0;
  const [x, y] = [codePoints(a), codePoints(b)];
  return lastRow(x.length < y.length ? x : y, x.length < y.length ? y : x, false).at(-1)!;
}

/** The fewest edits that turn `needle` into some substring of `haystack`: what a fuzzy "text present" check needs. */
export function substringEditDistance(needle: string, haystack: string): number {
  const pattern = codePoints(needle);
  if (pattern.length === 0) return 0;
  return lastRow(pattern, codePoints(haystack), true).reduce((best, distance) => Math.min(best, distance), pattern.length);
}

/** Where matches of `needle` within `maxDistance` edits start in `text` (code-point offsets): the first and the last such start, or undefined. */
export function nearMatchStarts(needle: string, text: string, maxDistance: number): { first: number; last: number } | undefined {
  // Sellers' algorithm on both strings reversed: a match ending at j in the reversed text starts at n - j in the text.
  const p = codePoints(needle).reverse();
  const t = codePoints(text).reverse();
  let first: number | undefined;
  let last: number | undefined;
  lastRow(p, t, true, (end, distance) => {
    if (distance > maxDistance) return;
    first = t.length - end;
    last ??= t.length - end;
  });
  return first === undefined || last === undefined ? undefined : { first, last };
}

export function codePoints(text: string): number[] {
  return Array.from(text, (c) => c.codePointAt(0)!);
}

type PatternMask = Map<number, Uint32Array>;

/** For each code point of the pattern, the bit set of its positions, 32 positions a word. */
function patternMask(pattern: readonly number[]): PatternMask {
  const words = Math.ceil(pattern.length / 32);
  const mask: PatternMask = new Map();
  pattern.forEach((c, i) => {
    let bits = mask.get(c);
    if (!bits) mask.set(c, (bits = new Uint32Array(words)));
    bits[i >>> 5]! |= 1 << (i & 31);
  });
  return mask;
}

/** LCS length of the pattern and text[start, end), bit-parallel (Allison-Dix / Hyyrö): V' = (V + (V & M)) | (V & ~M). */
function longestCommonSubsequence(mask: PatternMask, length: number, text: readonly number[], start: number, end: number): number {
  const words = Math.ceil(length / 32);
  const v = new Uint32Array(words).fill(0xffffffff);
  for (let j = start; j < end; j++) {
    const m = mask.get(text[j]!);
    if (!m) continue;
    let carry = 0;
    for (let w = 0; w < words; w++) {
      const u = v[w]! & m[w]!;
      const sum = v[w]! + u + carry;
      carry = sum > 0xffffffff ? 1 : 0;
      v[w] = (sum >>> 0) | (v[w]! & ~m[w]!);
    }
  }
  let zeros = 0;
  for (let i = 0; i < length; i++) if ((v[i >>> 5]! & (1 << (i & 31))) === 0) zeros++;
  return zeros;
}
