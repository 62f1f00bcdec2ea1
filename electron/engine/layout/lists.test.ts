import { describe, expect, it } from 'vitest';
import { listMarker, nestingDepths, renderList, stripMarker } from './lists.js';
import { lineOf } from './text-run-fixtures.js';
import { renderInline } from './inline-markdown.js';

describe('list markers', () => {
  it('recognises bullets, numbers, letters and roman numerals', () => {
    expect(listMarker('• Apples')).toMatchObject({ text: '•', ordered: false, rest: 'Apples' });
    expect(listMarker('- Pears')).toMatchObject({ text: '-', ordered: false });
    expect(listMarker('12) Plums')).toMatchObject({ ordered: true, number: 12 });
    expect(listMarker('b. Figs')).toMatchObject({ text: 'b.', ordered: true, strong: false });
    expect(listMarker('(iv) Dates')).toMatchObject({ text: '(iv)', ordered: true });
    expect(listMarker('(3) Use one-sided versions.')).toMatchObject({ text: '(3)', ordered: true, number: 3, strong: false, rest: 'Use one-sided versions.' });
  });

  it('renders a "(1)" item as an ordered one', () => {
    expect(renderList([{ marker: listMarker('(1) Rewrite.')!, x0: 50, markdown: 'Rewrite.' }], 10)).toBe('1) Rewrite.');
  });

  it('does not take a hyphenated word, a decimal or a half-open parenthesis for a marker', () => {
    expect(listMarker('-3 degrees at night')).toBeUndefined();
    expect(listMarker('3.5 metres of rope')).toBeUndefined();
    expect(listMarker('(a. Smith)')).toBeUndefined();
    expect(listMarker('(1. Smith)')).toBeUndefined();
    expect(listMarker('(2010) was a dry year')).toBeUndefined();
  });
});

describe('lists', () => {
  it('nests items by the indentation of their markers and returns to outer levels', () => {
    expect(nestingDepths([{ x0: 50 }, { x0: 70 }, { x0: 70 }, { x0: 90 }, { x0: 50 }], 10)).toEqual([0, 1, 1, 2, 0]);
  });

  it('indents sub-lists under their parent item and keeps numbers', () => {
    const markdown = renderList(
      [
        { marker: listMarker('• Bedding')!, x0: 50, markdown: 'Bedding' },
        { marker: listMarker('10. Six blankets')!, x0: 70, markdown: 'Six blankets' },
        { marker: listMarker('11. Two mats')!, x0: 70, markdown: 'Two mats' },
        { marker: listMarker('(a) Radio')!, x0: 50, markdown: 'Radio' },
      ],
      10,
    );
    expect(markdown).toBe('- Bedding\n  10. Six blankets\n  11. Two mats\n- (a) Radio');
  });

  it('strips a marker that is its own run or the start of the text', () => {
    expect(renderInline([stripMarker(lineOf(50, 0, '•', 'Lamp oil'), listMarker('• Lamp oil')!)])).toBe('Lamp oil');
    expect(renderInline([stripMarker(lineOf(50, 0, '2. Open the taps'), listMarker('2. Open the taps')!)])).toBe('Open the taps');
  });
});
