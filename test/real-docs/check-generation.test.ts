import { describe, expect, it } from 'vitest';
import type { BuiltCheck } from '../../tools/bench/real-docs/bench-check.js';
import { displayRows, isStandardFormula } from '../../tools/bench/real-docs/display-math.js';
import { readStructure } from '../../tools/bench/real-docs/icdar.js';
import { cleanTexSource, readTexDocument } from '../../tools/bench/real-docs/latex-source.js';
import { PageFinder, type PdfText } from '../../tools/bench/real-docs/pdf-text.js';
import { runningLineChecks } from '../../tools/bench/real-docs/running-heads.js';
import { readTabular } from '../../tools/bench/real-docs/tex-tabular.js';
import { texToText } from '../../tools/bench/real-docs/tex-text.js';
import { tableChecks, tableHtml, type TruthTable } from '../../tools/bench/real-docs/truth-table.js';
import { expectSound } from './corruption.js';

describe('LaTeX text as it prints', () => {
  it('keeps words, emphasis, TeX quotes, dashes and accents', () => {
    expect(texToText("The \\emph{key} may ``contain'' 3--4 {\\bf bold} words~here, don't it?")).toBe('The key may \u201ccontain\u201d 3\u20134 bold words here, don\u2019t it?');
    expect(texToText("Erd\\H{o}s, G\\\"odel and Mu\\~noz met in Z\\'{\\i}rich \\& Ume\\aa{}")).toBe('Erdős, Gödel and Muñoz met in Zírich & Umeå');
  });

  it('refuses what prints otherwise: citations, inline math, line breaks, logos, small capitals', () => {
    for (const source of ['see~\\cite{knuth}', 'where $x$ is', 'first\\\\second', 'typeset with \\LaTeX', '\\textsc{Small}', 'a^2', 'an \\FOLIOVERBATIM example']) {
      expect(texToText(source), source).toBeUndefined();
    }
  });
});

describe('reading a LaTeX source', () => {
  const source = `\\documentclass{article}
\\newcommand{\\R}{\\mathbb{R}}
\\renewcommand{\\frac}{\\dfrac}
\\begin{document}
\\section{Introduction}
The first paragraph says one thing about the harbour.
It has a second sentence.

The second paragraph follows it directly, with a note\\footnote{A footnote.} inside.
We have
\\begin{equation}\\label{eq:one}
  a^2 + b^2 = c^2 ,
\\end{equation}
where the letters are lengths.
\\begin{verbatim}
\\begin{equation} x = y \\end{equation}
\\end{verbatim}
\\begin{table}\\caption{Costs}
\\begin{tabular}{lrr}\\hline
Item & 2024 & 2023 \\\\ \\hline
Quay & 120 & 135 \\\\
\\end{tabular}
\\end{table}
\\end{document}`;
  const doc = readTexDocument(cleanTexSource(source));

  it('gives the paragraphs in order, with a break where anything else stands between them', () => {
    const texts = doc.paragraphs.filter((p): p is string => p !== undefined);
    expect(texts[0]).toBe('The first paragraph says one thing about the harbour.\nIt has a second sentence.');
    expect(texts[1]).toMatch(/^The second paragraph follows it directly, with a note\\FOLIOFOOTNOTE\s+inside\./);
    // the two paragraphs follow each other with nothing between
    const first = doc.paragraphs.indexOf(texts[0]);
    expect(doc.paragraphs[first + 1]).toBe(texts[1]);
  });

  it('takes display math out with the text before it, and never from verbatim', () => {
    expect(doc.displays).toHaveLength(1);
    expect(doc.displays[0]).toMatchObject({ environment: 'equation' });
    expect(doc.displays[0]!.before.trim()).toMatch(/We have$/);
    expect(displayRows('equation', doc.displays[0]!.body)).toEqual(['a^2 + b^2 = c^2']);
  });

  it('reads tabulars out of their floats and knows what the document defines', () => {
    expect(doc.tabulars).toHaveLength(1);
    expect(readTabular(doc.tabulars[0]!)?.cells.map((c) => c.text)).toEqual(['Item', '2024', '2023', 'Quay', '120', '135']);
    expect(doc.defined).toEqual(new Set(['R', 'frac']));
  });
});

