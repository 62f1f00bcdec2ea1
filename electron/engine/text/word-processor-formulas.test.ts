/**
 * Formulas set by a word processor, which has no math fonts: Folio's own Word export (equations as
 * Office Math) laid out and printed by LibreOffice, read back by the text engine.
 */

import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { documentDocx } from '../../../shared/export/docx.js';
import { findFormula, renderFormula } from '../../../shared/olmocr-bench/math.js';
import { missingPrograms, needs, PROGRAMS } from '../../../test/environment.js';
import { textEngineMarkdown } from '../../../test/text-engine-markdown.js';

const office = missingPrograms({ soffice: 'libreoffice-writer-nogui' });

const FORMULAS = [
  'E = \\sum_{n=1}^{N} \\lambda_n x^2',
  'r = \\frac{a}{b + c}',
  '\\mu_w = \\frac{\\sum_{i=1}^{n} w_i x_i}{\\sum_{i=1}^{n} w_i}',
];

const MARKDOWN = `The energy of the system is the sum of the contributions of its modes, weighted by their occupation numbers as the following formula shows for every mode of the chain:

$$
${FORMULAS[0]}
$$

The ratio of the two lengths is then written as a fraction of the first over the second one, and this holds for every pair that the construction gives:

$$
${FORMULAS[1]}
$$

A weighted mean of the samples is the last quantity that the method needs before it can report its estimate to the user:

$$
${FORMULAS[2]}
$$

Body text after the formulas stays as it was written by its author, with *no change* at all, even where it names a variable *x* or a number like 42.
`;

describe('formulas of a page a word processor printed', needs(PROGRAMS, office), () => {
  let folder = '';
  let markdown = '';
  beforeAll(async () => {
    folder = mkdtempSync(path.join(tmpdir(), 'folio-word-formulas-'));
    const { data } = await documentDocx([{ page: 1, markdown: MARKDOWN }], { title: 'Formulas', image: () => undefined });
    writeFileSync(path.join(folder, 'formulas.docx'), data);
    // a profile of its own, so a LibreOffice already running elsewhere does not take the job
    execFileSync('soffice', [`-env:UserInstallation=file://${folder}/profile`, '--headless', '--convert-to', 'pdf', '--outdir', folder, path.join(folder, 'formulas.docx')], { stdio: 'ignore', timeout: 120_000 });
    markdown = await textEngineMarkdown(path.join(folder, 'formulas.pdf'));
  }, 180_000);
  afterAll(() => rmSync(folder, { recursive: true, force: true }));

  it('rebuilds italic variables, scripts, limits over and under a sum and fractions as display math', () => {
    for (const formula of FORMULAS) expect(findFormula(formula, renderFormula(formula)!, markdown).passed, formula).toBe(true);
    expect(markdown.match(/\$\$/g)).toHaveLength(2 * FORMULAS.length);
  });

  it('leaves the prose and its italics as text', () => {
    expect(markdown).toContain('Body text after the formulas stays as it was written by its author, with *no change* at all, even where it names a variable *x* or a number like 42.');
    expect(markdown).not.toMatch(/\$[^$\n]*(?:author|energy|ratio)/);
  });
});
