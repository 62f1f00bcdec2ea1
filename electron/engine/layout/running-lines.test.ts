import { describe, expect, it } from 'vitest';
import type { TextRun } from './geometry.js';
import { buildFragments } from './lines.js';
import { bandLinesOf, runningBlocks, runningLines } from './running-lines.js';
import { textRun } from './text-run-fixtures.js';

const HEIGHT = 800;

function run(text: string, x0: number, y0: number, fontSize = 8): TextRun {
  return { text, x0, x1: x0 + text.length * fontSize * 0.5, y0, y1: y0 + fontSize, fontSize, fontName: 'F', bold: false, italic: false, monospace: false };
}

/** A header in two halves (the right one a point higher, as OCR places it), body text, and a page number. */
function page(number: number): TextRun[] {
  return [
    run('Northport Harbour Board', 50, 30),
    run('Works Programme 2027', 420, 29),
    run('Winter storms removed armour stone from the breakwater.', 50, 300, 11),
    run(`Page ${number} of 4`, 280, 770),
  ];
}

describe('running lines', () => {
  it('takes the lines a neighbour repeats and the page number, and leaves the body', () => {
    const lines = buildFragments(page(2));
    const neighbour = bandLinesOf(buildFragments(page(3)), HEIGHT);
    const running = runningLines(lines, [neighbour], HEIGHT);
    expect([...running].map(([line, band]) => [line.runs.map((r) => r.text).join(''), band])).toEqual([
      ['Northport Harbour Board', 'top'],
      ['Works Programme 2027', 'top'],
      ['Page 2 of 4', 'bottom'],
    ]);
  });

  it('takes a header set smaller than the body on a page alone, by its size', () => {
    const running = runningLines(buildFragments(page(2)), [], HEIGHT);
    expect([...running.values()].sort()).toEqual(['bottom', 'top', 'top']);
  });

  it("measures the body by a manual's prose, not its longer listings: a head smaller than the prose goes, a listing's first line stays", () => {
    const mono = (text: string, y0: number) => ({ ...run(text, 60, y0, 10), monospace: true });
    const listing = Array.from({ length: 24 }, (_, i) => mono(`\\drawgrid{${i},${i + 1},${i + 2},${i + 3}}{cell-${i}}`, 200 + i * 13));
    const prose = [run('A grid is drawn from its list of cells.', 60, 150, 12), run('Each cell names its row and column.', 60, 166, 12)];
    const runs = [run('gridlines package manual', 400, 40, 10), ...prose, ...listing, mono('\\begin{grid}', 70), run('4', 500, 790, 10)];
    const running = runningLines(buildFragments(runs), [], HEIGHT);
    expect([...running].map(([line]) => line.runs.map((r) => r.text).join('')).sort()).toEqual(['4', 'gridlines package manual']);
  });

  it('takes the running title and folio of a book page printed well inside a larger sheet, on the page alone', () => {
    const body = Array.from({ length: 20 }, (_, i) => run(`Line ${i + 1} of the chapter, set in the body size and spacing.`, 140, 200 + i * 15, 11));
    const runs = [run('THE LONG WINTER', 250, 160), ...body, run('47', 290, 520, 9)];
    const running = runningLines(buildFragments(runs), [], HEIGHT);
    expect([...running].map(([line, band]) => [line.runs.map((r) => r.text).join(''), band])).toEqual([
      ['THE LONG WINTER', 'top'],
      ['47', 'bottom'],
    ]);
  });

  it('keeps a lone number near the foot of a short page when text lies below it (a fraction numerator)', () => {
    const body = Array.from({ length: 6 }, (_, i) => run(`Line ${i + 1} of a short page, in the body size.`, 140, 100 + i * 15, 11));
    const runs = [...body, run('1', 300, 200, 11), run('P(|X| > k) < k', 200, 206, 11), run('k', 300, 213, 11)];
    expect(runningLines(buildFragments(runs), [], HEIGHT).size).toBe(0);
  });

  it('keeps a body-size line at the top that no neighbour repeats, and takes only the page number', () => {
    const runs = page(2).map((r) => (r.y0 < 100 ? run(r.text, r.x0, r.y0, 11) : r));
    const running = runningLines(buildFragments(runs), [], HEIGHT);
    expect([...running.values()]).toEqual(['bottom']);
  });

  it('keeps lines in the bands that continue the body at its size and spacing, whatever neighbours repeat', () => {
    const numbered = (first: number) => Array.from({ length: 40 }, (_, i) => run(`${first + i}. Line ${first + i} of the transcript.`, 50, 40 + i * 18, 12));
    const neighbour = bandLinesOf(buildFragments(numbered(41)), HEIGHT);
    expect(runningLines(buildFragments(numbered(1)), [neighbour], HEIGHT).size).toBe(0);
  });

  it('writes a kept header left to right along its row, and an empty block when it is left out', () => {
    const running = runningLines(buildFragments(page(2)), [bandLinesOf(buildFragments(page(1)), HEIGHT)], HEIGHT);
    expect(runningBlocks(running, 'top', true).map((b) => b.markdown)).toEqual(['Northport Harbour Board', 'Works Programme 2027']);
    expect(runningBlocks(running, 'bottom', false)).toMatchObject([{ kind: 'footer', markdown: '' }]);
  });

  it("never takes a page's only text, page number or margin matter though it looks", () => {
    for (const only of ['Page 1', 'vi', 'Evaluation only. Copyright 2012 Example Ltd.', 'Document 1: Page 1']) {
      const lines = buildFragments([textRun(only, 50, 30)]);
      const neighbour = bandLinesOf(buildFragments([textRun(only.replace('1', '2'), 50, 30)]), HEIGHT);
      expect(runningLines(lines, [neighbour], HEIGHT).size, only).toBe(0);
    }
  });

  it("takes a page's only text when it is all download stamps and page counts", () => {
    const stamps = (n: number) => buildFragments([textRun(`Downloaded from https://example.org/a/${n} on 12 March 2024`, 50, 770), textRun(`Page ${n} of 2`, 270, 780)]);
    expect(runningLines(stamps(2), [bandLinesOf(stamps(1), HEIGHT)], HEIGHT).size).toBe(2);
  });

  it('keeps the heading and paragraph of a template-made document that neighbours repeat but for a number, and takes its page number', () => {
    const certificate = (n: number) =>
      buildFragments([
        textRun(`Certificate No. ${n}`, 200, 40, { size: 16, bold: true }),
        textRun(`This certifies that boiler ${n} passed its annual pressure test.`, 60, 80),
        textRun(`Page ${n} of 80`, 270, 770),
      ]);
    const neighbours = [bandLinesOf(certificate(11), HEIGHT), bandLinesOf(certificate(13), HEIGHT)];
    const running = runningLines(certificate(12), neighbours, HEIGHT);
    expect([...running].map(([line, band]) => [line.runs.map((r) => r.text).join(''), band])).toEqual([['Page 12 of 80', 'bottom']]);
  });

  it('keeps a numbered heading at the top of a page, and the last row of a table at its foot', () => {
    const body = Array.from({ length: 12 }, (_, i) => run(`Line ${i + 1} of the section, set in the body size and spacing.`, 50, 120 + i * 15, 11));
    const runs = [run('2', 50, 60, 14), run('Generic names', 75, 60, 14), ...body, run('2021', 50, 760, 11), run('Hollin Brook', 200, 760, 11), run('34', 400, 760, 11)];
    expect(runningLines(buildFragments(runs), [], HEIGHT).size).toBe(0);
  });

  it("keeps a table's column of row numbers that the body's left edge lines up with", () => {
    const prose = Array.from({ length: 4 }, (_, i) => run(`Paragraph line ${i + 1} above the table, at the body's left edge.`, 50, 100 + i * 15, 11));
    const rows = Array.from({ length: 8 }, (_, i) => [run(`${i + 1}`, 50, 200 + i * 12, 9), run(`Pump station ${i + 1}`, 90, 200 + i * 12, 9)]).flat();
    expect(runningLines(buildFragments([...prose, ...rows]), [], HEIGHT).size).toBe(0);
  });

  it("keeps a continued table's title, subtitle and column headings that every page of the table repeats, and takes its running head", () => {
    // a table over two pages: the same title's first line, subtitle and headings at the same heights, the title's last line and the figures not
    const tablePage = (continued: boolean, first: number) =>
      buildFragments([
        run('Harbour Board annual statistics', 50, 20, 7),
        run('Table 2. Vessels entering the harbour, by tonnage class and month: 2019', 50, 40, 9),
        run(continued ? 'through 2026—Continued' : 'through 2026', 90, 51, 9),
        run('[In hundreds]', 260, 63, 9),
        run('Tonnage class', 330, 76, 9),
        run('Month', 50, 90, 9),
        run('Small', 300, 90, 9),
        run('Large', 380, 90, 9),
        ...Array.from({ length: 30 }, (_, i) => [run(`${first + i}`, 50, 104 + i * 12, 9), run(`${(first + i) * 3}`, 300, 104 + i * 12, 9), run(`${(first + i) * 7}`, 380, 104 + i * 12, 9)]).flat(),
      ]);
    const running = runningLines(tablePage(true, 31), [bandLinesOf(tablePage(false, 1), HEIGHT)], HEIGHT);
    expect([...running.keys()].map((line) => line.runs.map((r) => r.text).join(''))).toEqual(['Harbour Board annual statistics']);
  });

  it('takes a running head whose page number is part of its text, or an article page beside a title, read from the page alone', () => {
    const body = (top: number) => Array.from({ length: 20 }, (_, i) => run(`Line ${i + 1} of the section, set in the body size and spacing.`, 50, top + i * 15, 11));
    const texts = (lines: Map<unknown, unknown>) => [...lines.keys()].map((line) => (line as { runs: { text: string }[] }).runs.map((r) => r.text).join(''));
    // a surname and page at the top right, an issue line and a journal at the foot, a title and article page
    expect(texts(runningLines(buildFragments([run('Hale 2', 500, 40, 11), ...body(90)]), [], HEIGHT))).toEqual(['Hale 2']);
    const foot = [run('2 / DRAFT FOR COMMENT', 50, 770), run('Harbour Engineering Notes', 450, 770)];
    expect(texts(runningLines(buildFragments([...body(90), ...foot]), [], HEIGHT))).toEqual(['2 / DRAFT FOR COMMENT', 'Harbour Engineering Notes']);
    const head = [run('Tides of the Northern Basin', 50, 40), run('214:7', 520, 40)];
    expect(texts(runningLines(buildFragments([...head, ...body(90)]), [], HEIGHT))).toEqual(['Tides of the Northern Basin', '214:7']);
  });

  it("measures a foot's blank space in lines of its size where its box is taller (a link's area)", () => {
    const body = Array.from({ length: 20 }, (_, i) => run(`Line ${i + 1} of the section, set in the body size and spacing.`, 50, 464 + i * 15, 11));
    // the foot's boxes are twice its type's height; the body ends 14pt above it, more than a line of 8pt type
    const foot = [{ ...run('Filed with the Harbour Board 2027-03-14, see the register for later copies of it.', 50, 774), y1: 790 }, { ...run('2', 533, 774), y1: 790 }];
    const running = runningLines(buildFragments([...body, ...foot]), [], HEIGHT);
    expect([...running.keys()].map((line) => line.runs.map((r) => r.text).join('')).sort()).toEqual(['2', 'Filed with the Harbour Board 2027-03-14, see the register for later copies of it.']);
  });

  it('keeps a caption, a larger heading, a lone time, a footnote and a line that runs on into the body, whatever numbers they hold', () => {
    const body = (top: number) => Array.from({ length: 20 }, (_, i) => run(`Line ${i + 1} of the section, set in the body size and spacing.`, 50, top + i * 15, 11));
    for (const first of [run('Table 2', 250, 40, 11), run('Chapter 2', 50, 40, 16), run('12:30', 290, 40, 11)]) {
      expect(runningLines(buildFragments([first, ...body(90)]), [], HEIGHT).size, first.text).toBe(0);
    }
    expect(runningLines(buildFragments([run('Line 0 of the section, set in the body size and spacing, to 2', 50, 75, 11), ...body(90)]), [], HEIGHT).size).toBe(0);
    // footnotes set apart at the foot, above the page number: a mark first, a number last
    for (const note of ['1 The map, drawn in 1962 for the river authority, was returned in 2004.', '2 See the county survey, p. 12']) {
      const running = runningLines(buildFragments([...body(90), run(note, 50, 700, 9), run('3', 300, 770, 9)]), [], HEIGHT);
      expect([...running.keys()].map((line) => line.runs.map((r) => r.text).join('')), note).toEqual(['3']);
    }
  });

  it('takes a page number centred under a paragraph set in its size, and line numbers that outnumber the text', () => {
    const numbers = Array.from({ length: 50 }, (_, i) => run(`${521 + i}`, 48, 100 + i * 11, 6));
    const text = Array.from({ length: 3 }, (_, i) => run(`Reference ${i + 1} of the list, set small.`, 73, 640 + i * 11, 7));
    const runs = [...numbers, ...text, run('11', 284, 674, 7)];
    const running = runningLines(buildFragments(runs), [], HEIGHT);
    expect(running.size).toBe(51);
    expect([...running.values()].filter((place) => place === 'side')).toHaveLength(50);
  });
});
