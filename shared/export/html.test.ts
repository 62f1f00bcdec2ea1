import { describe, expect, it } from 'vitest';
import { documentHtml } from './html.js';

const MATH_CSS = '.katex{font:normal 1.21em KaTeX_Main}';

function exportHtml(markdown: string): string {
  return documentHtml(markdown, { title: 'Report', mathCss: MATH_CSS });
}

/** The part that came from the document; the head holds Folio's own `<style>`. */
function bodyOf(html: string): string {
  return html.slice(html.indexOf('<body>'));
}

/** A page whose text layer (or a model reading it) tried every common way of running code. */
const HOSTILE_PAGE = `# Quarterly report

<script>alert(1)</script>

<img src=x onerror=alert(2)>

[click me](javascript:alert(3))

<a href="JaVaScRiPt:alert(4)">mixed case</a>

<a href="jav&#x09;ascript:alert(5)">entity</a>

<svg onload=alert(6)><circle r="1"/></svg>

<iframe src="https://example.org/frame"></iframe>

<object data="movie.swf"></object>

<style>body { display: none }</style>

<a href="data:text/html,<b>x</b>">data link</a> <img src="data:image/png;base64,iVBORw0KGgo=">

<a href="vbscript:msgbox(7)">vb</a>

<table>
<tr><th colspan="2">Region</th><th>Total</th></tr>
<tr><td rowspan="2" onclick="alert(8)" onmouseover="alert(9)">North</td><td>Q1</td><td>10</td></tr>
<tr><td>Q2</td><td>12<br>(revised)</td></tr>
</table>
`;

