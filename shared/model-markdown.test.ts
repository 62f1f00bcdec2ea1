import { describe, expect, it } from 'vitest';
import { MAX_HTML_NESTING, MAX_MARKDOWN_NESTING, MAX_PARAGRAPH, allowedUrl, safeModelMarkdown } from './model-markdown.js';

describe('safeModelMarkdown', () => {
  it('leaves ordinary model Markdown byte for byte', () => {
    const markdown = [
      '# Results',
      '',
      'Energy $E = mc^2$ and **bold** with a [link](https://example.org) and ![](folio-image:page-1-image-1.png).',
      '',
      '| a | b |',
      '| --- | --- |',
      '| 1 | 2 |',
      '',
      '<table>',
      '<tr><th colspan="2">Region</th></tr>',
      '<tr><td rowspan="2">North</td><td>Q1<br>x</td></tr>',
      '<tr><td>Q2</td></tr>',
      '</table>',
      '',
      '```',
      '<script>code stays code</script>',
      '```',
    ].join('\n');
    expect(safeModelMarkdown(markdown)).toBe(markdown);
  });

  it('writes tags the export would not keep as text, and keeps allowed ones without their handlers', () => {
    expect(safeModelMarkdown('<script>alert(1)</script>')).toBe('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(safeModelMarkdown('A <b onclick="x()">b</b> <svg onload=y()> <iframe src="https://e.org">')).toBe(
      'A <b>b</b> &lt;svg onload=y()&gt; &lt;iframe src="https://e.org"&gt;',
    );
    expect(safeModelMarkdown('Say `<b>` in code')).toBe('Say `<b>` in code');
    expect(safeModelMarkdown('<center>Figure 1: <font color="red">Results</font></center>')).toBe('Figure 1: Results');
  });

  it('drops scripted link and image addresses however they are spelt, keeping the text', () => {
    expect(safeModelMarkdown('[pay](javascript:alert(1)) ![x](vbscript:y) <a href="jav&#x61;script:z">t</a>')).toBe('pay x <a>t</a>');
    expect(safeModelMarkdown('<a href="  JAVASCRIPT:z">t</a> <img src="data:image/png;base64,AA" alt="d">')).toBe('<a>t</a> <img alt="d">');
    expect(safeModelMarkdown('[r][1]\n\n[1]: javascript:alert(1)')).toBe('[r][1]\n\n');
  });

  it('bounds table spans by the columns and the rows left, across a table cut by a blank line', () => {
    const table = '<table><tr><td colspan="999999999">a</td><td>b</td></tr>\n\n<tr><td rowspan="65534">c</td><td>d</td></tr><tr><td>e</td></tr></table>';
    expect(safeModelMarkdown(table)).toBe('<table><tr><td colspan="2">a</td><td>b</td></tr>\n\n<tr><td rowspan="2">c</td><td>d</td></tr><tr><td>e</td></tr></table>');
  });

  it('closes what a page leaves open, and writes stray closing tags as text', () => {
    expect(safeModelMarkdown('<table><tr><td>cut')).toBe('<table><tr><td>cut</td></tr></table>');
    expect(safeModelMarkdown('text</table> more')).toBe('text&lt;/table&gt; more');
  });

  it('bounds HTML, quote and list nesting', () => {
    const html = safeModelMarkdown(`${'<div>'.repeat(100)}x`);
    expect(html.match(/<div>/g)).toHaveLength(MAX_HTML_NESTING);
    expect(html.match(/&lt;div&gt;/g)).toHaveLength(100 - MAX_HTML_NESTING);
    const quote = safeModelMarkdown(`${'> '.repeat(100)}x`);
    expect(quote.startsWith(`${'> '.repeat(MAX_MARKDOWN_NESTING)}\\>`)).toBe(true);
    const list = safeModelMarkdown(Array.from({ length: 100 }, (_, i) => `${' '.repeat(2 * i)}- x`).join('\n'));
    expect(Math.max(...list.split('\n').map((line) => /^ */.exec(line)![0].length))).toBeLessThanOrEqual(2 * MAX_MARKDOWN_NESTING);
  });

  it('cuts a paragraph too long for the parser into paragraphs, keeping every character', () => {
    const markdown = '[a] '.repeat(3 * MAX_PARAGRAPH);
    const safe = safeModelMarkdown(markdown);
    expect(safe.split('\n\n').every((paragraph) => paragraph.length <= MAX_PARAGRAPH)).toBe(true);
    expect(safe.replace(/\n/g, '')).toBe(markdown);
  });
});

describe('allowedUrl', () => {
  it('allows relative addresses and the listed schemes only', () => {
    expect(['page.html', '#top', '/a:b', 'https://e.org'].map((url) => allowedUrl(url, ['https']))).toEqual([true, true, true, true]);
    expect(['javascript:x', 'java\nscript:x', ' data:text/html,x', 'http://e.org'].map((url) => allowedUrl(url, ['https']))).toEqual([false, false, false, false]);
  });
});
