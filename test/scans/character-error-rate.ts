/**
 * Character error rate of OCR output against a page's known text: both reduced to plain text
 * (Markdown syntax, HTML table tags, escapes and layout whitespace removed), then edits per known character.
 */

import { levenshtein } from '../../shared/text-match/fuzzy-match.js';
import { normaliseText, READING_TEXT } from '../../shared/text-match/normalise.js';

export function plainText(markdown: string): string {
  const text = markdown
    .normalize('NFKC')
    .replace(/!\[[^\]]*\]\([^)]*\)/g, ' ')
    .replace(/<[^>]+>/g, ' ')
    .replace(/^\s*\|?\s*:?-{3,}.*$/gm, ' ')
    .replace(/^#{1,6}\s+/gm, '')
    .replace(/^\s*(?:[-*+]|\d+[.)])\s+/gm, '')
    .replace(/\\([\\`*_{}[\]()#+\-.!|<>~])/g, '$1')
    .replace(/\*\*|__|(?<![\w*])[*_](?=\S)|(?<=\S)[*_](?![\w*])/g, '')
    .replace(/[|]/g, ' ');
  // typography and whitespace as every quality check sets them aside, case kept
  return normaliseText(text, { ...READING_TEXT, caseSensitive: true });
}

/** Edits per character of the known text; CJK text is compared without spaces (it has none to keep). */
export function characterErrorRate(recognised: string, known: string, options: { ignoreSpaces?: boolean } = {}): number {
  const squeeze = (text: string) => (options.ignoreSpaces ? plainText(text).replace(/\s/g, '') : plainText(text));
  const truth = squeeze(known);
  return truth.length === 0 ? 0 : levenshtein(squeeze(recognised), truth) / truth.length;
}