describe('display formulas as math checks', () => {
  it('checks each row of a multi-row display, numbering and alignment gone', () => {
    expect(displayRows('align', 'x &= a + b \\label{e1}\\\\\n y &= \\frac{a}{b}, \\nonumber \\\\[2pt] z &= 1 .')).toEqual(['x = a + b', 'y = \\frac{a}{b}', 'z = 1']);
    expect(displayRows('eqnarray', 'E &=& mc^2 \\\\ F &=& ma')).toEqual(['E = mc^2', 'F = ma']);
    // rows of a nested environment stay together
    expect(displayRows('align*', 'f(x) &= \\begin{cases} 1 & x > 0 \\\\ 0 & x \\le 0 \\end{cases}')).toHaveLength(1);
    // every second & of an align row starts another formula; an equation that is one split is rows
    expect(displayRows('alignat', '{3} x &= y & X &= Y & a &= b + c')).toEqual(['x = y', 'X = Y', 'a = b + c']);
    expect(displayRows('equation', '\\begin{split} a &= b + c \\\\ &= d . \\end{split}')).toEqual(['a = b + c', '= d']);
  });

  it('takes only standard LaTeX the document leaves alone', () => {
    expect(isStandardFormula('\\frac{a+b}{c} = \\sum_{i=1}^n x_i', new Set())).toBe(true);
    expect(isStandardFormula('\\frac{a+b}{c} = \\R', new Set(['R']))).toBe(false);
    expect(isStandardFormula('\\frac{a+b}{c} = 1', new Set(['frac']))).toBe(false);
    expect(isStandardFormula('\\bra{\\psi} = \\ket{\\phi}', new Set())).toBe(false);
    expect(isStandardFormula('x=1', new Set())).toBe(false);
  });
});

describe('tables as table checks', () => {
  const spanned = readTabular(`\\multicolumn{2}{c}{Costs} & Notes \\\\
\\multirow{2}{*}{Harbour} & 120 & old \\\\
 & 135 & new \\\\
Quay & 80 & none \\\\`)!;

  it('lays \\multicolumn and \\multirow out as spans, the slots below a \\multirow its own', () => {
    expect(spanned.cells).toEqual([
      expect.objectContaining({ row: 0, col: 0, colSpan: 2, text: 'Costs' }),
      expect.objectContaining({ row: 0, col: 2, text: 'Notes' }),
      expect.objectContaining({ row: 1, col: 0, rowSpan: 2, text: 'Harbour' }),
      expect.objectContaining({ row: 1, col: 1, text: '120' }),
      expect.objectContaining({ row: 1, col: 2, text: 'old' }),
      expect.objectContaining({ row: 2, col: 1, text: '135' }),
      expect.objectContaining({ row: 2, col: 2, text: 'new' }),
      expect.objectContaining({ row: 3, col: 0, text: 'Quay' }),
      expect.objectContaining({ row: 3, col: 1, text: '80' }),
      expect.objectContaining({ row: 3, col: 2, text: 'none' }),
    ]);
  });

  it('states neighbours and headings that hold on the table and fail once they change', () => {
    const checks = tableChecks(spanned, () => true, 20).map((spec): BuiltCheck => ({ page: 1, spec, truth: tableHtml(spanned) }));
    expect(checks.length).toBeGreaterThan(5);
    expect(checks.map((c) => c.spec)).toContainEqual({ type: 'table', cell: '135', left: 'Harbour', up: '120', top_heading: 'Costs' });
    for (const check of checks) expectSound(check);
  });

  it('says nothing of an empty slot, and checks only texts the page prints', () => {
    const sparse: TruthTable = {
      headerRows: 1,
      cells: [
        { row: 0, col: 0, rowSpan: 1, colSpan: 1, text: 'Name', usable: true },
        { row: 0, col: 1, rowSpan: 1, colSpan: 1, text: 'Size', usable: true },
        { row: 1, col: 0, rowSpan: 1, colSpan: 1, text: 'Alpha', usable: true },
        { row: 2, col: 1, rowSpan: 1, colSpan: 1, text: '12', usable: true },
      ],
    };
    const specs = tableChecks(sparse, (text) => text !== 'Size', 10);
    expect(specs).toContainEqual({ type: 'table', cell: 'Alpha', up: 'Name' });
    expect(specs.find((s) => s.type === 'table' && s.cell === '12')).toBeUndefined();
  });
});

