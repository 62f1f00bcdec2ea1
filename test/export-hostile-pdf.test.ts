/**
 * A PDF's text is the attacker's text: whatever markup it spells out must reach the exported HTML
 * as words on the page, never as elements, handlers or links.
 */

import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DocumentSession } from '../electron/engine/document-session.js';
import { EngineRouter } from '../electron/engine/router.js';
import type { PageResult } from '../shared/page.js';
import { DEFAULT_CONVERT_OPTIONS } from '../shared/protocol.js';
import { documentHtml } from '../shared/export/html.js';
import { documentMarkdown } from '../shared/export/markdown.js';
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

describe('HTML export of a PDF whose text holds markup', () => {
  let dir: string;
  let pages: PageResult[];

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'folio-hostile-'));
    const pdfFile = join(dir, 'invoice.pdf');
    const printer = await launchPdfPrinter();
    try {
      await printer.printHtml(HOSTILE_PAGE, pdfFile);
    } finally {
      await printer.close();
    }
    const session = await DocumentSession.open(new EngineRouter(), pdfFile);
    pages = [];
    try {
      await session.convert(
        [1],
        DEFAULT_CONVERT_OPTIONS,
        {
          started: () => undefined,
          delta: () => undefined,
          done: (result) => pages.push(result),
          failed: (page, failure) => {
            throw new Error(`page ${page} of the hostile invoice failed: ${failure.message}`);
          },
        },
        new AbortController().signal,
      );
    } finally {
      await session.close();
    }
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
