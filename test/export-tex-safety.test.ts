/**
 * The TeX export under hostile input: every page of test/hostile-markdown.ts exported and compiled
 * with pdflatex, with and without -shell-escape, reads and writes nothing outside its folder, starts
 * no program, makes its PDF with no LaTeX error, and keeps the pages after the hostile ones.
 */

import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { documentLatex } from '../shared/export/latex.js';
import { safeMath } from '../shared/export/latex-math.js';
import { MATH_COMMANDS, MATH_RENAMED, MATH_SYMBOLS, UNICODE_MATH } from '../shared/export/latex-symbols.js';
import { hostileMarkdownPages, LAST_PAGE_MARKER } from './hostile-markdown.js';
import { missingPrograms, needs, PROGRAMS } from './environment.js';
import { compileTex, pdfText } from './tex-compile.js';

// the hostile set loads packages of texlive-latex-recommended and -extra too
const latex = missingPrograms({ pdflatex: 'texlive-latex-base', pdftotext: 'poppler-utils' });

function outsideFiles() {
  const outside = mkdtempSync(path.join(tmpdir(), 'folio-outside-'));
  const canary = path.join(outside, 'secret.tex');
  writeFileSync(canary, 'CANARY SECRET TEXT\n');
  return { canary, touched: path.join(outside, 'pwned') };
}

describe('the allow-list for formulas', () => {
  it('refuses TeX escape forms, file access and names outside the list, saying why', () => {
    const refused = (source: string) => {
      const result = safeMath(source, false);
      expect(result.ok, source).toBe(false);
      return result.ok ? '' : result.reason;
    };
    expect(refused('^^5cinput{/etc/passwd}')).toMatch(/double superscript/);
    expect(refused('\\url{x}')).toMatch(/\\url/);
    expect(refused('\\csname input\\endcsname')).toMatch(/\\csname/);
    expect(refused('\\catcode92=12')).toMatch(/\\catcode/);
    expect(refused('\\immediate\\write18{ls}')).toMatch(/\\immediate/);
    expect(refused('\\end{document}')).toMatch(/\\end/);
    expect(refused('\\begin{document}x\\end{document}')).toMatch(/environment document/);
    expect(refused('\\message{x}')).toMatch(/\\message/);
    expect(refused('x\u001by')).toMatch(/U\+001B/);
    expect(refused('\\color{red\\input{x}}')).toMatch(/colour/);
    expect(refused('\\begin{array}{p{\\input{x}}}a\\end{array}')).toMatch(/columns/);
    expect(refused('\\begin{cases}a&b&c\\end{cases}')).toMatch(/more than 2 columns/);
  });

  it('keeps ordinary model math as written, comments dropped and display environments made inner ones', () => {
    const written = (source: string, display = false) => {
      const result = safeMath(source, display);
      expect(result.ok, source).toBe(true);
      return result.ok ? result.tex : '';
    };
    expect(written('x %comment')).toBe('x');
    expect(written('a \\coloneqq \\mathscr{F}')).toBe('a \\coloneqq \\mathcal{F}');
    expect(written('\\frac12 + x^2_i')).toBe('\\frac{1}{2} + x^{2}_{i}');
    expect(written('\\begin{align} a &= b \\\\ c &= d \\end{align}', true)).toBe('\\begin{aligned} a & = b \\\\ c & = d \\end{aligned}');
    expect(written('α ≤ β')).toBe('\\alpha  \\leq  \\beta');
    expect(written('\\R')).toBe('\\mathbb{R}');
    // TeX's own argument rules: a token or a group, a command bringing its arguments, a control space kept
    expect(written('\\frac{\\frac ab}{\\frac cd}')).toBe('\\frac{\\frac{a}{b}}{\\frac{c}{d}}');
    expect(written('x^\\frac12 + a_\\alpha^2')).toBe('x^{\\frac{1}{2}} + a_{\\alpha}^{2}');
    expect(written('\\circ\\ ')).toBe('\\circ\\ ');
    expect(written('\\sqrt [3]{x} \\label{eq:1}')).toBe('\\sqrt[3]{x}');
  });
});