describe('ICDAR 2013 structure files', () => {
  const xml = `<?xml version="1.0" encoding="UTF-8"?>
<document filename="x">
  <table id="1">
    <region id="1" page="2" row-increment="1" col-increment="0">
      <cell id="1" start-row="-1" start-col="1" end-col="2"><bounding-box x1="1" x2="2" y1="1" y2="2"/><content>Both
years</content></cell>
      <cell id="1" start-row="0" start-col="1"><content>2024</content></cell>
      <cell id="1" start-row="0" start-col="2"><content>2023</content></cell>
      <cell id="1" start-row="1" start-col="1"><content>5 &amp; 6</content></cell>
      <cell id="1" start-row="1" start-col="2" col-end="2"><content>7</content></cell>
    </region>
    <region id="2" page="3" row-increment="0" col-increment="2">
      <cell id="1" start-row="3" start-col="0"><content>9</content></cell>
    </region>
  </table>
</document>`;

  it('applies region increments, drops indices no cell uses, reads col-end as end-col, and splits tables by page', () => {
    const [first, second] = readStructure(xml, 'x.xml');
    expect(first).toMatchObject({ page: 2, startsHere: true });
    expect(first!.truth.cells).toEqual([
      { row: 0, col: 0, rowSpan: 1, colSpan: 2, text: 'Both years', usable: true },
      { row: 1, col: 0, rowSpan: 1, colSpan: 1, text: '2024', usable: true },
      { row: 1, col: 1, rowSpan: 1, colSpan: 1, text: '2023', usable: true },
      { row: 2, col: 0, rowSpan: 1, colSpan: 1, text: '5 & 6', usable: true },
      { row: 2, col: 1, rowSpan: 1, colSpan: 1, text: '7', usable: true },
    ]);
    expect(second).toMatchObject({ page: 3, startsHere: false, truth: { headerRows: 0, cells: [{ row: 0, col: 0, text: '9' }] } });
  });

  it('gives checks that pass on the table and fail once it changes', () => {
    const truth = readStructure(xml, 'x.xml')[0]!.truth;
    const checks = tableChecks(truth, () => true, 10).map((spec): BuiltCheck => ({ page: 2, spec, truth: tableHtml(truth) }));
    expect(checks.map((c) => c.spec)).toContainEqual({ type: 'table', cell: '7', left: '5 & 6', up: '2023', top_heading: 'Both years' });
    for (const check of checks) expectSound(check);
  });
});

describe('running heads and page numbers', () => {
  const page = (n: number, body: string[]) => ({ head: `Harbour Journal ${n} (2024)`, body, number: String(n + 4) });
  const pages = Array.from({ length: 6 }, (_, i) => page(i + 1, ['input', `Body text of page ${i + 1}, about the tides.`, `It ends with ${i % 2 ? 'the year 1995' : 'no number'}.`]));
  const pdf: PdfText = {
    pages: pages.map((p) => [p.head, ...p.body, p.number].join('\n')),
    lines: pages.map((p) => [p.head, ...p.body, p.number].map((text, i) => ({ text, yMin: 10 * i, yMax: 10 * i + 8 }))),
    twoColumnPages: new Set(),
  };
  const checks = runningLineChecks(pdf, new PageFinder(pdf.pages), (line) => line === 'input', 100);

  it('finds the running head and the page number, but not content repeated at the top of each page', () => {
    expect(checks.filter((c) => c.page === 2).map((c) => c.spec)).toEqual([{ type: 'absent', text: 'Harbour Journal 2 (2024)' }, { type: 'absent', text: '6', last_n: 4 }]);
    expect(checks.some((c) => c.spec.type === 'absent' && c.spec.text === 'input')).toBe(false);
    for (const check of checks) expectSound(check);
  });

  it('takes no caption for a running head, though its number keeps pace with the page', () => {
    const captioned = Array.from({ length: 6 }, (_, i) => [`Table ${i + 1}`, `Figures of the survey, part ${i + 1}.`, 'Harbour Journal', String(i + 1)]);
    const captionPdf: PdfText = {
      pages: captioned.map((lines) => lines.join('\n')),
      lines: captioned.map((lines) => lines.map((text, i) => ({ text, yMin: 10 * i, yMax: 10 * i + 8 }))),
      twoColumnPages: new Set(),
    };
    const found = runningLineChecks(captionPdf, new PageFinder(captionPdf.pages), () => false, 100).map((c) => c.spec);
    expect(found.filter((spec) => spec.type === 'absent' && spec.text.startsWith('Table'))).toEqual([]);
    expect(found).toContainEqual({ type: 'absent', text: '3', last_n: 4 });
  });
});

describe('ICDAR cell texts as the page prints them', () => {
  const pages = new PageFinder([
    'Visits by berth\nNorth quay\nmoorings 41 38\nnorway? no: Norway 9\nDepth(m) 12\nCount (k) 5\nCOUNT(K) 7',
    'North quay moorings in a legend\nand North quay moorings in the table',
  ]);

  it('puts back the spaces and capitals the ground truth lost, wherever the page prints the text one way', () => {
    expect(pages.printedAs(1, 'Northquaymoorings')).toBe('North quay moorings');
    expect(pages.printedAs(2, 'Northquaymoorings')).toBe('North quay moorings');
  });

  it('never takes a space out, and keeps the ground truth where the page prints it two ways or not at all', () => {
    expect(pages.printedAs(1, 'Depth (m)')).toBe('Depth (m)');
    expect(pages.printedAs(1, 'Count(k)')).toBe('Count(k)');
    expect(pages.printedAs(1, 'norway')).toBe('norway');
    expect(pages.printedAs(1, 'Denmark')).toBe('Denmark');
  });
});
