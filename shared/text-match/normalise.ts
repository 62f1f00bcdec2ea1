/**
 * The one text normaliser of the repository: what is set aside before two texts are compared. One
 * pipeline (markup, whitespace, Unicode form, typographic replacements, punctuation, case) run
 * with one of two rule sets: `OLMOCR_TEXT`, olmOCR-Bench's `normalize_text` to the letter (what
 * `folio bench` must agree with), and `READING_TEXT`, the repository's quality checks (typography
 * and ligatures a PDF adds do not count, nor case unless asked).
 */

export interface TextRules {
  /** Read the text as Markdown: `<br>` is a space, bold and italic markers (Markdown or `<b>`/`<i>`) go. */
  markup: boolean;
  /** NFC composes letters; NFKC also unfolds ligatures and full-width forms. */
  form: 'NFC' | 'NFKC';
  /** Characters replaced after the Unicode form, in order. */
  replacements: ReadonlyArray<readonly [string, string]>;
  /** Punctuation and symbols become spaces. */
  ignorePunctuation: boolean;
  caseSensitive: boolean;
  /** Whitespace collapsed once more and trimmed at the end. */
  trim: boolean;
}

/** Python's `\s` on str (str.isspace): unlike JavaScript's it counts U+001C..U+001F and U+0085, and not U+FEFF. */
export const PYTHON_WHITESPACE = /[\t-\r\x1c-\x20\x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+/g;

/**
 * olmOCR-Bench's `normalize_text` (olmocr/bench/tests.py): `<br>` as a space, emphasis stripped
 * before whitespace is collapsed and never across a line break (Python's `.` stops only at `\n`),
 * whitespace runs as one space, NFC, then its quotes, dashes and micro sign; case kept.
 */
export const OLMOCR_TEXT: TextRules = {
  markup: true,
  form: 'NFC',
  replacements: [
    ['\u2018', "'"],
    ['\u2019', "'"],
    ['\u201a', "'"],
    ['\u201c', '"'],
    ['\u201d', '"'],
    ['\u201e', '"'],
    ['\uff3f', '_'],
    ['\u2013', '-'],
    ['\u2014', '-'],
    ['\u2011', '-'],
    ['\u2012', '-'],
    ['\u2212', '-'],
    ['\u00b5', '\u03bc'],
  ],
  ignorePunctuation: false,
  caseSensitive: true,
  trim: false,
};

/**
 * The repository's quality checks: NFKC (ligatures, full-width forms), ASCII quotes, primes and
 * dashes, no zero-width characters, case ignored, trimmed. Soft hyphens are kept: an engine that
 * leaves them inside words breaks search, and checks should see it.
 */
export const READING_TEXT: TextRules = {
  markup: false,
  form: 'NFKC',
  replacements: [
    ...[...'\u2018\u2019\u201a\u201b\u2032'].map((c) => [c, "'"] as const),
    ...[...'\u201c\u201d\u201e\u201f\u2033'].map((c) => [c, '"'] as const),
    ...[...'\u2010\u2011\u2012\u2013\u2014\u2015\u2212'].map((c) => [c, '-'] as const),
    ['\u2026', '...'],
    ...[...'\u200b\u200c\u200d\ufeff'].map((c) => [c, ''] as const),
  ],
  ignorePunctuation: false,
  caseSensitive: false,
  trim: true,
};

export function normaliseText(text: string, rules: TextRules = OLMOCR_TEXT): string {
  let out = rules.markup ? stripMarkup(text) : text;
  out = out.replace(PYTHON_WHITESPACE, ' ').normalize(rules.form);
  for (const [from, to] of rules.replacements) out = out.replaceAll(from, to);
  if (rules.ignorePunctuation) out = out.replace(/[\p{P}\p{S}]+/gu, ' ');
  if (!rules.caseSensitive) out = out.toLowerCase();
  return rules.trim ? out.replace(PYTHON_WHITESPACE, ' ').trim() : out;
}

/** olmOCR's markup step, in its order: `<br>`, then `**`/`__`, `<b>`/`<i>`, then paired and single markers. */
function stripMarkup(text: string): string {
  return text
    .replace(/<br\/?>/g, ' ')
    .replace(/\*\*([^\n]*?)\*\*/g, '$1')
    .replace(/__([^\n]*?)__/g, '$1')
    .replace(/<\/?b>/g, '')
    .replace(/<\/?i>/g, '')
    .replace(/(\*\*|__)([^\n]*?)\1/g, '$2')
    .replace(/(\*|_)([^\n]*?)\1/g, '$2');
}
