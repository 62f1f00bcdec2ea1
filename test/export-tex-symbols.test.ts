/**
 * Unicode math and symbols in running text and in formulas, as a model or a PDF's text layer gives
 * them, exported to LaTeX: each is a LaTeX command, none a `?`, the file compiles with pdflatex, and
 * the PDF shows them. CJK, which pdflatex's fonts lack, is written as code points with a warning.
 */

import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { documentLatex } from '../shared/export/latex.js';
import { missingPrograms, needs, PROGRAMS } from './environment.js';
import { pdfText } from './tex-compile.js';

const latex = missingPrograms({ pdflatex: 'texlive-latex-base', pdftotext: 'poppler-utils' });

const PAGES = [
  { page: 1, markdown: 'In text: a − b, Δx, ∑ of terms, x ∈ A, ∫ f, the Γ function, ≤ 3, → ∞, ±1, α and β.' },
  { page: 2, markdown: 'In a formula: $a − b + Δ + ∑_i x_i ∈ Γ + ∫_0^1 f$\n\n$$∑_{i} x_i − Δ ∈ ∫ Γ$$\n\nAnd 漢字 here.' },
];

describe('LaTeX export of Unicode math and symbols', () => {
  const { text: tex, warnings } = documentLatex(PAGES, { title: 'Symbols', image: () => undefined, pageBreaks: true });

  it('writes each symbol as a LaTeX command and never as a question mark', () => {
    const body = tex.slice(tex.indexOf('\\begin{document}'));
    expect(body).not.toContain('?');
    for (const command of ['\\Delta', '\\sum', '\\in', '\\int', '\\Gamma', '\\leq', '\\rightarrow', '\\infty', '\\pm', '\\alpha', '\\beta']) expect(body).toContain(command);
    expect(body).toContain('a $-$ b');
    expect(body).toContain('\\newpage');
    // CJK: pdflatex's Latin fonts have no glyphs; the code points are written and a warning says so
    expect(body).toContain('{\\ttfamily[U+6F22]}{\\ttfamily[U+5B57]}');
    expect(warnings).toEqual([{ page: 2, message: expect.stringContaining('pdflatex cannot set the characters 漢 字') }]);
  });

  it('compiles with pdflatex, and the PDF shows the symbols', needs(PROGRAMS, latex), () => {
    const folder = mkdtempSync(path.join(tmpdir(), 'folio-tex-symbols-'));
    writeFileSync(path.join(folder, 'symbols.tex'), tex);
    execFileSync('pdflatex', ['-interaction=nonstopmode', '-halt-on-error', '-no-shell-escape', 'symbols.tex'], { cwd: folder, stdio: 'ignore', timeout: 120_000 });
    const text = pdfText(path.join(folder, 'symbols.pdf'));
    for (const symbol of ['−', 'Γ', '∈', '≤', '→', '∞', '±', 'α', 'β']) expect(text).toContain(symbol);
    // Δ comes out of pdftotext as U+2206 (INCREMENT), the same glyph
    expect(text).toMatch(/[Δ∆]x/);
    expect(text).not.toContain('?');
    // \newpage: the two pages' text is on two PDF pages
    expect(text.split('\f').filter((pageText) => pageText.trim() !== '').length).toBe(2);
  });
});

// acmart's Libertine math and other Unicode math fonts put styled letters in the text layer
describe('LaTeX export of Unicode math letters (U+1D400–U+1D7FF)', () => {
  const PAGE = { page: 1, markdown: 'Where 𝜋 is a ratio, 𝛼 and 𝜔 are angles, 𝑛 counts 𝑥 ∈ 𝐀 in 𝔤 with 𝟏, 𝒜 and 𝒶, 𝕂 and 𝕜, 𝚝𝚝, 𝝁 and ℎ.\n\n$𝜆 = 𝑓(𝑥) + 𝜕𝑦$' };
  const { text: tex, warnings } = documentLatex([PAGE], { title: 'Math letters', image: () => undefined });
  const body = tex.slice(tex.indexOf('\\begin{document}'));

  it('writes them as LaTeX letters in their fonts, with no code points and no warning', () => {
    expect(warnings).toEqual([]);
    expect(body).not.toContain('[U+');
    for (const written of ['$\\pi$', '$\\alpha$', '$\\omega$', '$n$', '$x$', '$\\mathbf{A}$', '$\\mathfrak{g}$', '$\\mathbf{1}$', '$\\mathcal{A}$', '$\\mathbb{K}$', '$\\mathtt{t}$', '$\\bm{\\mu}$', '$h$']) {
      expect(body).toContain(written);
    }
    // script and blackboard lowercase have no LaTeX glyphs: the plain letter
    expect(body).toContain('and $a$,');
    expect(body).toContain('and $k$,');
    expect(body).toMatch(/\\lambda\s*= f\(x\) \+ \\partial\s*y/);
  });

  it('compiles with pdflatex, and the PDF shows the letters', needs(PROGRAMS, latex), () => {
    const folder = mkdtempSync(path.join(tmpdir(), 'folio-tex-letters-'));
    writeFileSync(path.join(folder, 'letters.tex'), tex);
    execFileSync('pdflatex', ['-interaction=nonstopmode', '-halt-on-error', '-no-shell-escape', 'letters.tex'], { cwd: folder, stdio: 'ignore', timeout: 120_000 });
    const text = pdfText(path.join(folder, 'letters.pdf'));
    for (const letter of ['π', 'α', 'ω', 'λ']) expect(text).toContain(letter);
  });
});

// text layers carry spacing accents, the micro sign, single guillemets and bullets as characters of their own
describe('LaTeX export of marks and quotes in text', () => {
  const PAGE = { page: 1, markdown: 'A 5 µm gap, ● a dot, ‹single› and «double» quotes, the mark ˆ and ´, and $‹x› + ● + µ$.' };
  const { text: tex, warnings } = documentLatex([PAGE], { title: 'Marks', image: () => undefined });
  const body = tex.slice(tex.indexOf('\\begin{document}'));

  it('writes each as LaTeX, with no code points and no warning, and the formula stays a formula', () => {
    expect(warnings).toEqual([]);
    expect(body).not.toContain('[U+');
    expect(body).toContain('5 $\\mu$m');
    expect(body).toContain('$<$single$>$');
    expect(body).toContain('$\\ll$double$\\gg$');
    expect(body).toMatch(/\\\(<x> \+ \\bullet\s*\+ \\mu\s*\\\)/);
  });

  it('compiles with pdflatex, and the PDF shows them', needs(PROGRAMS, latex), () => {
    const folder = mkdtempSync(path.join(tmpdir(), 'folio-tex-marks-'));
    writeFileSync(path.join(folder, 'marks.tex'), tex);
    execFileSync('pdflatex', ['-interaction=nonstopmode', '-halt-on-error', '-no-shell-escape', 'marks.tex'], { cwd: folder, stdio: 'ignore', timeout: 120_000 });
    const text = pdfText(path.join(folder, 'marks.pdf'));
    expect(text).toMatch(/[µμ]m/);
    for (const shown of ['<single>', '≪double≫']) expect(text).toContain(shown);
    // OT1 would set a bare < as ¡
    expect(text).not.toContain('¡');
  });
});
