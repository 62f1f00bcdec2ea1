import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_CONVERT_OPTIONS } from '../../../shared/protocol.js';
import { fixturePdfPath } from '../../../test/fixtures/build-fixtures.js';
import { assemblePdf, pdfStream } from '../../../test/hand-built-pdf.js';
import type { PageContent } from '../engine.js';
import { openDocumentSource } from '../open-document.js';
import { createTextEngine } from '../text/text-engine.js';
import { viewportOf } from './page-geometry.js';
import { openPdf } from './open-pdf.js';
import { PdfiumFirstDocument, type PdfDocument } from './pdf-document.js';

let folder: string;

beforeAll(async () => {
  folder = await mkdtemp(path.join(os.tmpdir(), 'folio-pdf-document-'));
});

afterAll(async () => {
  await rm(folder, { recursive: true, force: true });
});

/**
 * Pages whose view pdf.js and PDFium must agree on: turned, cropped, boxes inherited; with
 * `manyDigits`, boxes written with more digits than PDFium's 32-bit floats keep.
 */
async function geometryPdf(manyDigits = false): Promise<string> {
  const text = (line: string) => pdfStream(Buffer.from(`BT /F1 14 Tf 100 500 Td (${line}) Tj ET BT /F1 10 Tf 100 480 Td (A second line of text on the page) Tj ET`));
  const pages = [
    '/Rotate 90',
    '/Rotate 180',
    '/Rotate -90',
    '/CropBox [50 60 400 700]',
    '/CropBox [-100 -100 300.25 1000]',
    '/MediaBox [595.5 841.75 0 0]',
    '/MediaBox [0 0 0 0]',
    ...(manyDigits ? ['/CropBox [-100 -100 300.275591 1000]', '/MediaBox [595.275591 841.889764 0 0]'] : []),
  ];
  // 1 catalog, 2 pages (MediaBox and Rotate inherited), 3 font, then each page and its contents
  const objects: (string | Buffer)[] = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    `<< /Type /Pages /Kids [${pages.map((_, i) => `${4 + i * 2} 0 R`).join(' ')}] /Count ${pages.length} /MediaBox [0 0 612 792] >>`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ];
  pages.forEach((entries, i) => {
    objects.push(`<< /Type /Page /Parent 2 0 R ${entries} /Contents ${5 + i * 2} 0 R /Resources << /Font << /F1 3 0 R >> >> >>`);
    objects.push(text(`Page ${i + 1} ${entries.replace(/[/[\]]/g, '')}`));
  });
  const file = path.join(folder, manyDigits ? 'geometry-digits.pdf' : 'geometry.pdf');
  await writeFile(file, assemblePdf(objects, '/Root 1 0 R'));
  return file;
}

async function convertAll(pdf: PdfDocument, pageCount: number): Promise<PageContent[]> {
  const engine = createTextEngine();
  const pages: PageContent[] = [];
  for (let page = 1; page <= pageCount; page++) {
    pages.push(
      await engine.convertPage({
        pdf,
        page,
        alsoConverts: (other) => other <= pageCount,
        options: { ...DEFAULT_CONVERT_OPTIONS, engine: 'text' },
        signal: new AbortController().signal,
        render: () => Promise.reject(new Error('the text engine reads no pixels')),
        emitDelta: () => undefined,
      }),
    );
  }
  engine.forgetDocument(pdf);
  return pages;
}

describe('a PDF PDFium opens alone', () => {
  it("lays its pages out on pdf.js's frame, turned and cropped, and never opens pdf.js for them", async () => {
    for (const file of [await geometryPdf(), fixturePdfPath('landscape-table'), fixturePdfPath('two-columns'), fixturePdfPath('links')]) {
      const source = await openDocumentSource(file);
      const { pdf: pdfjs, info } = await openPdf(file);
      try {
        expect(source.pdf).toBeInstanceOf(PdfiumFirstDocument);
        expect(source.info).toEqual(info);
        const read = await convertAll(source.pdf!, info.pageCount);
        expect((source.pdf as PdfiumFirstDocument).pdfjsLoaded).toBe(false);
        const expected = await convertAll(pdfjs, info.pageCount);
        // PDFium keeps a box's numbers as 32-bit floats: a page is as wide within 0.0001pt (595.91998 is read as 595.92)
        expect(read.map(({ width, height, ...rest }) => ({ ...rest, width: width.toFixed(4), height: height.toFixed(4) }))).toEqual(
          expected.map(({ width, height, ...rest }) => ({ ...rest, width: width.toFixed(4), height: height.toFixed(4) })),
        );
      } finally {
        await source.close();
        await pdfjs.destroy();
      }
    }
  });

  it("gives pdf.js's viewport for every turn and crop, within a 32-bit float of a box's numbers", async () => {
    const file = await geometryPdf(true);
    const source = await openDocumentSource(file);
    const { pdf: pdfjs } = await openPdf(file);
    try {
      const { pdfium } = source.pdf as PdfiumFirstDocument;
      for (let page = 1; page <= pdfjs.numPages; page++) {
        const expected = (await pdfjs.getPage(page)).getViewport({ scale: 1 });
        const read = viewportOf(pdfium.readText(page).geometry!);
        const digits = page <= 7 ? 12 : 4;
        expect(read.width).toBeCloseTo(expected.width, digits);
        expect(read.height).toBeCloseTo(expected.height, digits);
        read.transform.forEach((value, i) => expect(value).toBeCloseTo(expected.transform[i]!, digits));
      }
    } finally {
      await source.close();
      await pdfjs.destroy();
    }
  });

  it('is opened with pdf.js where PDFium had to rebuild its cross-reference table', async () => {
    const broken = path.join(folder, 'broken-xref.pdf');
    const bytes = assemblePdf(['<< /Type /Catalog /Pages 2 0 R >>', '<< /Type /Pages /Kids [3 0 R] /Count 1 >>', '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] >>'], '/Root 1 0 R');
    // every offset in the table off by a few bytes
    await writeFile(broken, Buffer.from(bytes.toString('latin1').replace(/(\d{10}) 00000 n/g, (_, offset: string) => `${String(Number(offset) + 3).padStart(10, '0')} 00000 n`), 'latin1'));
    const source = await openDocumentSource(broken);
    try {
      expect(source.pdf).toBeDefined();
      expect(source.pdf).not.toBeInstanceOf(PdfiumFirstDocument);
      expect(source.info.pageCount).toBe(1);
    } finally {
      await source.close();
    }
  });
});
