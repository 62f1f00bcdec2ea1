/** A built check run by `folio bench`'s own scorer, on the ground truth or on any Markdown. */

import { parseBenchTest, runBenchTest, type BenchTest } from '../../../shared/olmocr-bench/bench-test.js';
import type { CheckSpec } from './bench-check.js';

/** The check as a line of an olmOCR-Bench test file. */
export function testLine(spec: CheckSpec, id: string, pdf: string, page: number): Record<string, unknown> {
  return { pdf, page, id, ...spec };
}

function asBenchTest(spec: CheckSpec, id = 'check', pdf = 'doc.pdf', page = 1): BenchTest {
  return parseBenchTest(testLine(spec, id, pdf, page), id);
}

/** Whether the check passes on `markdown`; false when it is not a valid test at all (a formula KaTeX cannot render). */
export function passesOn(spec: CheckSpec, markdown: string): boolean {
  let test: BenchTest;
  try {
    test = asBenchTest(spec);
  } catch {
    return false;
  }
  return runBenchTest(test, markdown).passed;
}
