import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encryptedPdf } from '../../../test/encrypted-pdf.js';
import { fixturePdfPath } from '../../../test/fixtures/build-fixtures.js';
import { renderPage, renderPdfPage } from '../raster/page-raster.js';
import type { RgbImage } from '../raster/rgb-image.js';
import { closePdf, openPdf } from './open-pdf.js';

const PASSWORD = 'hunter2';
const LONG_SIDE = 400;
const pdfjsRoot = path.dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json'));
let folder: string;
let locked: string;

beforeAll(async () => {
  folder = await mkdtemp(path.join(os.tmpdir(), 'folio-open-pdf-'));
  locked = path.join(folder, 'locked.pdf');
  await writeFile(locked, encryptedPdf(PASSWORD, 'Words behind a password'));
});

afterAll(async () => {
  await rm(folder, { recursive: true, force: true });
});

/** The page as pdf.js renders it in Node by default, glyphs drawn from their outlines (the standard fonts as openPdf finds them). */
async function referenceRendering(file: string, password?: string): Promise<RgbImage> {
  const standardFontDataUrl = path.join(pdfjsRoot, 'standard_fonts') + path.sep;
  const pdf = await getDocument({ data: new Uint8Array(await readFile(file)), password, standardFontDataUrl, verbosity: 0 }).promise;
  try {
    return await renderPage(await pdf.getPage(1), LONG_SIDE);
  } finally {
    await pdf.destroy();
  }
}

/** Reads the text layer first (fonts loaded without outlines), then renders the same page. */
async function readThenRender(file: string, password?: string): Promise<{ text: string; image: RgbImage }> {
  const { pdf } = await openPdf(file, password);
  try {
    const page = await pdf.getPage(1);
    await page.getOperatorList();
    const content = await page.getTextContent();
    const text = content.items.map((item) => ('str' in item ? item.str : '')).join('');
    return { text, image: await renderPdfPage(pdf, 1, LONG_SIDE) };
  } finally {
    await closePdf(pdf);
  }
}

function inkedPixels(image: RgbImage): number {
  let inked = 0;
  for (let i = 0; i < image.data.length; i += 3) if (image.data[i]! + image.data[i + 1]! + image.data[i + 2]! < 700) inked++;
  return inked;
}

describe('a PDF opened for reading', () => {
  it('renders its pages exactly as pdf.js renders them with glyph outlines', async () => {
    const file = fixturePdfPath('clauses');
    const { text, image } = await readThenRender(file);
    expect(text.length).toBeGreaterThan(100);
    const reference = await referenceRendering(file);
    expect(inkedPixels(reference)).toBeGreaterThan(1000);
    expect(image.width).toBe(reference.width);
    expect(Buffer.compare(Buffer.from(image.data), Buffer.from(reference.data))).toBe(0);
  });

  it('renders an encrypted file opened with its password', async () => {
    const { text, image } = await readThenRender(locked, PASSWORD);
    expect(text).toContain('Words behind a password');
    const reference = await referenceRendering(locked, PASSWORD);
    expect(inkedPixels(reference)).toBeGreaterThan(100);
    expect(Buffer.compare(Buffer.from(image.data), Buffer.from(reference.data))).toBe(0);
  });
});
