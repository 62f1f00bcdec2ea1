import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { deflateSync } from 'node:zlib';
import type { PDFDocumentProxy } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_CONVERT_OPTIONS, type ConvertOptions } from '../../../shared/protocol.js';
import { fixturePdfPath } from '../../../test/fixtures/build-fixtures.js';
import { launchPdfPrinter } from '../../../test/fixtures/print-pdf.js';
import { assemblePdf, pdfStream } from '../../../test/hand-built-pdf.js';
import type { PageContent } from '../engine.js';
import { openPdf } from '../pdf/open-pdf.js';
import { createTextEngine } from './text-engine.js';

const engine = createTextEngine();
let folder: string;

async function convert(pdf: PDFDocumentProxy, page: number, options: Partial<ConvertOptions> = {}) {
  const deltas: string[] = [];
  const content = await engine.convertPage({
    pdf,
    page,
    alsoConverts: () => false,
    options: { ...DEFAULT_CONVERT_OPTIONS, engine: 'text', ...options },
    signal: new AbortController().signal,
    render: () => Promise.reject(new Error('the text engine reads no pixels')),
    emitDelta: (text) => deltas.push(text),
  });
  return { content, deltas };
}

async function convertFile(file: string, options: Partial<ConvertOptions> = {}): Promise<PageContent[]> {
  const { pdf } = await openPdf(file);
  try {
    const pages: PageContent[] = [];
    for (let page = 1; page <= pdf.numPages; page++) pages.push((await convert(pdf, page, options)).content);
    return pages;
  } finally {
    engine.forgetDocument(pdf);
    await pdf.destroy();
  }
}

/** The same PDF with /Rotate 90 on its first page, written in place of its MediaBox so offsets hold. */
async function rotatedCopy(file: string): Promise<string> {
  const text = Buffer.from(await readFile(file)).toString('latin1');
  const rotated = text.replace(/\/MediaBox \[0 0 ([\d.]+) ([\d.]+)\]/, (whole, w: string, h: string) => {
    const replacement = `/MediaBox[0 0 ${Math.round(Number(w))} ${Math.round(Number(h))}]/Rotate 90`;
    if (replacement.length > whole.length) throw new Error('cannot rotate this PDF in place');
    return replacement.padEnd(whole.length, ' ');
  });
  const out = path.join(folder, 'rotated.pdf');
  await writeFile(out, Buffer.from(rotated, 'latin1'));
  return out;
}

beforeAll(async () => {
  folder = await mkdtemp(path.join(os.tmpdir(), 'folio-text-engine-'));
  const printer = await launchPdfPrinter();
  try {
    await printer.printHtml('<!doctype html><html><body></body></html>', path.join(folder, 'empty.pdf'));
  } finally {
    await printer.close();
  }
});

afterAll(async () => {
  await rm(folder, { recursive: true, force: true });
});

