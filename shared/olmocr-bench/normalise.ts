/**
 * olmOCR-Bench's text normalisation, applied to the output and to every test string before they are
 * compared: line breaks and `<br>` as spaces, Markdown/HTML bold and italics stripped, NFC, and the
 * typographic quotes, dashes and micro sign that one engine writes and another does not.
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

export function normaliseText(text: string): string {
  let out = text.replace(/<br\s*\/?>/g, ' ');
  out = out.replace(/\s+/g, ' ');
  // Order as olmOCR's: bold before italics, so `**x**` does not leave stray asterisks.
  out = out.replace(/\*\*(.*?)\*\*/g, '$1').replace(/__(.*?)__/g, '$1');
  out = out.replace(/<\/?b>/g, '').replace(/<\/?i>/g, '');
  out = out.replace(/\*(.*?)\*/g, '$1').replace(/_(.*?)_/g, '$1');
  out = out.normalize('NFC');
  for (const [fancy, plain] of REPLACEMENTS) out = out.replaceAll(fancy, plain);
  return out;
}
