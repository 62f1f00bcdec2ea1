/**
 * Display formulas of real TeX-made papers (TeX Live's journal samples and the amsmath test
 * document, read from real-docs at test time), rebuilt by the text engine as LaTeX and judged as
 * olmOCR-Bench's math check judges them: fonts other than Computer Modern (newtx with Libertine,
 * Termes), limits under operator names, aligned rows and equation numbers.
 */

import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { needs, REAL_DOCS } from '../environment.js';
import { textEngineMarkdown } from '../text-engine-markdown.js';
import { REAL_DOCS_DIR, realDocsProblem } from './real-docs-folder.js';
import { rendersIn } from '../bench-verdicts.js';

const PUBLISHERS = path.join(REAL_DOCS_DIR, 'texlive/texlive-publishers-doc/latex');
const BASE = path.join(REAL_DOCS_DIR, 'texlive/texlive-latex-base-doc/latex');

describe('display formulas of real TeX-made papers', needs(REAL_DOCS, realDocsProblem), () => {
  it('reads a display set in Libertine and newtx math: limits under lim and sums, an integral with its scripts', async () => {
    const markdown = await textEngineMarkdown(path.join(PUBLISHERS, 'acmart/samples/sample-sigconf.pdf'), 3);
    expect(rendersIn(markdown, '\\lim_{n \\to \\infty} x = 0')).toBe(true);
    expect(rendersIn(markdown, '\\sum_{i=0}^{\\infty} x + 1')).toBe(true);
    expect(rendersIn(markdown, '\\sum_{i=0}^{\\infty} x_i = \\int_0^{\\pi + 2} f')).toBe(true);
    // the equation numbers at the margin are no text of their own
    expect(markdown).not.toMatch(/^\(\d\)$/m);
  }, 300_000);

  it('reads the rows of a multi-line display in a narrow column, set in Termes and newtx', async () => {
    const markdown = await textEngineMarkdown(path.join(PUBLISHERS, 'asmeconf/asmeconf-template.pdf'), 3);
    expect(rendersIn(markdown, '= -\\nabla \\cdot \\vec{q} + \\rho \\vec{u} \\cdot \\vec{g}')).toBe(true);
  }, 300_000);

  it('reads limits under lim and a fraction after them, in Computer Modern', async () => {
    const markdown = await textEngineMarkdown(path.join(BASE, 'amsmath/testmath.pdf'), 12);
    expect(rendersIn(markdown, 'L(z) = \\lim_{h \\to 0^+} \\frac{g(hz) - g(0)}{h}')).toBe(true);
  }, 300_000);
});
