/**
 * Inline math of a real TeX-made paper (the amsmath test document, read from real-docs at test
 * time) written by the text engine as `$...$`, judged against the formulas of its LaTeX source as
 * olmOCR-Bench's math check judges them (KaTeX's rendering), with the prose around them kept.
 */

import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { needs, REAL_DOCS } from '../environment.js';
import { textEngineMarkdown } from '../text-engine-markdown.js';
import { REAL_DOCS_DIR, realDocsProblem } from './real-docs-folder.js';
import { rendersIn } from '../bench-verdicts.js';

const TESTMATH = path.join(REAL_DOCS_DIR, 'texlive/texlive-latex-base-doc/latex/amsmath/testmath.pdf');

describe('inline math of a real TeX-made paper', needs(REAL_DOCS, realDocsProblem), () => {
  let first = '';
  let second = '';
  let third = '';
  beforeAll(async () => {
    first = await textEngineMarkdown(TESTMATH, 1);
    second = await textEngineMarkdown(TESTMATH, 2);
    third = await textEngineMarkdown(TESTMATH, 3);
  }, 300_000);

  it('writes the source formulas of running text as $...$ that render as the source does', () => {
    for (const reference of ['\\mathbf{A}=(a_{ij})', 'C_i=\\bigcup_j C_{i(j)}', 'k_{ii}\\det \\mathbf{K}(i|i)']) {
      expect(rendersIn(first, reference), reference).toBe(true);
    }
    for (const reference of ['K_{n_1n_2}', 'a_{ij}=a_{ji}']) expect(rendersIn(second, reference), reference).toBe(true);
    expect(rendersIn(third, '\\mathbf{B}^{(\\lambda)}=(b_{ij}^{(\\lambda)})')).toBe(true);
  });

  it('keeps the prose around the formulas as text, with the sentence punctuation outside them', () => {
    expect(first).toContain('be the adjacency matrix of graph $G$. The corresponding');
    expect(first).toContain('the $i$th diagonal entry');
    expect(second).toContain('*first combinatorial principles*');
    // every unescaped dollar opens or closes a formula: an even number in each paragraph
    for (const paragraph of first.split('\n\n').filter((p) => !p.startsWith('$$') && !p.startsWith('`'))) {
      expect((paragraph.match(/(?<!\\)\$/g) ?? []).length % 2, paragraph).toBe(0);
    }
  });
});