describe('text engine', () => {
  it('sends the finished page as one delta (a message a block cost the host time), with blocks inside the page', async () => {
    const { pdf } = await openPdf(fixturePdfPath('two-columns'));
    try {
      const { content, deltas } = await convert(pdf, 1);
      expect(deltas).toEqual([content.markdown]);
      expect(content.blocks.length).toBeGreaterThan(3);
      expect(content.device).toBe('cpu');
      expect(content.blocks[0]).toMatchObject({ kind: 'heading', level: 1 });
      for (const block of content.blocks) {
        const [x0, y0, x1, y1] = block.bbox;
        expect(x0).toBeGreaterThanOrEqual(0);
        expect(y0).toBeGreaterThanOrEqual(0);
        expect(x1).toBeLessThanOrEqual(content.width);
        expect(y1).toBeLessThanOrEqual(content.height);
        expect(content.markdown).toContain(block.markdown);
      }
    } finally {
      await pdf.destroy();
    }
  });

  it('leaves running headers and page numbers out as header/footer blocks, and keeps them on request', async () => {
    const file = fixturePdfPath('running-headers');
    const dropped = await convertFile(file);
    const kept = await convertFile(file, { keepHeaders: true });
    for (const page of dropped) {
      expect(page.markdown).not.toMatch(/Northport Harbour Board|Page \d of \d/);
      expect(page.blocks.filter((b) => b.kind === 'header' || b.kind === 'footer').every((b) => b.markdown === '')).toBe(true);
    }
    expect(dropped[1]!.blocks.map((b) => b.kind)).toEqual(expect.arrayContaining(['header', 'footer']));
    expect(kept[1]!.markdown).toMatch(/^Northport Harbour Board/);
    expect(kept[1]!.markdown).toMatch(/Page 2 of 4$/);
  });

  it('reads a page turned by /Rotate as it reads the upright page, with boxes on the turned page', async () => {
    const upright = await convertFile(fixturePdfPath('two-columns'));
    const turned = await convertFile(await rotatedCopy(fixturePdfPath('two-columns')));
    expect(turned[0]!.markdown).toBe(upright[0]!.markdown);
    expect(turned[0]!.width).toBeCloseTo(upright[0]!.height, 0);
    const [x0, , x1] = turned[0]!.blocks[0]!.bbox;
    // The title runs down the right-hand side of the turned page.
    expect(x0).toBeGreaterThan(turned[0]!.width / 2);
    expect(x1).toBeLessThanOrEqual(turned[0]!.width);
  });

  it('places an image in reading order and extracts it as PNG only when asked', async () => {
    const file = fixturePdfPath('image');
    const [plain] = await convertFile(file);
    const [extracted] = await convertFile(file, { extractImages: true });
    const link = '![](folio-image:page-1-image-1.png)';
    expect(plain!.markdown.indexOf(link)).toBeGreaterThan(plain!.markdown.indexOf('same morning'));
    expect(plain!.markdown.indexOf(link)).toBeLessThan(plain!.markdown.indexOf('Figure 1'));
    expect(plain!.images).toMatchObject([{ name: 'page-1-image-1.png', mime: 'image/png' }]);
    expect(plain!.images[0]!.data).toBeUndefined();
    expect([...extracted!.images[0]!.data!.subarray(0, 4)]).toEqual([0x89, 0x50, 0x4e, 0x47]);
  });

  it('places a 30000x30000 image on a page it reads, extracting no pixels of it, as pdf.js did', async () => {
    const side = 30_000;
    const file = path.join(folder, 'huge-image.pdf');
    const objects = [
      '<< /Type /Catalog /Pages 2 0 R >>',
      '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
      '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /XObject << /Im1 5 0 R >> /Font << /F1 6 0 R >> >> >>',
      pdfStream(Buffer.from('BT /F1 24 Tf 72 740 Td (A huge figure) Tj ET q 500 0 0 600 50 50 cm /Im1 Do Q')),
      pdfStream(deflateSync(Buffer.alloc((side / 8) * side, 0xff)), ` /Type /XObject /Subtype /Image /Width ${side} /Height ${side} /ColorSpace /DeviceGray /BitsPerComponent 1 /Filter /FlateDecode`),
      '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
    ];
    await writeFile(file, assemblePdf(objects, '/Root 1 0 R'));
    const [page] = await convertFile(file, { extractImages: true });
    expect(page!.markdown).toBe('A huge figure\n\n![](folio-image:page-1-image-1.png)');
    expect(page!.images).toMatchObject([{ name: 'page-1-image-1.png' }]);
    expect(page!.images[0]!.data).toBeUndefined();
  });

  it('gives a page without text empty Markdown', async () => {
    const [page] = await convertFile(path.join(folder, 'empty.pdf'));
    expect(page!.markdown).toBe('');
    expect(page!.blocks).toEqual([]);
  });

  it('stops when the job is cancelled', async () => {
    const { pdf } = await openPdf(fixturePdfPath('two-columns'));
    try {
      const controller = new AbortController();
      controller.abort();
      const job = { pdf, page: 1, options: DEFAULT_CONVERT_OPTIONS, signal: controller.signal, render: () => Promise.reject(new Error('unused')), emitDelta: () => {}, alsoConverts: () => false };
      await expect(engine.convertPage(job)).rejects.toThrow();
    } finally {
      await pdf.destroy();
    }
  });
});
