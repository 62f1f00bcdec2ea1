import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { missingPrograms, needs, PROGRAMS } from '../../../test/environment.js';
import { latexPages, PDFLATEX_PROBLEM } from '../../../test/latex-page.js';

const run = promisify(execFile);

const DOCUMENT = String.raw`\documentclass[11pt]{article}
\usepackage{amsmath,amssymb}
\pagestyle{empty}
\begin{document}
Sorting takes $O(n \log n)$ steps for $n$ items in $\mathbb{R}^n$, and the sum $\alpha + \beta$ of two angles
squares to $x_i^2$ for each $i$th entry. Let $\mathbf{A} = (a_{ij})$ be a matrix and $10^{-3}$ a tolerance.
An \emph{italic word} of prose is no math, nor is the year 2019, and a ticket costs \$5 or \$10.
\begin{itemize}
\item A bulleted item with a footnote\footnote{The note.} and no math.
\end{itemize}
Typeset with \LaTeXe{} by the authors.
\end{document}
`;

describe('inline math of a LaTeX-made page', needs(PROGRAMS, PDFLATEX_PROBLEM), () => {
  const pages = latexPages('folio-inline-math-');
  let markdown = '';
  beforeAll(async () => {
    markdown = await pages.read('inline', DOCUMENT);
  }, 60_000);

  it('writes math-font glyphs with the operators, brackets and scripts beside them as $...$', () => {
    expect(markdown).toContain('Sorting takes $O ( n \\log n )$ steps for $n$ items in $\\mathbb{R}^{n}$, and the sum $\\alpha + \\beta$ of two angles');
    expect(markdown).toContain('squares to $x_{i}^{2}$ for each $i$th entry.');
    // a bold letter of the text font before a relation is the formula's, as \mathbf
    expect(markdown).toContain('Let $\\mathbf{A} = ( a_{i j} )$ be a matrix and $10^{- 3}$ a tolerance.');
  });

  it('leaves italic prose, lone numbers, bullets, footnote marks and the LaTeX2e logo as text', () => {
    expect(markdown).toContain('An *italic word* of prose is no math, nor is the year 2019');
    expect(markdown).toMatch(/A bulleted item with a footnote1 and no math\./);
    expect(markdown).not.toMatch(/\$\\bullet|\$\^\{1\}/);
    expect(markdown).toContain('Typeset with LATEX 2ε by the authors.');
  });

  it('escapes the dollars of prose beside inline math, so that none pairs with another as math', () => {
    expect(markdown).toContain('a ticket costs \\$5 or \\$10.');
    // every unescaped dollar opens or closes a formula: an even number in each paragraph
    for (const paragraph of markdown.split('\n\n')) expect((paragraph.match(/(?<!\\)\$/g) ?? []).length % 2).toBe(0);
  });
});

// A document may ask TeX to prefer breaking inline math after relations (\relpenalty); here one breaks after "=".
const BROKEN_FORMULA = String.raw`\documentclass[11pt]{article}
\pagestyle{empty}
\relpenalty=-300
\begin{document}
The bound states of a particle in the well are found as follows, and the stationary equation that each one of them satisfies then reads $H \psi = E \psi$ for them, with the energy $E$ real.
\end{document}
`;

describe('inline math that TeX broke across two lines', needs(PROGRAMS, missingPrograms({ pdflatex: 'texlive-latex-base', pdftotext: 'poppler-utils' })), () => {
  const pages = latexPages('folio-inline-break-');
  let markdown = '';
  let text = '';
  beforeAll(async () => {
    markdown = await pages.read('broken', BROKEN_FORMULA);
    text = (await run('/usr/bin/pdftotext', ['-layout', path.join(pages.folder(), 'broken.pdf'), '-'])).stdout;
  }, 60_000);

  it('writes a formula broken after its relation as one formula, the relation inside it', () => {
    // the page breaks the line after the relation, as the case needs
    expect(text).toMatch(/H\s*ψ =\s*\n\s*E\s*ψ/u);
    expect(markdown).toContain('then reads $H \\psi = E \\psi$ for them, with the energy $E$ real.');
  });
});
