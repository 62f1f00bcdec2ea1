/** Scores one converted document against its expectation: every check, plus the edit distance. */

import { runCheck, type Check, type CheckResult } from './checks.js';
import { normalisedEditDistance } from './edit-distance.js';
import { parseMarkdown } from './markdown-document.js';
import { normaliseMarkdown } from './normalise-text.js';

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
