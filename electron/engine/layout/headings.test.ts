import { describe, expect, it } from 'vitest';
import { fontStatistics, headingLevel, numberingDepth, type Outline } from './headings.js';
import { lineOf } from './text-run-fixtures.js';

const stats = fontStatistics(
  new Map([
    [10, 5000],
    [18, 40],
    [14, 120],
    [9, 300],
  ]),
  [18, 14, 14.2, 10, 9],
);

describe('headings', () => {
  it('takes the size most characters are set in as the body size, and ranks larger sizes', () => {
    expect(stats.bodySize).toBe(10);
    expect(stats.headingSizes).toEqual([18, 14.2]);
  });

  it('gives levels by size rank, and the next level to a bold line at body size', () => {
    const level = (text: string, size: number, bold = false, boldShare = bold ? 1 : 0) =>
      headingLevel({ text, lines: [lineOf(0, 0, [text, { size, bold }])], boldShare }, stats);
    expect(level('Annual Report', 18)).toBe(1);
    expect(level('Findings', 14)).toBe(2);
    expect(level('Method details', 10, true)).toBe(3);
    expect(level('Plain body line', 10)).toBeUndefined();
  });

  it('never makes a paragraph, a sentence or a line of names a heading', () => {
    const long = 'word '.repeat(60).trim();
    const lines = [0, 12, 24, 36].map((y) => lineOf(0, y, [long.slice(0, 40), { size: 14 }]));
    expect(headingLevel({ text: long, lines, boldShare: 0 }, stats)).toBeUndefined();
    const sentence = 'This bold sentence ends with a period.';
    expect(headingLevel({ text: sentence, lines: [lineOf(0, 0, [sentence, { bold: true }])], boldShare: 1 }, stats)).toBeUndefined();
    const names = 'Ann Lee, Bo Chan, Cy Diaz, Di Evans';
    expect(headingLevel({ text: names, lines: [lineOf(0, 0, [names, { size: 14 }])], boldShare: 0 }, stats)).toBeUndefined();
  });

  it('never makes a row of cells set far apart a heading, a number set apart before a title aside', () => {
    const spread = (left: string, right: string, size = 10) => {
      const [first, second] = [lineOf(0, 0, [left, { size, bold: true }]), lineOf(0, 0, [right, { size, bold: true }])];
      const shifted = second.runs.map((run) => ({ ...run, x0: run.x0 + first.x1 + 6 * size, x1: run.x1 + first.x1 + 6 * size }));
      const line = { ...first, runs: [...first.runs, ...shifted], x1: shifted.at(-1)!.x1 };
      return headingLevel({ text: `${left} ${right}`, lines: [line], boldShare: 1 }, stats);
    };
    expect(spread('Hall repairs', '$4.2M')).toBeUndefined();
    expect(spread('Item', 'Cost', 14)).toBeUndefined();
    expect(spread('2.1', 'Results')).toBe(3);
    expect(spread('Chapter 4', 'Methods', 18)).toBe(1);
  });

  it('never makes a formula or a long bold sentence a heading', () => {
    const bold = (text: string) => headingLevel({ text, lines: [lineOf(0, 0, [text, { bold: true }])], boldShare: 1 }, stats);
    expect(bold('x = a + b')).toBeUndefined();
    expect(bold('The following corollary holds for every one of the stations')).toBeUndefined();
    expect(headingLevel({ text: 'x = a + b', lines: [lineOf(0, 0, ['x = a + b', { size: 18 }])], boldShare: 0 }, stats)).toBeUndefined();
  });

  it('puts a numbered subsection one level per number below its top-level section, whatever its size', () => {
    const outline: Outline = {};
    const level = (text: string, size: number) => headingLevel({ text, lines: [lineOf(0, 0, [text, { size }])], boldShare: 0 }, stats, outline);
    expect(level('2 Methods', 14)).toBe(2);
    expect(level('2.3 Sampling', 14)).toBe(3);
    expect(level('2.3.1 Gauges', 14)).toBe(4);
    expect(numberingDepth('2023 Results')).toBeUndefined();
  });

  it('takes a larger size that carries much of the text for text, not headings (body text beside smaller references)', () => {
    const references = fontStatistics(new Map([[8, 3000], [10, 1200], [14.5, 40]]), [8, 10, 14.5]);
    expect(references.bodySize).toBe(8);
    expect(references.textSizes).toEqual([10]);
    expect(references.headingSizes).toEqual([14.5]);
    const level = (text: string, size: number, boldShare = 0) => headingLevel({ text, lines: [lineOf(0, 0, [text, { size, bold: boldShare > 0 }])], boldShare }, references);
    expect(level('It follows', 10)).toBeUndefined();
    expect(level('Acknowledgements', 10, 1)).toBe(2);
    expect(level('References', 14.5)).toBe(1);
  });

  it('never makes prose a heading below a title size: a sentence of many words, or lines that wrap', () => {
    const at = (text: string, size: number, facts: { boldShare?: number; wraps?: boolean } = {}) =>
      headingLevel({ text, lines: [lineOf(0, 0, [text, { size }])], boldShare: facts.boldShare ?? 0, wraps: facts.wraps }, stats);
    expect(at('This bound is the best one can hope for.', 14)).toBeUndefined();
    expect(at('Note: starting on this page, vertical rules are added at the margins.', 14, { boldShare: 1 })).toBeUndefined();
    expect(at('The authors thank the organisers of the workshop where', 14, { wraps: true })).toBeUndefined();
    expect(at('Why do the matrix commands stop working when I add the package?', 14, { boldShare: 1, wraps: true })).toBe(2);
    expect(at('A Long Title of a Paper That Wraps onto a Second Line', 18, { wraps: true })).toBe(1);
    expect(at('2 Related work.', 14)).toBe(2);
  });
});
