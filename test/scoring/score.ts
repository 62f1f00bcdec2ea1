/** Scores one converted document against its expectation: every check, plus the edit distance. */

import { runCheck, type Check, type CheckResult } from './checks.js';
import { levenshtein } from '../../shared/text-match/fuzzy-match.js';
import { parseMarkdown } from './markdown-document.js';

export interface Expectation {
  markdown: string;
  checks: readonly Check[];
  maxEditDistance: number;
}

export interface DocumentScore {
  name: string;
  results: CheckResult[];
  editDistance: number;
  maxEditDistance: number;
  /** Every check passed and the edit distance is within its limit. */
  passed: boolean;
}

export function scoreDocument(name: string, markdown: string, expectation: Expectation): DocumentScore {
  const doc = parseMarkdown(markdown);
  const results = expectation.checks.map((check) => runCheck(check, doc));
  const editDistance = normalisedEditDistance(normaliseMarkdown(markdown), normaliseMarkdown(expectation.markdown));
  const passed = results.every((r) => r.passed) && editDistance <= expectation.maxEditDistance;
  return { name, results, editDistance, maxEditDistance: expectation.maxEditDistance, passed };
}

/** Longest text compared character by character; beyond this both sides are cut, so a runaway output cannot make scoring quadratic in a book. */
export const EDIT_DISTANCE_CAP = 20_000;

/** Edit distance divided by the longer length: 0 for identical, 1 for nothing in common. */
export function normalisedEditDistance(a: string, b: string, cap = EDIT_DISTANCE_CAP): number {
  const x = Array.from(a).slice(0, cap).join('');
  const y = Array.from(b).slice(0, cap).join('');
  const longer = Math.max(Array.from(x).length, Array.from(y).length);
  return longer === 0 ? 0 : levenshtein(x, y) / longer;
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
