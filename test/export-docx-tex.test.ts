/** The Word and LaTeX exports opened by the programs people use: LibreOffice renders the .docx, pdflatex compiles the .tex. */

import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { documentDocx } from '../shared/export/docx.js';
import { SAMPLE_PAGES } from '../shared/export/export-sample.js';
import { documentLatex } from '../shared/export/latex.js';
import { missingPrograms, needs, PROGRAMS } from './environment.js';

const office = missingPrograms({ soffice: 'libreoffice-writer-nogui', pdftotext: 'poppler-utils' });
const latex = missingPrograms({ pdflatex: 'texlive-latex-base', pdftotext: 'poppler-utils' });

function pdfText(pdf: string): string {
  return execFileSync('pdftotext', ['-layout', pdf, '-'], { encoding: 'utf8' });
}

describe('DOCX in LibreOffice', () => {
  it('renders the tables, equations, lists and footnotes', needs(PROGRAMS, office), () => {
    const folder = mkdtempSync(path.join(tmpdir(), 'folio-docx-'));
    return documentDocx(SAMPLE_PAGES, { title: 'Report', image: () => undefined }).then(({ data }) => {
      writeFileSync(path.join(folder, 'report.docx'), data);
      // a profile of its own, so a LibreOffice already running elsewhere does not take the job
      execFileSync('soffice', [`-env:UserInstallation=file://${folder}/profile`, '--headless', '--convert-to', 'pdf', '--outdir', folder, path.join(folder, 'report.docx')], { stdio: 'ignore', timeout: 120_000 });
      const text = pdfText(path.join(folder, 'report.pdf'));
      expect(text).toMatch(/Region\s+Total/);
      expect(text).toMatch(/North\s+Q1\s+10/);
      expect(text).toMatch(/E\s*=\s*mc\s*2/);
      expect(text).toContain('∑');
      expect(text).toContain('∫');
      expect(text).toMatch(/1\.\s+step one/);
      expect(text).toContain('Figures from the regional office.');
      expect(text).toContain('Costs $5 & more; 50% of #3');
    });
  });
});

describe('TeX with pdflatex', () => {
  it('compiles without errors and shows the text, the table and the math', needs(PROGRAMS, latex), () => {
    const folder = mkdtempSync(path.join(tmpdir(), 'folio-tex-'));
    const { text: tex, warnings } = documentLatex(SAMPLE_PAGES, { title: 'Report #1 & more', image: () => undefined });
    expect(warnings).toEqual([]);
    writeFileSync(path.join(folder, 'report.tex'), tex);
    // -halt-on-error: any LaTeX error fails the run, so a compile that passes had none
    execFileSync('pdflatex', ['-interaction=nonstopmode', '-halt-on-error', '-no-shell-escape', 'report.tex'], { cwd: folder, stdio: 'ignore', timeout: 120_000 });
    const text = pdfText(path.join(folder, 'report.pdf'));
    expect(text).toContain('Report #1 & more');
    expect(text).toMatch(/Region\s+Total/);
    expect(text).toMatch(/North\s+Q1\s+10/);
    expect(text).toContain('Figures from the regional office.');
    // pdflatex's default OT1 fonts draw ~ and _ with glyphs pdftotext reads otherwise, so the check stops short of them
    expect(text).toContain('Costs $5 & more; 50% of #3 use');
    expect(text).toContain('{braces} \\ and stays text.');
    expect(tex).toContain('\\multicolumn{2}');
    expect(tex).toContain('\\sum_{i=1}^{n}');
    expect(tex).toContain('\\footnote{Figures from the regional office.}');
  });

  it('still compiles when a formula is rejected, a span overflows and text has characters pdflatex lacks, with warnings naming the page', needs(PROGRAMS, latex), () => {
    const folder = mkdtempSync(path.join(tmpdir(), 'folio-tex-'));
    const pages = [{ page: 4, markdown: 'Bad $\\frac{$ and $\\def\\x{1}\\x$ and 漢字 α.\n\n<table><tr><td rowspan="3">a</td><td colspan="4">b</td></tr><tr><td>c</td><td>d</td></tr></table>\n\n![Plot](x_assets/missing.png)' }];
    const { text: tex, warnings } = documentLatex(pages, { title: 'T', image: () => undefined });
    writeFileSync(path.join(folder, 'bad.tex'), tex);
    execFileSync('pdflatex', ['-interaction=nonstopmode', '-halt-on-error', '-no-shell-escape', 'bad.tex'], { cwd: folder, stdio: 'ignore', timeout: 120_000 });
    expect(warnings.every((warning) => warning.page === 4)).toBe(true);
    expect(warnings.map((warning) => warning.message).join('\n')).toMatch(/not valid LaTeX[\s\S]*uses \\def[\s\S]*spans 3 rows[\s\S]*spans 4 columns[\s\S]*missing.png[\s\S]*漢 字/);
    expect(pdfText(path.join(folder, 'bad.pdf'))).toMatch(/\\frac\{/);
  });
});
