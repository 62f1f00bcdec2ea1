// Long runs of Markdown punctuation, from a PDF's text or a model's answer, reach the HTML export
// as the same characters. Unescaped, a run of brackets costs the CommonMark parser quadratic time
// (50,000 took 6.7 s; the 200,000 here would take minutes and run past the test's time limit).
import { describe, expect, it } from 'vitest';
import { documentHtml } from './export/html.js';
import { decodeHtmlText } from './html-entities.js';
import { escapeDollarPairs, escapeMarkdownText } from './markdown-escape.js';
import { safeModelMarkdown } from './model-markdown.js';

const RUN = 200_000;

/** The text a reader sees in the exported body: tags dropped, entities read. */
function shownText(markdown: string): string {
  const html = documentHtml(markdown, { title: 'Runs', mathCss: '' });
  const body = html.slice(html.indexOf('<main>') + 6, html.indexOf('</main>'));
  return decodeHtmlText(body.replace(/<[^>]*>/g, '')).replace(/\s+/g, '');
}

describe('long runs of Markdown punctuation', () => {
  it('PDF text of 200,000 brackets is written as text and exports as the same brackets', () => {
    const markdown = escapeMarkdownText('['.repeat(RUN));
    expect(shownText(markdown)).toBe('['.repeat(RUN));
  }, 180_000);

  it('a model answer of 200,000 brackets is kept as text and exports as the same brackets', () => {
    expect(shownText(safeModelMarkdown('['.repeat(RUN)))).toBe('['.repeat(RUN));
  }, 180_000);

  it('PDF text with runs of underscores, asterisks, backticks and angle brackets exports as the same characters', () => {
    const text = ['_', '*', '`', '<a', '[x]('].map((unit) => `word ${unit.repeat(5_000)} word`).join(' ');
    expect(shownText(escapeMarkdownText(text))).toBe(text.replace(/\s+/g, ''));
  }, 180_000);

  it('Markdown of 100,000 unclosed formula openers exports as text (the math delimiters are found in linear time)', () => {
    expect(shownText('\\['.repeat(100_000))).toBe('['.repeat(100_000));
    expect(shownText('\\('.repeat(100_000))).toBe('('.repeat(100_000));
  }, 180_000);

  it('doubles a backslash only where it would escape or break a line, and every text with backslashes reads back as itself', () => {
    expect(escapeMarkdownText('\\n and \\section')).toBe('\\n and \\section');
    expect(escapeMarkdownText('use \\& in emacs, \\* and \\\\b, C:\\')).toBe('use \\\\& in emacs, \\\\\\* and \\\\\\b, C:\\\\');
    for (const text of ['\\n', 'r\\+', '\\&', '\\\\b', 'a\\', '\\_x_', '\\[x](y)', '\\<b>', '\\`code`', 'x \\\\ y']) {
      expect(shownText(`${escapeMarkdownText(text)} end`), text).toBe(`${text} end`.replace(/\s+/g, ''));
    }
  });

  it('escapes a pair of dollars in a cell even where a backslash stands before one, in linear time', () => {
    expect(escapeDollarPairs(escapeMarkdownText('\\$5 and $6'))).toBe('\\\\\\$5 and \\$6');
    expect(escapeDollarPairs('one $5')).toBe('one $5');
    expect(escapeDollarPairs(`${'\\'.repeat(RUN)}$ $`)).toBe(`${'\\'.repeat(RUN)}\\$ \\$`);
  });

  it('escapes every underscore that could make emphasis, and none inside a word', () => {
    expect(escapeMarkdownText('___init___ snake_case _x_')).toBe('\\_\\_\\_init\\_\\_\\_ snake_case \\_x\\_');
  });
});
