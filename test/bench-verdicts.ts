/** What `folio bench`'s own rules say of a check on a page's Markdown, for tests that judge output as the benchmark does. */

import { parseBenchTest, runBenchTest } from '../shared/olmocr-bench/bench-test.js';
import { findFormula, renderFormula } from '../shared/olmocr-bench/math.js';

/** A table check (a cell with its neighbours and headings) on the Markdown: 'passed', or why not. */
export function tableCheck(markdown: string, check: Record<string, string>): string {
  const test = parseBenchTest({ pdf: 'page.pdf', page: 1, id: 'check', type: 'table', ...check }, 'test');
  const verdict = runBenchTest(test, markdown);
  return verdict.passed ? 'passed' : (verdict.detail ?? 'failed');
}

/** Whether a math span of the Markdown renders as the LaTeX `reference` does (the math check's rule). */
export function rendersIn(markdown: string, reference: string): boolean {
  return findFormula(reference, renderFormula(reference)!, markdown).passed;
}
