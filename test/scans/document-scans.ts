/**
 * Scans for the French reader and for running headers on OCR pages: a French page (printed from
 * french-page.html) scanned at 200 dpi; the four-page running-headers fixture (a header and a
 * "Page N of 4" footer on every page) scanned whole at 200 dpi; and that document mixed: text and
 * scanned pages taking turns, and a text page among scans. Written beside the other scans (`test/scans/out/`)
 * and rebuilt only when a source or a generator changes.
 */

import { readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PDFDocument } from 'pdf-lib';
import { fixturePdfPath } from '../fixtures/build-fixtures.js';
import { launchPdfPrinter } from '../fixtures/print-pdf.js';
import { SCAN_DIR, scanPdf, type ScanSpec } from './scan-fixtures.js';

const FRENCH_HTML = fileURLToPath(new URL('./french-page.html', import.meta.url));
const GENERATORS = [fileURLToPath(import.meta.url), fileURLToPath(new URL('./scan-fixtures.ts', import.meta.url)), fileURLToPath(new URL('./degrade.ts', import.meta.url))];

/** Mild defects, as an office scanner at 200 dpi leaves them. */
const FRENCH: ScanSpec = { source: 'french', dpi: 200, defects: { skewDegrees: 0.4, blurPasses: 1, noise: 6, seed: 11 } };
const RUNNING_HEADERS: ScanSpec = { source: 'running-headers', dpi: 200, defects: { skewDegrees: -0.3, blurPasses: 1, noise: 6, seed: 21 } };

export const DOCUMENT_SCANS = {
  /** The printed French page, whose text layer is the scan's known text. */
  frenchSource: path.join(SCAN_DIR, 'french-source.pdf'),
  french: path.join(SCAN_DIR, 'french-200.pdf'),
  /** The born-digital four pages; the text engine leaves their header and footer out. */
  runningHeadersSource: fixturePdfPath('running-headers'),
  runningHeaders: path.join(SCAN_DIR, 'running-headers-200.pdf'),
  /** Text, scan, text, scan. */
  runningHeadersMixed: path.join(SCAN_DIR, 'running-headers-mixed.pdf'),
  /** Scan, scan, text, scan: a text page whose neighbours are all scans. */
  runningHeadersTextAmongScans: path.join(SCAN_DIR, 'running-headers-text-among-scans.pdf'),
};

/** Builds whatever is missing or stale; the fixture PDFs must exist (vitest's global setup prints them). */
export async function buildDocumentScans(): Promise<void> {
  const generated = Math.max(...(await Promise.all(GENERATORS.map(mtime))));
  const stale = async (out: string, sources: string[]) => (await mtime(out).catch(() => 0)) < Math.max(generated, ...(await Promise.all(sources.map(mtime))));
  const scans = DOCUMENT_SCANS;
  if (await stale(scans.frenchSource, [FRENCH_HTML])) {
    const printer = await launchPdfPrinter();
    try {
      await printer.printFile(FRENCH_HTML, scans.frenchSource);
    } finally {
      await printer.close();
    }
  }
  if (await stale(scans.french, [scans.frenchSource])) await writeFile(scans.french, (await scanPdf(scans.frenchSource, FRENCH)).pdf);
  if (await stale(scans.runningHeaders, [scans.runningHeadersSource])) {
    await writeFile(scans.runningHeaders, (await scanPdf(scans.runningHeadersSource, RUNNING_HEADERS, 'all')).pdf);
  }
  for (const [out, pattern] of [
    [scans.runningHeadersMixed, ['text', 'scan', 'text', 'scan']],
    [scans.runningHeadersTextAmongScans, ['scan', 'scan', 'text', 'scan']],
  ] as const) {
    if (await stale(out, [scans.runningHeadersSource, scans.runningHeaders])) await writeFile(out, await mixed(scans.runningHeadersSource, scans.runningHeaders, pattern));
  }
}

async function mtime(file: string): Promise<number> {
  return (await stat(file)).mtimeMs;
}

/** Each page from the born-digital document or its scan, as `pattern` says. */
async function mixed(text: string, scan: string, pattern: readonly ('text' | 'scan')[]): Promise<Uint8Array> {
  const sources = { text: await PDFDocument.load(await readFile(text)), scan: await PDFDocument.load(await readFile(scan)) };
  const out = await PDFDocument.create();
  for (const [i, kind] of pattern.entries()) {
    const [page] = await out.copyPages(sources[kind], [i]);
    out.addPage(page!);
  }
  return out.save();
}
