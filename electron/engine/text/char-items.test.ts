import { describe, expect, it } from 'vitest';
import { charItems, type PageChar } from './char-items.js';

const SIZE = 10;

/** Characters of `text` set left to right from (x, y) in a 10 pt font whose glyphs are 5 pt wide. */
function word(text: string, x: number, y = 700, font = 'F1'): PageChar[] {
  return [...text].map((char, i) => ({ text: char, generated: false, font, a: SIZE, b: 0, c: 0, d: SIZE, x: x + i * 5, y, advance: 5 }));
}

const generated = (text: string): PageChar => ({ text, generated: true, font: '', a: 0, b: 0, c: 0, d: 0, x: 0, y: 0, advance: 0 });

function items(chars: PageChar[]) {
  return charItems(chars, {}, new Map()).items.map((item) => ({ str: item.str, x: item.transform[4], width: item.width }));
}

describe('characters become text items', () => {
  it('joins a line of words with the spaces PDFium inferred, one item wide as the line', () => {
    expect(items([...word('Total', 100), generated(' '), ...word('cost', 128)])).toEqual([{ str: 'Total cost', x: 100, width: 48 }]);
  });

  it('ends an item at a gap wider than a word space, as between table columns', () => {
    expect(items([...word('Rent', 100), generated(' '), ...word('1200', 200)])).toEqual([
      { str: 'Rent', x: 100, width: 20 },
      { str: '1200', x: 200, width: 20 },
    ]);
  });

  it('ends an item at a line break, a change of font, and a step off the baseline', () => {
    const chars = [...word('one', 100), generated('\r'), generated('\n'), ...word('two', 100, 688), ...word('x', 115, 688, 'F2'), ...word('2', 120, 692, 'F2')];
    expect(items(chars).map((item) => item.str)).toEqual(['one', 'two', 'x', '2']);
  });

  it('composes an accent PDFium gives after the capital it sits over, raised, with that capital', () => {
    const chars = [...word('S', 100), { ...word('\u02C7', 100.3, 702.5)[0]! }, ...word('tast', 105)];
    expect(items(chars).map((item) => item.str)).toEqual(['\u0160tast']);
  });

  it('composes an accent set after its word with the letter under it, and drops the space PDFium put before it', () => {
    // TeX's \v{S}koda \'Ulfar as PDFium orders it: each raised accent after its word, between inferred spaces.
    const chars = [...word('Skoda', 100), generated(' '), word('\u02C7', 100.2, 702.5)[0]!, generated(' '), ...word('Ulfar', 130), generated(' '), word('\u00B4', 130.1, 702.5)[0]!];
    expect(items(chars).map((item) => item.str)).toEqual(['\u0160koda \u00DAlfar']);
  });

  it('composes an accent kerned back over the next letter, across a space PDFium inferred between them', () => {
    const chars = [...word('Jan', 100), word('\u00B4', 115)[0]!, generated(' '), ...word('ak', 115)];
    expect(items(chars).map((item) => item.str)).toEqual(['Jan\u00E1k']);
  });

  it('leaves an accent beside letters, not over one, as it is', () => {
    const chars = [...word('it', 100), word('\u00B4', 110)[0]!, ...word('s', 115)];
    expect(items(chars).map((item) => item.str)).toEqual(['it\u00B4s']);
  });

  it('drops a space PDFium inferred at the start of a line', () => {
    expect(items([generated(' '), ...word('lead', 100)])).toEqual([{ str: 'lead', x: 100, width: 20 }]);
  });
});
