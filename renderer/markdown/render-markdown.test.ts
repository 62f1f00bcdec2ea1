import { describe, expect, it } from 'vitest';
import { renderMarkdown } from './render-markdown.js';

describe('renderMarkdown', () => {
  it('renders a GFM table as an HTML table', () => {
    const html = renderMarkdown('| Year | Revenue |\n| --- | ---: |\n| 2024 | 1,200 |\n');
    expect(html).toContain('<table>');
    expect(html).toMatch(/<th>Year<\/th>/);
    expect(html).toMatch(/<td[^>]*>1,200<\/td>/);
  });

  it('keeps a model HTML table with its spans', () => {
    const html = renderMarkdown('<table><tr><th colspan="2">Q1</th></tr><tr><td rowspan="2">a</td><td>b</td></tr><tr><td>c</td></tr></table>');
    expect(html).toMatch(/<th colspan="2">Q1<\/th>/);
    expect(html).toMatch(/<td rowspan="2">a<\/td>/);
  });

  it('bounds spans by the table: colspan by its columns, rowspan by the rows left', () => {
    const html = renderMarkdown('<table><tr><th colspan="999999999">Q1</th><th>Q2</th></tr><tr><td rowspan="65534">a</td><td>b</td></tr></table>');
    expect(html).toMatch(/<th colspan="2">Q1<\/th>/);
    expect(html).toMatch(/<td>a<\/td>/);
  });

  it('renders inline and display LaTeX with KaTeX', () => {
    const html = renderMarkdown('Energy $E = mc^2$ and\n\n$$\n\\int_0^1 x\\,dx\n$$\n');
    expect(html).toContain('class="katex"');
    expect(html).toContain('katex-display');
    expect(html).not.toContain('$E = mc^2$');
  });

  it('renders math written with the models\' \\( \\) and \\[ \\] delimiters, as the export does', () => {
    const html = renderMarkdown('Area \\(\\pi r^2\\) and\n\n\\[\na^2 + b^2 = c^2\n\\]\n');
    expect(html).toContain('class="katex"');
    expect(html).toContain('katex-display');
    expect(html).not.toContain('\\(');
  });

  it('shows a formula that fails to parse as marked source and renders the rest of the page', () => {
    const html = renderMarkdown('Before $\\frac{1}{$ after\n\n| a |\n| - |\n| 1 |\n');
    expect(html).toContain('katex-error');
    expect(html).toContain('\\frac{1}{');
    expect(html).toContain('after');
    expect(html).toContain('<table>');
  });

  it('drops scripts, event handlers and javascript: links from hostile HTML', () => {
    const html = renderMarkdown(
      [
        '<img src="x" onerror="alert(1)">',
        '<script>alert(2)</script>',
        '[click](javascript:alert(3))',
        '<a href="javascript:alert(4)">raw</a>',
        '<iframe src="https://example.com"></iframe>',
        '<style>body{display:none}</style>',
        '<div onclick="alert(5)" style="position:fixed">x</div>',
      ].join('\n\n'),
    );
    expect(html).not.toMatch(/onerror|onclick|<script|javascript:|<iframe|<style|alert\(2\)|display:none|position:fixed/);
    expect(html).toContain('click');
    expect(html).toContain('raw');
  });

  it('keeps lists, and shows a link to the web as its text and address, not clickable', () => {
    const html = renderMarkdown('- one\n- [two](https://example.com)\n- [#](#top)\n');
    expect(html).toContain('<li>one</li>');
    expect(html).toContain('<span class="remote-link">two (https://example.com)</span>');
    expect(html).not.toContain('href="https://example.com"');
    expect(html).toContain('<a href="#top">#</a>');
  });

  it('renders nothing for an empty page', () => {
    expect(renderMarkdown('  \n')).toBe('');
  });
});
