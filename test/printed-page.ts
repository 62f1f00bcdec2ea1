/**
 * Test pages for the drawing and table code: HTML printed to PDF by Chromium, read back with
 * pdf.js into the runs, rules and image placements the text engine works from. Runs here are
 * plain pdf.js text items in page coordinates, enough for tables; the engine's own run reader
 * adds fonts and links.
 */

import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { getDocument, type PDFDocumentProxy, type PDFPageProxy } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { readDrawing } from '../electron/engine/text/operator-drawing.js';
import type { ImagePlacement, Rule, TextRun } from '../electron/engine/layout/geometry.js';
import { launchPdfPrinter } from './fixtures/print-pdf.js';

export interface PrintedPage {
  page: PDFPageProxy;
  width: number;
  height: number;
  runs: TextRun[];
  rules: Rule[];
  images: ImagePlacement[];
}

/** Prints each HTML document to a PDF and returns the PDFs' bytes, in order. */
export async function printHtml(documents: readonly string[]): Promise<Uint8Array[]> {
  const printer = await launchPdfPrinter();
  const folder = await mkdtemp(path.join(os.tmpdir(), 'folio-printed-'));
  try {
    const pdfs: Uint8Array[] = [];
    for (const [index, html] of documents.entries()) {
      const file = path.join(folder, `${index}.pdf`);
      await printer.printHtml(html, file);
      pdfs.push(new Uint8Array(await readFile(file)));
    }
    return pdfs;
  } finally {
    await printer.close();
    await rm(folder, { recursive: true, force: true });
  }
}

export async function openPrintedPdf(bytes: Uint8Array): Promise<PDFDocumentProxy> {
  return getDocument({ data: bytes.slice(), verbosity: 0, isEvalSupported: false }).promise;
}

export async function readPrintedPage(pdf: PDFDocumentProxy, pageNumber = 1): Promise<PrintedPage> {
  const page = await pdf.getPage(pageNumber);
  const viewport = page.getViewport({ scale: 1 });
  const { rules, images } = readDrawing(await page.getOperatorList(), viewport);
  const content = await page.getTextContent();
  const runs: TextRun[] = [];
  for (const item of content.items) {
    if (!('str' in item) || !item.str.trim()) continue;
    const [, , , d = 1, e = 0, f = 0] = item.transform as number[];
    const fontSize = Math.abs(d);
    const [x, baseline] = viewport.convertToViewportPoint(e, f) as [number, number];
    runs.push({
      text: item.str,
      x0: x,
      x1: x + item.width,
      y0: baseline - 0.8 * fontSize,
      y1: baseline + 0.2 * fontSize,
      fontSize,
      fontName: item.fontName,
      bold: false,
      italic: false,
      monospace: false,
    });
  }
  return { page, width: viewport.width, height: viewport.height, runs, rules, images };
}
