/**
 * Tables of real pages (real-docs, read at test time), checked the way the benchmark checks them:
 * a cell with its neighbours and its column's heading, by olmOCR-Bench's table rule.
 */

import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseBenchTest, runBenchTest } from '../../shared/olmocr-bench/bench-test.js';
import { needs, REAL_DOCS } from '../environment.js';
import { textEngineMarkdown } from '../text-engine-markdown.js';
import { REAL_DOCS_DIR, realDocsProblem } from './real-docs-folder.js';

const ICDAR_US = path.join(REAL_DOCS_DIR, 'icdar2013/competition-dataset-us');
const ICDAR_EU = path.join(REAL_DOCS_DIR, 'icdar2013/competition-dataset-eu');

/** What the benchmark says of a table check on the Markdown: passed, or why not. */
function tableCheck(markdown: string, check: Record<string, string>): string {
  const test = parseBenchTest({ pdf: 'page.pdf', page: 1, id: 'check', type: 'table', ...check }, 'test');
  const verdict = runBenchTest(test, markdown);
  return verdict.passed ? 'passed' : (verdict.detail ?? 'failed');
}

describe('tables of real pages', needs(REAL_DOCS, realDocsProblem), () => {
  it('keeps the column headings of a long table that every page repeats at its top, under its top rule and apart from the caption', async () => {
    // Pages 3-7 of this report print one table's headings at the same height, as running heads are.
    const markdown = await textEngineMarkdown(path.join(ICDAR_US, 'us-017.pdf'), 'all');
    expect(tableCheck(markdown, { cell: '28,873', top_heading: 'White' })).toBe('passed');
    expect(tableCheck(markdown, { cell: '7,707', top_heading: 'Race/ethnicity' })).toBe('passed');
    expect(tableCheck(markdown, { cell: '2004', top_heading: 'Year' })).toBe('passed');
    // the caption's second line, above the table's top rule, stays the caption's
    expect(markdown).toContain('by race/ethnicity: Fall 1996 through fall 2021');
    expect(tableCheck(markdown, { cell: '1996 through fall 2021' })).not.toBe('passed');
  }, 120_000);

  it('parts rows of figures that a grid ruled only around its columns draws in one box', async () => {
    const markdown = await textEngineMarkdown(path.join(ICDAR_US, 'us-008.pdf'), 1);
    expect(tableCheck(markdown, { cell: '1,530', left: '3-year-olds', up: 'Head Start Group', right: '1,029' })).toBe('passed');
    expect(tableCheck(markdown, { cell: '4,667', up: '2,108', left: '1,884' })).toBe('passed');
  }, 120_000);

  it('parts a body row ruled only above and below into the columns its header rules draw', async () => {
    const markdown = await textEngineMarkdown(path.join(ICDAR_EU, 'eu-018.pdf'), 1);
    expect(tableCheck(markdown, { cell: 'Austria', right: 'Single', down: 'Germany' })).toBe('passed');
    expect(tableCheck(markdown, { cell: '290', left: '0.8', right: '0.7', top_heading: 'N' })).toBe('passed');
  }, 120_000);
});
