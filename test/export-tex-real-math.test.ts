/**
 * The TeX export's allow-list against real-world math: every formula of the LaTeX sources in
 * ../shared/real-docs/texlive (TeX Live's publisher and science package documentation, about 4,800
 * formulas: inline `$...$`, `\[...\]`, equation/align/gather/multline) exported as a model would
 * write them and compiled with pdflatex: no LaTeX error. Formulas using a document's own macros
 * (`\abs`, `\norm`) are refused and written as text, which is counted, not failed.
 */

import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { documentLatex } from '../shared/export/latex.js';
import { missingPrograms, needs, PROGRAMS, REAL_DOCS } from './environment.js';
import { REAL_DOCS_DIR, realDocsProblem } from './real-docs/real-docs-folder.js';
import { compileTex } from './tex-compile.js';

const sources = path.join(REAL_DOCS_DIR, 'texlive');

function formulasOf(text: string): { source: string; display: boolean }[] {
  const found: { source: string; display: boolean }[] = [];
  for (const match of text.matchAll(/(?<![\\$])\$([^$]{1,300})\$(?!\$)/g)) found.push({ source: match[1]!.replace(/\n/g, ' '), display: false });
  for (const match of text.matchAll(/\\begin\{(equation\*?|align\*?|gather\*?|multline\*?)\}([\s\S]{1,1500}?)\\end\{\1\}/g)) found.push({ source: `\\begin{${match[1]}}${match[2]}\\end{${match[1]}}`, display: true });
  for (const match of text.matchAll(/\\\[([\s\S]{1,1000}?)\\\]/g)) found.push({ source: match[1]!, display: true });
  return found;
}

describe('the TeX export on real-world math', () => {
  it('compiles every formula of TeX Live\'s documentation sources with no LaTeX error', { ...needs(REAL_DOCS, realDocsProblem), ...needs(PROGRAMS, missingPrograms({ pdflatex: 'texlive-latex-base' })), timeout: 600_000 }, () => {
    const files = execFileSync('find', [sources, '-name', '*.tex'], { encoding: 'utf8' }).trim().split('\n');
    const formulas = files.flatMap((file) => formulasOf(readFileSync(file, 'utf8').replace(/(?<!\\)%.*$/gm, '')));
    expect(formulas.length).toBeGreaterThan(4000);
    const pages = formulas.map((formula, index) => ({ page: index + 1, markdown: formula.display ? `$$\n${formula.source.replace(/\n\s*\n/g, '\n')}\n$$` : `Formula $${formula.source}$ here.` }));
    const { text, warnings } = documentLatex(pages, { title: 'Real math', image: () => undefined });
    const folder = mkdtempSync(path.join(tmpdir(), 'folio-tex-real-'));
    writeFileSync(path.join(folder, 'real.tex'), text);
    const run = compileTex(folder, 'real.tex', false);
    expect(run.errors).toEqual([]);
    const refused = warnings.filter((warning) => /was written as text/.test(warning.message)).length;
    console.log(`${formulas.length} formulas: ${refused} refused by the allow-list, ${warnings.filter((warning) => /not valid LaTeX/.test(warning.message)).length} rejected by KaTeX, 0 LaTeX errors`);
  });
});