describe('documentHtml sanitising', () => {
  const body = bodyOf(exportHtml(HOSTILE_PAGE));

  it('removes scripts, frames, objects, embedded SVG and document styles with their content', () => {
    for (const tag of ['<script', '<iframe', '<object', '<svg', '<style', '<embed']) {
      expect(body.toLowerCase()).not.toContain(tag);
    }
    expect(body).not.toContain('display: none');
    expect(body).not.toMatch(/alert\(/);
  });

  it('removes every event handler attribute', () => {
    expect(body).not.toMatch(/\son[a-z]+\s*=/i);
  });

  it('removes javascript:, vbscript: and data: URLs whatever their spelling', () => {
    expect(body).not.toMatch(/(?:href|src)\s*=\s*["']?\s*(?:java|vb)\s*script/i);
    expect(body).not.toMatch(/javascript|vbscript|msgbox/i);
    expect(body).not.toMatch(/(?:href|src)="data:/i);
  });

  it('keeps the link text and the table with its spans and line breaks', () => {
    expect(body).toContain('click me');
    expect(body).toContain('mixed case');
    expect(body).toContain('<th colspan="2">Region</th>');
    expect(body).toMatch(/<td rowspan="2">North<\/td>/);
    expect(body).toContain('<td>12<br>(revised)</td>');
    expect(body).toContain('<h1>Quarterly report</h1>');
  });
});

describe('documentHtml and what lies outside the file', () => {
  it('does not load a remote image but shows a placeholder naming it', () => {
    const body = bodyOf(exportHtml('![Chart](https://tracker.example/pixel.png) and <img src="//cdn.example/a.png">'));
    expect(body).not.toMatch(/<img/);
    expect(body).toContain('<span class="remote-image">[image not loaded: Chart, https://tracker.example/pixel.png]</span>');
    expect(body).toContain('[image not loaded: //cdn.example/a.png]');
  });

  it('shows a link to another site or a mail address as its text and address, not clickable', () => {
    const body = bodyOf(exportHtml('[your bank](https://phish.example/login), <https://example.org> and [mail](mailto:a@example.org) and [up](#top)'));
    expect(body).not.toMatch(/href="(?:https|mailto):/);
    expect(body).toContain('<span class="remote-link">your bank (https://phish.example/login)</span>');
    expect(body).toContain('<span class="remote-link">https://example.org</span>');
    expect(body).toContain('<span class="remote-link">mail (a@example.org)</span>');
    expect(body).toContain('<a href="#top">up</a>');
  });

  it('bounds table spans by the table\'s real size', () => {
    const body = bodyOf(exportHtml('<table><tr><th colspan="999999999">A</th><th>B</th></tr><tr><td rowspan="65534">1</td><td>2</td></tr></table>'));
    expect(body).toContain('<th colspan="2">A</th>');
    expect(body).toContain('<td>1</td>');
  });
});

describe('documentHtml rendering', () => {
  it('renders inline and display math as KaTeX HTML with MathML and includes the math stylesheet', () => {
    const html = exportHtml('Energy $x^2$ grows.\n\n$$\n\\int_0^1 f\n$$\n');
    const body = bodyOf(html);
    expect(body).toMatch(/<span class="katex"><span class="katex-mathml"><math[^>]*>/);
    expect(body).toContain('<annotation encoding="application/x-tex">x^2</annotation>');
    expect(body).toMatch(/<span class="katex-display">.*<math[^>]*display="block"/s);
    expect(body).toContain('class="katex-html"');
    expect(html).toContain(`<style>${MATH_CSS}</style>`);
  });

  it('shows a formula KaTeX cannot parse as its source, marked as an error, and renders the rest', () => {
    const body = bodyOf(exportHtml('Broken $\\frac{$ then fine $y$.'));
    expect(body).toMatch(/<span class="katex-error" title="[^"]*ParseError[^"]*"[^>]*>\\frac\{<\/span>/);
    expect(body).toContain('<annotation encoding="application/x-tex">y</annotation>');
  });

  it('renders the models\' \\( \\) and \\[ \\] math like dollar math', () => {
    const body = bodyOf(exportHtml('Energy \\(x^2\\) grows.\n\n\\[\n\\int_0^1 f\n\\]\n'));
    expect(body).toContain('<annotation encoding="application/x-tex">x^2</annotation>');
    expect(body).toMatch(/<span class="katex-display">.*<annotation encoding="application\/x-tex">\\int_0\^1 f<\/annotation>/s);
  });

  it('does not let a formula make links', () => {
    const body = bodyOf(exportHtml('$\\href{javascript:alert(1)}{x}$ and $\\url{javascript:alert(2)}$'));
    expect(body).not.toMatch(/href=/);
  });

  it('leaves escaped dollar signs as text and the math stylesheet out', () => {
    // Engines escape literal dollars; unescaped, remark-math would read "$5 and $" as a formula.
    const html = exportHtml('Costs \\$5 and \\$6 today.');
    expect(bodyOf(html)).toContain('<p>Costs $5 and $6 today.</p>');
    expect(html).not.toContain(MATH_CSS);
  });

  it('renders GFM pipe tables as HTML tables with their alignment', () => {
    const body = bodyOf(exportHtml('| Item | Price |\n|:-----|------:|\n| Tea | 3.50 |\n'));
    expect(body).toMatch(/<table>\s*<thead>\s*<tr>\s*<th align="left">Item<\/th>\s*<th align="right">Price<\/th>/);
    expect(body).toMatch(/<td align="left">Tea<\/td>\s*<td align="right">3.50<\/td>/);
  });

  it('keeps the relative image paths that export wrote', () => {
    const body = bodyOf(exportHtml('![Figure 2](report_assets/page-1-image-1.png)'));
    expect(body).toContain('<img src="report_assets/page-1-image-1.png" alt="Figure 2">');
  });

  it('escapes the title and writes a complete HTML5 document with the built-in stylesheet', () => {
    const html = documentHtml('Text', { title: '</title><script>alert(1)</script> & more', mathCss: '' });
    expect(html.startsWith('<!doctype html>')).toBe(true);
    expect(html).toContain('<title>&lt;/title&gt;&lt;script&gt;alert(1)&lt;/script&gt; &amp; more</title>');
    expect(html).not.toContain('<script');
    expect(html).toMatch(/<style>[^<]*border-collapse[^<]*<\/style>/);
    expect(html).toContain('<meta charset="utf-8">');
  });
});
