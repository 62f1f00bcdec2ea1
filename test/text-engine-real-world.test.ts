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
  blankScan: pages.BLANK_SCAN,
} as const;
type Name = keyof typeof DOCUMENTS;

const router = new EngineRouter();
let folder = '';
const files = {} as Record<Name, string>;

beforeAll(async () => {
  folder = await mkdtemp(path.join(os.tmpdir(), 'folio-real-world-'));
  const names = Object.keys(DOCUMENTS) as Name[];
  const pdfs = await printHtml(names.map((name) => DOCUMENTS[name]));
  for (const [i, name] of names.entries()) {
    files[name] = path.join(folder, `${name}.pdf`);
    await writeFile(files[name], pdfs[i]!);
  }
});

afterAll(async () => {
  if (folder) await rm(folder, { recursive: true, force: true });
});

const text = (name: Name) => convertToMarkdown(router, files[name]);
const auto = (name: Name) => convertToMarkdown(router, files[name], { engine: 'auto' });

describe('text engine on real-world-like pages', () => {
  it('composes an accent set as its own glyph with the letter under it, and writes NFC', async () => {
    const markdown = await text('accents');
    expect(markdown).toContain('The survey was led by Ján Novǎk and Müller, with notes by Señor Pèrez.');
    expect(markdown).toContain('Their caf\u00e9 served cr\u00e8me br\u00fbl\u00e9e');
    expect(markdown).toBe(markdown.normalize('NFC'));
  });

  it('leaves out the banners, identifiers and download stamps in the margins of a one-page article', async () => {
    const markdown = await text('article');
    for (const gone of ['Journal of Coastal Studies', 'doi.org', 'Downloaded from', 'Download date', 'Page 1 of 1']) expect(markdown).not.toContain(gone);
    expect(markdown.startsWith('# Rising Water on the Northern Coast\n\nSea level along the northern coast')).toBe(true);
    expect(markdown.trimEnd().endsWith('than the average rise does.')).toBe(true);
  });

  it("leaves out a book page's running title and folio numeral, and keeps its first line", async () => {
    const markdown = await text('book');
    expect(markdown).not.toMatch(/northern coast\s*\n/i);
    expect(markdown).not.toMatch(/^\s*47\s*$/m);
    expect(markdown.startsWith('Sea level along the northern coast has risen')).toBe(true);
  });

  it('keeps the numbered lines at the top and foot of every page, which continue the body', async () => {
    const markdown = await text('numberedLines');
    const missing = Array.from({ length: 150 }, (_, i) => `Line ${i + 1} of the transcript`).filter((line) => !markdown.includes(line));
    expect(missing).toEqual([]);
  });

  it('takes heading levels from section numbers and sizes, and makes no headings of sentences or formulas', async () => {
    const headings = (await text('headings')).split('\n').filter((line) => line.startsWith('#'));
    expect(headings).toEqual([
      '# Tidal Records of the Harbour',
      '## 1 Introduction',
      '## 2 Methods',
      '### 2.1 Sampling',
      '### 2.2 Calibration',
      '## 3 Results',
    ]);
  });

  it('reads two columns in order, a drop cap joined to the word it begins', async () => {
    const markdown = await text('dropCap');
    expect(markdown).toContain('Winter on the northern coast begins with the first autumn gale, when the fishing fleet stays in harbour');
    const order = ['Winter on the', 'Sea level along', 'We compare gauge', 'The harbour records', 'Our measurements', 'By the end of the season'].map((s) => markdown.indexOf(s));
    expect(order.every((at, i) => at >= 0 && (i === 0 || at > order[i - 1]!))).toBe(true);
  });

  it('finds an unruled table by its aligned columns, a wrapped row label one cell, and the year row its header', async () => {
    const markdown = await text('statement');
    const table = markdown.split('\n').filter((line) => line.startsWith('|'));
    expect(table[0]).toBe('|  | 2023 | 2022 | Change |');
    expect(table).toContain('| Fees for berthing and storage of vessels over twelve metres | 3,210 | 2,980 | 7.7% |');
    expect(table.filter((line) => /^\|(\s*\|)+\s*$/.test(line) || /^\|\s*\|/.test(line) && !line.includes('2023'))).toEqual([]);
    expect(table).toHaveLength(6);
  });

  it("finds a browser's default bordered table of two columns, its header row first", async () => {
    const markdown = await text('bordered');
    expect(markdown).toContain('| Day | Hours |\n| --- | --- |\n| Monday | 9:00 to 17:00 |');
    expect(markdown).not.toMatch(/^#+ (Day|Hours)/m);
  });
});

describe('auto on pages whose text layer does not explain what is drawn', () => {
  it('reads a page of text drawn as an image with OCR, not just its caption', async () => {
    const markdown = await auto('imageOfText');
    expect(markdown).toMatch(/breakwater/i);
    expect(markdown).toMatch(/winter storms/i);
  });

  it('gives nothing for a blank page, or a blank scan', async () => {
    expect(await auto('blank')).toBe('');
    expect((await auto('blankScan')).trim()).toBe('');
  });
});
