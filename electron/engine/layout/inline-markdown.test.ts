import { describe, expect, it } from 'vitest';
import { escapeMarkdownText as escapeText } from '../../../shared/markdown-escape.js';
import { escapeBlockStart, renderInline } from './inline-markdown.js';
import { makeLine } from './lines.js';
import { lineOf, textRun } from './text-run-fixtures.js';

describe('inline Markdown', () => {
  it('marks bold and italic runs, merging neighbours of one style and keeping spaces outside the markers', () => {
    const line = lineOf(0, 0, 'Plain', ['bold', { bold: true }], ['words', { bold: true }], ['and italic', { italic: true }], 'end.');
    expect(renderInline([line])).toBe('Plain **bold words** *and italic* end.');
  });

  it('rebuilds the space between runs from their gap when pdf.js wrote none', () => {
    const tight = makeLine([textRun('Kern', 0, 0), textRun('ing', 20.5, 0)]);
    const spaced = makeLine([textRun('two', 0, 0), textRun('words', 18, 0)]);
    expect(renderInline([tight])).toBe('Kerning');
    expect(renderInline([spaced])).toBe('two words');
  });

  it('joins a word hyphenated across lines but keeps hyphens inside a line', () => {
    const lines = [lineOf(0, 0, 'a well-known source of infor-'), lineOf(0, 12, 'mation about it.')];
    expect(renderInline(lines)).toBe('a well-known source of information about it.');
  });

  it('keeps a hyphen before a capital letter, where the break is not inside a word', () => {
    const lines = [lineOf(0, 0, 'the pre-'), lineOf(0, 12, 'Roman era')];
    expect(renderInline(lines)).toBe('the pre- Roman era');
  });

  it('removes a break hyphen that pdf.js gives as its own item, and soft hyphens', () => {
    const broken = makeLine([textRun('com\u00ADpre', 0, 0), textRun('hen', 35, 0), textRun('\u2010', 50, 0)]);
    const lines = [broken, lineOf(0, 12, 'sive and long-'), lineOf(0, 24, 'term.')];
    expect(renderInline(lines)).toBe('comprehensive and long-term.');
  });

  it('reads a line of Arabic or Hebrew runs from the right', () => {
    const line = makeLine([textRun('שלישית', 0, 0), textRun('שנייה', 40, 0), textRun('ראשונה', 75, 0)]);
    expect(renderInline([line])).toBe('ראשונה שנייה שלישית');
  });

  it('writes links as [text](url) and monospace runs as code spans', () => {
    const line = lineOf(0, 0, 'See', ['the docs', { link: 'https://example.com/a b' }], 'and', ['run()', { monospace: true }]);
    expect(renderInline([line])).toBe('See [the docs](https://example.com/a%20b) and `run()`');
  });

  it('escapes characters that would change the meaning of the text', () => {
    expect(escapeText('2*3 and snake_case and _under_ and <b> and [x](y)')).toBe(
      '2\\*3 and snake_case and \\_under\\_ and \\<b> and [x\\](y)',
    );
    expect(escapeBlockStart('# not a heading')).toBe('\\# not a heading');
    expect(escapeBlockStart('1. not a list')).toBe('1\\. not a list');
    expect(renderInline([lineOf(0, 0, 'costs $5 or $6')])).toBe('costs \\$5 or \\$6');
    expect(renderInline([lineOf(0, 0, 'costs $5')])).toBe('costs $5');
  });

  it('leaves the dollars of a code span as written, and escapes a dollar of the text that could pair with one', () => {
    // inside a code span a backslash is shown: `\$1+1=2\$` would show the backslashes
    expect(renderInline([lineOf(0, 0, 'the syntax', ['$1+1=2$', { monospace: true }], 'gives 1 + 1 = 2')])).toBe('the syntax `$1+1=2$` gives 1 + 1 = 2');
    expect(renderInline([lineOf(0, 0, 'costs $5, typed as', ['$x$', { monospace: true }])])).toBe('costs \\$5, typed as `$x$`');
  });
});
