/**
 * Check generation on real files from real-docs (CI has them at ../shared/real-docs): every check
 * passes on the ground truth it was read from and fails once that is spoiled, each source gives
 * the kinds it should, and the README's pitfalls are handled.
 */

import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { BuiltCheck } from '../../tools/bench/real-docs/bench-check.js';
import { generatedChecks, realDocuments, type RealDocument } from '../../tools/bench/real-docs/build.js';
import { readStructure } from '../../tools/bench/real-docs/icdar.js';
import { readFile } from 'node:fs/promises';
import { passesOn } from '../../tools/bench/real-docs/truth-check.js';
import { tableHtml } from '../../tools/bench/real-docs/truth-table.js';
import { expectSound } from './corruption.js';
import { needs, REAL_DOCS } from '../environment.js';
import { REAL_DOCS_DIR, realDocsProblem } from './real-docs-folder.js';

const kinds = (checks: readonly BuiltCheck[]) => new Set(checks.map((c) => c.spec.type));

/** The checks of the document at `relative`, all sound; at most 2% of those generated fail on their own truth (and the builder drops them). */
async function soundChecks(relative: string): Promise<BuiltCheck[]> {
  const doc = (await realDocuments()).find((d) => d.path === relative) as RealDocument;
  expect(doc, relative).toBeDefined();
  const generated = await generatedChecks(doc);
  const kept = generated.filter((check) => passesOn(check.spec, check.truth));
  expect(generated.length - kept.length).toBeLessThanOrEqual(Math.floor(0.02 * generated.length));
  for (const check of kept) expectSound(check);
  return kept;
}

describe('checks from real documents', needs(REAL_DOCS, realDocsProblem), () => {
  it('ICDAR: table and text checks; with an alternative reading, only those that hold in both', async () => {
    const checks = await soundChecks('icdar2013/competition-dataset-eu/eu-009a.pdf');
    expect(kinds(checks)).toContain('present');
    const alternative = readStructure(await readFile(path.join(REAL_DOCS_DIR, 'icdar2013/competition-dataset-eu/eu-009b-str.xml'), 'utf8'), 'eu-009b');
    const other = alternative.map((t) => tableHtml(t.truth)).join('\n\n');
    for (const check of checks) expect(passesOn(check.spec, other), JSON.stringify(check.spec)).toBe(true);
    // us-035a: regions side by side joined by their column increments; us-002: the col-end typo
    expect(kinds(await soundChecks('icdar2013/competition-dataset-us/us-035a.pdf'))).toContain('table');
    expect((await soundChecks('icdar2013/competition-dataset-us/us-002.pdf')).length).toBeGreaterThan(10);
  }, 120_000);

  it('TeX Live: sentences, order on two-column pages, display math, tabular cells, running heads', async () => {
    const acm = await soundChecks('texlive/texlive-publishers-doc/latex/acmart/samples/sample-acmtog.pdf');
    expect(kinds(acm)).toEqual(new Set(['present', 'order', 'math', 'table', 'absent']));
    const math = await soundChecks('texlive/texlive-latex-base-doc/latex/amsmath/testmath.pdf');
    expect(math.filter((c) => c.spec.type === 'math').length).toBeGreaterThan(5);
    // ionumbers repeats its table's heading row at the top of each page: content, not a running head
    const io = await soundChecks('texlive/texlive-science-doc/latex/ionumbers/ionumbers_test.pdf');
    expect(io.filter((c) => c.spec.type === 'absent' && /^(input|output)$/.test(c.spec.text))).toEqual([]);
    expect(kinds(io)).toContain('table');
  }, 300_000);

  it('Debian Reference: HTML tables, heading and paragraph order, running head and page numbers absent', async () => {
    const checks = await soundChecks('debian-reference/debian-reference.en.pdf');
    expect(checks.filter((c) => c.spec.type === 'table').length).toBeGreaterThan(100);
    expect(checks.filter((c) => c.spec.type === 'order').length).toBeGreaterThan(50);
    const absent = checks.flatMap((c) => (c.spec.type === 'absent' ? [c.spec.text] : []));
    expect(absent).toContain('Debian Reference');
    expect(absent.some((text) => /^\d+ \/ 233$/.test(text))).toBe(true);
  }, 300_000);
});