describe('TeX with pdflatex', () => {
  it('compiles every name the allow-list writes', needs(PROGRAMS, latex), () => {
    const folder = mkdtempSync(path.join(tmpdir(), 'folio-tex-names-'));
    const lines = [
      ...[...MATH_SYMBOLS].filter((name) => !['left', 'right', 'middle', 'hline', 'limits', 'nolimits', 'not'].includes(name) && !/^[Bb]ig/.test(name)).map((name) => `$\\${name}$`),
      ...[...MATH_COMMANDS].map((name) => `$\\${name}{x}{y}$`),
      ...Object.keys(MATH_RENAMED).map((name) => `$${(safeMath(`\\${name}`, false) as { tex: string }).tex}{x}$`),
      ...Object.values(UNICODE_MATH).map((tex) => `$${tex}$`),
      '$\\left( \\bigl( \\Bigl[ x \\Bigr] \\bigr) \\middle| y \\right)$ $\\sum\\limits_i \\int\\nolimits_0 \\not= $',
    ];
    writeFileSync(path.join(folder, 'names.tex'), documentLatex([{ page: 1, markdown: 'x' }], { title: 'T', image: () => undefined }).text.replace('\\end{document}', () => `${lines.join('\n\n')}\n\\end{document}`));
    const run = compileTex(folder, 'names.tex', false);
    expect(run.errors).toEqual([]);
  });

  // exported once, compiled twice: a 10,000-column table makes 667 parts to typeset
  const { canary, touched } = outsideFiles();
  const pages = hostileMarkdownPages(canary, touched).map((markdown, index) => ({ page: index + 1, markdown }));
  const { text: tex, warnings } = documentLatex(pages, { title: 'Hostile ^^5cinput{x} \\end{document}', image: () => undefined });

  for (const shellEscape of [false, true]) {
    it(`compiles the hostile set ${shellEscape ? 'with' : 'without'} -shell-escape: nothing read or written outside, no command, every page there`, { ...needs(PROGRAMS, latex), timeout: 400_000 }, () => {
      const folder = mkdtempSync(path.join(tmpdir(), 'folio-tex-hostile-'));
      writeFileSync(path.join(folder, 'hostile.tex'), tex);
      mkdirSync(path.join(folder, 'sub'));
      const run = compileTex(folder, 'hostile.tex', shellEscape);
      expect(run.errors).toEqual([]);
      expect(run.status).toBe(0);
      expect(run.readOutside).toEqual([]);
      expect(run.writtenOutside).toEqual([]);
      if (run.commands) expect(run.commands).toEqual([]);
      expect(existsSync(touched)).toBe(false);
      expect(existsSync(path.join(folder, 'Makefile'))).toBe(false);
      const text = pdfText(run.pdf);
      expect(text).not.toContain('CANARY SECRET');
      expect(text).toContain(LAST_PAGE_MARKER);
      expect(text).toMatch(/h9999/);
      expect(text).toMatch(/r64c2/);
      // every line of the .tex stays far inside TeX's input buffer
      expect(Math.max(...tex.split('\n').map((line) => line.length))).toBeLessThan(5_000);
      const said = warnings.map((warning) => `page ${warning.page}: ${warning.message}`).join('\n');
      expect(said).toMatch(/page 1: the formula .*\\url.* was written as text/);
      expect(said).toMatch(/page 3: the formula .*\\openout.* was written as text/);
      expect(said).toMatch(/page 7: control characters \(U\+001B/);
      expect(said).toMatch(/page 11: pdflatex cannot set the characters 漢 字 П р и в е т/);
      expect(said).toMatch(/page 14: a table of 10000 columns .* in 667 parts/);
      expect(said).not.toMatch(/page 10:/);
    });
  }
});
