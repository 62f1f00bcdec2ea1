/**
 * The text engine and `auto` on pages shaped like real-world PDFs (issue 24): accents set as
 * separate glyphs, running text on one-page articles and book pages, heading levels, unruled and
 * bordered tables, two columns with a drop cap, and pages whose text layer does not explain what
 * is drawn. Each page is printed by Chromium from test/real-world-pages.ts.
 */

import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EngineRouter } from '../electron/engine/router.js';
import { convertToMarkdown } from './convert-to-markdown.js';
import { printHtml } from './printed-page.js';
import * as pages from './real-world-pages.js';

const DOCUMENTS = {
  accents: pages.ACCENTS,
  article: pages.ONE_PAGE_ARTICLE,
  book: pages.BOOK_PAGE,
  numberedLines: pages.NUMBERED_LINES,
  headings: pages.HEADINGS,
  statement: pages.FINANCIAL_STATEMENT,
  bordered: pages.BORDERED_TABLE,
  dropCap: pages.DROP_CAP_COLUMNS,
  imageOfText: pages.IMAGE_OF_TEXT,
  blank: pages.BLANK_PAGE,
} as const;
type Name = keyof typeof DOCUMENTS;

const router = new EngineRouter();
let folder = '';
const files = {} as Record<Name, string>;

beforeAll(async () => {
  folder = process.env.KEEP_PDFS ?? (await mkdtemp(path.join(os.tmpdir(), 'folio-real-world-')));
  const names = Object.keys(DOCUMENTS) as Name[];
  const pdfs = await printHtml(names.map((name) => DOCUMENTS[name]));
  for (const [i, name] of names.entries()) {
    files[name] = path.join(folder, `${name}.pdf`);
    await writeFile(files[name], pdfs[i]!);
  }
});

afterAll(async () => {
  if (folder && !process.env.KEEP_PDFS) await rm(folder, { recursive: true, force: true });
});

const text = (name: Name) => convertToMarkdown(router, files[name]);

describe('text engine on real-world-like pages', () => {
  it('composes an accent set as its own glyph with the letter under it, and writes NFC', async () => {
    const markdown = await text('accents');
    expect(markdown).toContain('The survey was led by Ján Novǎk and Müller, with notes by Señor Pèrez.');
    expect(markdown).toContain('Their caf\u00e9 served cr\u00e8me br\u00fbl\u00e9e');
    expect(markdown).toBe(markdown.normalize('NFC'));
  });
});
