/**
 * A PDF's text is the attacker's text: whatever markup it spells out must reach the exported HTML
 * as words on the page, never as elements, handlers or links.
 */

import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fromHtml } from 'hast-util-from-html';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DocumentSession } from '../electron/engine/document-session.js';
import { EngineRouter } from '../electron/engine/router.js';
import type { PageResult } from '../shared/page.js';
import { DEFAULT_CONVERT_OPTIONS } from '../shared/protocol.js';
import { documentHtml } from '../shared/export/html.js';
import { escapeHtmlText } from '../shared/html-entities.js';
import { textOf } from '../shared/export/markdown-tree.js';
import { tableRows, tablesIn } from '../shared/export/table-grid.js';
import { documentJson } from '../shared/export/json.js';
import { documentMarkdown } from '../shared/export/markdown.js';
import { renderMarkdown } from '../renderer/markdown/render-markdown.js';
import { launchPdfPrinter } from './fixtures/print-pdf.js';

const HOSTILE_PAGE = `<!doctype html>
<html><body style="font: 12pt serif">
<h1>Invoice 2024-117</h1>
<p>Invoice total: 1,250 EUR</p>
<p>&lt;script&gt;alert(document.cookie)&lt;/script&gt;</p>
<p>&lt;img src=x onerror=alert(1)&gt;</p>
<p>&lt;a href="javascript:alert(2)"&gt;pay here&lt;/a&gt;</p>
<p>[pay now](javascript:alert(3))</p>
<p>&lt;svg onload=alert(4)&gt;&lt;/svg&gt; &lt;iframe src="https://example.org"&gt;&lt;/iframe&gt;</p>
<p>&lt;table&gt;&lt;tr&gt;&lt;td onclick=alert(5)&gt;cell&lt;/td&gt;&lt;/tr&gt;&lt;/table&gt;</p>
<p>Thank you for your business.</p>
</body></html>`;

/** Prints the HTML to `pdfFile` with Chromium and converts its first page with the text engine. */
async function convertPrinted(html: string, pdfFile: string): Promise<PageResult[]> {
  const printer = await launchPdfPrinter();
  try {
    await printer.printHtml(html, pdfFile);
  } finally {
    await printer.close();
  }
  const session = await DocumentSession.open(new EngineRouter(), pdfFile);
  const pages: PageResult[] = [];
  try {
    await session.convert(
      [1],
      DEFAULT_CONVERT_OPTIONS,
      {
        started: () => undefined,
        delta: () => undefined,
        done: (result) => pages.push(result),
        failed: (page, failure) => {
          throw new Error(`page ${page} of ${pdfFile} failed: ${failure.message}`);
        },
      },
      new AbortController().signal,
    );
  } finally {
    await session.close();
  }
  return pages;
}

describe('HTML export of a PDF whose text holds markup', () => {
  let dir: string;
  let pages: PageResult[];

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'folio-hostile-'));
    pages = await convertPrinted(HOSTILE_PAGE, join(dir, 'invoice.pdf'));
  });

  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('contains no script, frame or SVG element, no event handler and no javascript: link', () => {
    const html = documentHtml(documentMarkdown(pages, { resolveImage: () => undefined }), { title: 'invoice', mathCss: '' });
    const body = html.slice(html.indexOf('<body>'));
    // Text is written with `<` escaped, so every `<` left in the body opens a real element.
    const tags = body.match(/<[a-z][^>]*>/gi) ?? [];
    expect(tags.filter((tag) => /^<(?:script|iframe|svg|object|embed|style)\b/i.test(tag))).toEqual([]);
    expect(tags.filter((tag) => /\son[a-z]+\s*=/i.test(tag))).toEqual([]);
    expect(tags.filter((tag) => /\b(?:href|src)\s*=\s*["']?\s*javascript:/i.test(tag))).toEqual([]);
    expect(body).toContain('Invoice total: 1,250 EUR');
    expect(body).toContain('Thank you for your business.');
    // The markup is still there as words a reader can see.
    expect(body).toMatch(/(?:&#x3C;|&lt;)script>alert\(document\.cookie\)/);
  });
});

/** What each cell shows on the printed page, row by row: the hostile ones are words a reader sees. */
const HOSTILE_CELLS = [
  ['Field', 'Value', 'Qty'],
  ['Title', "<script>document.title='X'</script>", '12'],
  ['Logo', '<img src=x onerror=alert(1)>', '7'],
  ['Pay', '<a href="javascript:alert(2)">pay here</a>', '31'],
  ['Badge', '<svg onload=alert(3)>', '4'],
  ['Heading', '<h1>Not a heading</h1> | x', '250'],
];

function hostileTablePage(ruled: boolean): string {
  const border = ruled ? 'border: 1px solid black;' : '';
  const rows = HOSTILE_CELLS.map((row) => `<tr>${row.map((cell) => `<td style="${border} padding: 4pt 10pt">${escapeHtmlText(cell)}</td>`).join('')}</tr>`);
  return `<!doctype html>
<html><body style="font: 12pt sans-serif">
<p>Order details follow.</p>
<table style="border-collapse: collapse">${rows.join('\n')}</table>
<p>End of order.</p>
</body></html>`;
}

/** The first table's cells as a browser shows them: each row's cells' text. */
function tableCells(html: string): string[][] {
  const [table] = tablesIn(fromHtml(html, { fragment: true }));
  return table ? tableRows(table).map((row) => row.cells.map((cell) => textOf(cell).trim())) : [];
}

describe.each([
  ['ruled', true],
  ['borderless', false],
])('a %s table whose cells hold markup, through every output', (_name, ruled) => {
  let dir: string;
  let pages: PageResult[];

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'folio-hostile-table-'));
    pages = await convertPrinted(hostileTablePage(ruled), join(dir, 'order.pdf'));
  });

  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('writes the cells into the .md as escaped text, with no live tag', () => {
    const markdown = documentMarkdown(pages, { resolveImage: () => undefined });
    // every `<` before a tag name is escaped, as a Markdown escape or an entity
    expect(markdown).not.toMatch(/(?<!\\)<(?:script|img|a|svg|h1)\b/i);
    expect(markdown).toContain('Order details follow.');
    expect(markdown).toContain('End of order.');
  });

  it('shows every cell as its text in the HTML export and the preview, in a table of the same shape', () => {
    const markdown = documentMarkdown(pages, { resolveImage: () => undefined });
    for (const html of [documentHtml(markdown, { title: 'order', mathCss: '' }), renderMarkdown(markdown)]) {
      const body = html.slice(html.indexOf('<body>') + 1);
      expect(tableCells(body)).toEqual(HOSTILE_CELLS);
      expect(body).not.toMatch(/<(?:script|img|svg|h1)\b/i);
      expect(body).not.toMatch(/<a\b/i);
    }
  });

  it('keeps the cells as text in the JSON export', () => {
    const json = JSON.parse(documentJson({ file: 'order.pdf', info: { pageCount: 1 } }, pages, [])) as { pages: { markdown: string; blocks: { kind: string; markdown: string }[] }[] };
    const table = json.pages[0]!.blocks.find((block) => block.kind === 'table');
    // a cell holds a `|`, so the table is written as HTML (table-markdown.ts), its cells' markup as entities
    expect(table?.markdown).toContain('<td>&lt;script&gt;document.title=');
    expect(table?.markdown).not.toMatch(/<(?:script|img|a|svg|h1)\b/i);
    expect(json.pages[0]!.markdown).not.toMatch(/(?<!\\)<(?:script|img|a|svg|h1)\b/i);
  });
});
