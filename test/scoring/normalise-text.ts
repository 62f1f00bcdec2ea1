/** Text normalisation shared by every check, so that typography the PDF adds does not count as error. */

export interface NormaliseOptions {
  /** Compare letter case exactly (default false). */
  caseSensitive?: boolean;
  /** Drop punctuation and symbols before comparing (default false). */
  ignorePunctuation?: boolean;
  /** Compare the characters exactly as they are (no Unicode, case or whitespace changes): for ligature glyphs or code indentation. */
  exact?: boolean;
}

const TYPOGRAPHY: ReadonlyArray<[RegExp, string]> = [
  [/[\u2018\u2019\u201a\u201b\u2032]/g, "'"],
  [/[\u201c\u201d\u201e\u201f\u2033]/g, '"'],
  [/[\u2010\u2011\u2012\u2013\u2014\u2015\u2212]/g, '-'],
  [/\u2026/g, '...'],
  // Soft hyphens are kept: an engine that leaves them inside words breaks search, and checks should see it.
  [/[\u200b\u200c\u200d\ufeff]/g, ''],
];

/** NFKC (ligatures, full-width forms), ASCII quotes and dashes, no zero-width characters, whitespace collapsed to single spaces. */
export function normaliseText(text: string, options: NormaliseOptions = {}): string {
  if (options.exact) return text;
  let out = text.normalize('NFKC');
  for (const [pattern, replacement] of TYPOGRAPHY) out = out.replace(pattern, replacement);
  if (options.ignorePunctuation) out = out.replace(/[\p{P}\p{S}]+/gu, ' ');
  if (!options.caseSensitive) out = out.toLowerCase();
  return out.replace(/\s+/g, ' ').trim();
}

/**
 * Markdown with only its syntax variants made uniform (bullet characters, emphasis markers, table
 * padding, blank-line runs), for the edit distance: the remaining differences are real ones.
 */
export function normaliseMarkdown(markdown: string): string {
  return markdown
    .normalize('NFKC')
    .replace(/\r\n?/g, '\n')
    .replace(/^(\s*)[*+](\s+)/gm, '$1-$2')
    .replace(/__(.+?)__/g, '**$1**')
    .replace(/(^|[^_\w])_([^_\n]+)_(?![\w_])/g, '$1*$2*')
    .replace(/^\|?(.*\|.*?)\|?$/gm, (row) => row.split('|').map((cell) => cell.trim()).join('|'))
    .replace(/\|:?-+:?(?=\|)/g, '|-')
    .replace(/[ \t]+/g, ' ')
    .replace(/ *\n */g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}
