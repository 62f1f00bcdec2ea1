import { describe, expect, it } from 'vitest';
import { splitRow, type Line } from './lines.js';
import { layoutPage, type PageElement } from './page-layout.js';
import { lineOf, type RunStyle } from './text-run-fixtures.js';

const stats = { bodySize: 10, headingSizes: [16] };

/** Text fragments as the engine builds them, lines 12pt apart from `top`. */
function textLines(x0: number, top: number, ...lines: (string | [string, RunStyle])[]): PageElement[] {
  return lines.flatMap((line, i) => {
    const built: Line = lineOf(x0, top + i * 12, line);
    return splitRow(built.runs).map((fragment) => ({ ...fragment, kind: 'text' as const }));
  });
}

function markdown(elements: PageElement[]): string[] {
  return layoutPage(elements, stats).map((b) => b.markdown);
}

describe('page layout', () => {
  it('makes a heading, a paragraph and a list of a column', () => {
    const elements = [
      ...textLines(50, 40, ['Supplies', { size: 16 }]),
      ...textLines(50, 70, 'The wardens carry these up', 'every autumn:'),
      ...textLines(60, 100, '• Lamp oil', '• Dry firewood'),
    ];
    expect(markdown(elements)).toEqual(['# Supplies', 'The wardens carry these up every autumn:', '- Lamp oil\n- Dry firewood']);
  });

  it('joins a paragraph that a column break cuts in two', () => {
    const left = textLines(50, 40, 'The first column ends in the', 'middle of a sen-');
    const right = textLines(300, 40, 'tence that the second column', 'finishes here.');
    expect(markdown([...left, ...right])).toEqual(['The first column ends in the middle of a sentence that the second column finishes here.']);
  });

  it('splits two-line paragraphs at the gaps between them, though gaps are half of all line pitches', () => {
    const elements = [
      ...textLines(50, 40, 'First paragraph, first line', 'and its second line.'),
      ...textLines(50, 74, 'Second paragraph, first line', 'and its second line.'),
      ...textLines(50, 108, 'Third paragraph, first line', 'and its second line.'),
    ];
    expect(markdown(elements)).toHaveLength(3);
  });

  it('keeps the rows of a form on their own lines, read across', () => {
    const rows = [0, 1, 2].flatMap((i) => [
      ...textLines(50, 40 + i * 12, ['Name', {}]),
      ...textLines(150, 40 + i * 12, ['Value', {}]),
    ]);
    expect(markdown(rows)).toEqual(['Name Value', 'Name Value', 'Name Value']);
  });

  it('joins a paragraph across a column break past a footnote, which follows it', () => {
    const left = textLines(50, 40, 'The first column ends in the', 'middle of a');
    const footnote = textLines(50, 200, ['1 A footnote in small type.', { size: 7 }]);
    const right = textLines(300, 40, 'sentence that the second column', 'finishes here.');
    expect(markdown([...left, ...footnote, ...right])).toEqual([
      'The first column ends in the middle of a sentence that the second column finishes here.',
      '1 A footnote in small type.',
    ]);
  });

  it('does not take a bold contents entry with its page number for a heading', () => {
    const elements = [
      ...textLines(50, 40, ['1 Introduction', { bold: true }], ['2 Method', { bold: true }]),
      ...textLines(150, 40, ['1', { bold: true }], ['4', { bold: true }]),
    ];
    expect(layoutPage(elements, stats).map((b) => b.kind)).toEqual(['paragraph', 'paragraph']);
  });

  it('fences whole monospace blocks, keeping their indentation', () => {
    const mono = { monospace: true };
    const elements = [
      ...textLines(50, 40, ['for record in records:', mono]),
      ...textLines(70, 52, ['if record.valid:', mono]),
      ...textLines(90, 64, ['save(record)', mono]),
    ];
    expect(markdown(elements)).toEqual(['```\nfor record in records:\n    if record.valid:\n        save(record)\n```']);
  });

  it('ends a paragraph at a short line when the next line\'s first word would have fitted after it', () => {
    const elements = textLines(50, 40, 'Mary Okafor, Coordinator', 'Twenty years ago a handful of volunteers agreed to', 'walk the same stretches of river every spring.');
    expect(markdown(elements)).toEqual([
      'Mary Okafor, Coordinator',
      'Twenty years ago a handful of volunteers agreed to walk the same stretches of river every spring.',
    ]);
  });

  it('ends a one-line paragraph of justified text at its short line, before the next indented paragraph', () => {
    // first lines indented 15pt, the others at the column's edge, full lines all ending at x = 255; the
    // one-line paragraph stops 25pt short, too little room for the next line's first word
    const at = (x0: number, line: number, text: string) => textLines(x0, 40 + line * 12, text);
    const elements = [
      ...at(65, 0, 'The harbour master opens the lock gate'),
      ...at(50, 1, 'at high water and the boats go out one by'),
      ...at(50, 2, 'one until the basin is empty again.'),
      ...at(65, 3, 'Sections may be numbered or left.'),
      ...at(65, 4, 'Short formulas may be used in the cap-'),
      ...at(50, 5, 'tions and headings of each section, and a'),
      ...at(50, 6, 'keeper copies them into the harbour logs,'),
      ...at(50, 7, 'which is kept in the office.'),
    ];
    expect(markdown(elements)).toEqual([
      'The harbour master opens the lock gate at high water and the boats go out one by one until the basin is empty again.',
      'Sections may be numbered or left.',
      'Short formulas may be used in the captions and headings of each section, and a keeper copies them into the harbour logs, which is kept in the office.',
    ]);
  });

  it('measures a narrower quotation against itself, keeping it one paragraph', () => {
    const body = textLines(50, 40, 'A body line that runs across the whole width of the column, full.');
    const quote = textLines(90, 70, 'A quotation set narrower than', 'the body text runs on to a', 'third line.');
    expect(markdown([...body, ...quote])).toHaveLength(2);
  });

  it('keeps a two-line title together, its lines spaced as widely as its type is large', () => {
    const title = [lineOf(50, 40, ['Trace-based Type Specialization for', { size: 24 }]), lineOf(50, 68, ['Dynamic Languages', { size: 24 }])];
    const elements: PageElement[] = [
      ...title.flatMap((line) => splitRow(line.runs).map((f) => ({ ...f, kind: 'text' as const }))),
      ...textLines(50, 110, 'Body text set in ten point type', 'with lines twelve points apart', 'for several lines in a row.'),
    ];
    expect(layoutPage(elements, { bodySize: 10, headingSizes: [24] })[0]).toMatchObject({
      kind: 'heading',
      markdown: '# Trace-based Type Specialization for Dynamic Languages',
    });
  });

  it('keeps each table-of-contents entry on its own', () => {
    const elements = textLines(50, 40, 'Introduction . . . . . . . . 1', 'Methods . . . . . . . . . . 4', 'Results . . . . . . . . . . 9');
    expect(markdown(elements)).toHaveLength(3);
  });

  it("takes Word's lone Courier `o` standing apart from the text for a sub-list bullet", () => {
    const elements = [...textLines(60, 40, '• Bedding'), ...textLines(80, 52, 'o'), ...textLines(98, 52, 'Six blankets')];
    expect(markdown(elements)).toEqual(['- Bedding\n  - Six blankets']);
  });

  it('reads a lone bullet glyph as text, not as an empty list item', () => {
    expect(markdown(textLines(50, 40, '•'))).toEqual(['•']);
  });
});
