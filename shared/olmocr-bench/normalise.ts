/**
 * olmOCR-Bench's text normalisation, applied to the output and to every test string before they are
 * compared: `<br>` as a space, Markdown/HTML bold and italics stripped, whitespace runs as one space,
 * NFC, and the typographic quotes, dashes and micro sign that one engine writes and another does not.
 * Emphasis is stripped before whitespace is collapsed and never across a line break, as olmOCR's
 * current scorer does (Python's `.` stops only at `\n`, hence `[^\n]`).
 */

const REPLACEMENTS: ReadonlyArray<[string, string]> = [
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
];

/** Python's `\s` on str (str.isspace): unlike JavaScript's it counts U+001C..U+001F and U+0085, and not U+FEFF. */
export const PYTHON_WHITESPACE = /[\t-\r\x1c-\x20\x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+/g;

export function normaliseText(text: string): string {
  let out = text.replace(/<br\/?>/g, ' ');
  out = out.replace(/\*\*([^\n]*?)\*\*/g, '$1').replace(/__([^\n]*?)__/g, '$1');
  out = out.replace(/<\/?b>/g, '').replace(/<\/?i>/g, '');
  out = out.replace(/(\*\*|__)([^\n]*?)\1/g, '$2');
  out = out.replace(/(\*|_)([^\n]*?)\1/g, '$2');
  out = out.replace(PYTHON_WHITESPACE, ' ');
  out = out.normalize('NFC');
  for (const [fancy, plain] of REPLACEMENTS) out = out.replaceAll(fancy, plain);
  return out;
}
