/**
 * Scanned test documents, made from the project's own fixture PDFs: each page rendered at a scanner's
 * resolution, degraded (skew, blur, noise), JPEG-compressed and wrapped back into an image-only PDF.
 * The known text of every scan is its source's text layer. Also a Chinese page, a PDF mixing text
 * pages with scans, and a scan under an invisible, wrong OCR layer. Written to `test/scans/out/`
 * (ignored by git) and rebuilt only when a source or this generator changes.
 */

import { mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createCanvas, ImageData } from '@napi-rs/canvas';
import { PDFDocument, setTextRenderingMode, StandardFonts, TextRenderingMode } from 'pdf-lib';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { encodeCanvas } from '../../electron/core/canvas-encoding.js';
import { renderPage } from '../../electron/engine/raster/page-raster.js';
import { fixturePdfPath } from '../fixtures/build-fixtures.js';
import { launchPdfPrinter } from '../fixtures/print-pdf.js';
import { degrade, type GreyImage, type ScanDefects } from './degrade.js';

export const SCAN_DIR = fileURLToPath(new URL('./out/', import.meta.url));
const GENERATOR_FILES = ['scan-fixtures.ts', 'degrade.ts', 'chinese-page.html'].map((f) => fileURLToPath(new URL(`./${f}`, import.meta.url)));

export interface ScanSpec {
  /** The born-digital fixture scanned (its first page), or `chinese` for the Chinese page. */
  source: string;
  dpi: number;
  defects: ScanDefects;
}

/** Clean 200 dpi is the target case; the others are what offices and archives actually produce. */
export const SCANS = {
  'paper-clean-200': { source: 'paper', dpi: 200, defects: { skewDegrees: 0, blurPasses: 0, noise: 0, seed: 1 } },
  'paper-200': { source: 'paper', dpi: 200, defects: { skewDegrees: 0.7, blurPasses: 1, noise: 8, seed: 2 } },
  'letter-150': { source: 'letter', dpi: 150, defects: { skewDegrees: -0.5, blurPasses: 1, noise: 6, seed: 3 } },
  'headings-300': { source: 'headings', dpi: 300, defects: { skewDegrees: 1.2, blurPasses: 2, noise: 10, seed: 4 } },
  'chinese-200': { source: 'chinese', dpi: 200, defects: { skewDegrees: 0.4, blurPasses: 1, noise: 6, seed: 5 } },
} satisfies Record<string, ScanSpec>;
export type ScanName = keyof typeof SCANS;

export function scanPath(name: ScanName | 'mixed' | 'wrong-ocr-layer' | 'good-ocr-layer'): string {
  return path.join(SCAN_DIR, `${name}.pdf`);
}

/** The letter scan as a JPEG file, the way a phone or a scanner's "save as image" delivers it. */
export const SCAN_JPEG = path.join(SCAN_DIR, 'letter-150.jpg');

/** The born-digital PDF a scan was made from (whose text layer is the scan's known text). */
export function sourcePdfPath(name: ScanName): string {
  const { source } = SCANS[name];
  return source === 'chinese' ? path.join(SCAN_DIR, 'chinese-source.pdf') : fixturePdfPath(source);
}

/** Builds whatever is missing or stale; the fixture PDFs must exist (vitest's global setup prints them). */
export async function buildScanFixtures(): Promise<void> {
  await mkdir(SCAN_DIR, { recursive: true });
  const generated = Math.max(...(await Promise.all(GENERATOR_FILES.map(async (f) => (await stat(f)).mtimeMs))));
  const stale = async (out: string, sources: string[]) => {
    const outTime = await stat(out).then((s) => s.mtimeMs, () => 0);
    const newest = Math.max(generated, ...(await Promise.all(sources.map(async (s) => (await stat(s)).mtimeMs))));
    return outTime < newest;
  };
  const chineseSource = sourcePdfPath('chinese-200');
  if (await stale(chineseSource, [])) await printChinese(chineseSource);
  for (const [name, spec] of Object.entries(SCANS) as [ScanName, ScanSpec][]) {
    if (await stale(scanPath(name), [sourcePdfPath(name)])) {
      const { pdf, jpeg } = await scanPdf(sourcePdfPath(name), spec);
      await writeFile(scanPath(name), pdf);
      if (name === 'letter-150') await writeFile(SCAN_JPEG, jpeg);
    }
  }
  if (await stale(scanPath('mixed'), [fixturePdfPath('letter'), fixturePdfPath('headings'), scanPath('paper-200')])) {
    await writeFile(scanPath('mixed'), await mixedPdf());
  }
  if (await stale(scanPath('wrong-ocr-layer'), [scanPath('letter-150')])) await writeFile(scanPath('wrong-ocr-layer'), await ocrLayerPdf(GARBLED));
  if (await stale(scanPath('good-ocr-layer'), [scanPath('letter-150')])) await writeFile(scanPath('good-ocr-layer'), await ocrLayerPdf(LETTER));
}

async function printChinese(out: string): Promise<void> {
  const printer = await launchPdfPrinter();
  try {
    await printer.printFile(fileURLToPath(new URL('./chinese-page.html', import.meta.url)), out);
  } finally {
    await printer.close();
  }
}

/**
 * The source's first page (or all its pages, each with its own noise) as image-only PDF pages of the
 * same size, and the first page's image.
 */
export async function scanPdf(source: string, spec: ScanSpec, pages: 'first' | 'all' = 'first'): Promise<{ pdf: Uint8Array; jpeg: Buffer }> {
  const pdf = await getDocument({ data: new Uint8Array(await readFile(source)), verbosity: 0 }).promise;
  try {
    const out = await PDFDocument.create();
    const jpegs: Buffer[] = [];
    for (let n = 1; n <= (pages === 'all' ? pdf.numPages : 1); n++) {
      const page = await pdf.getPage(n);
      const { width, height } = page.getViewport({ scale: 1 });
      const defects = { ...spec.defects, seed: spec.defects.seed + n - 1 };
      const jpeg = await encodeJpeg(degrade(await renderPage(page, (Math.max(width, height) * spec.dpi) / 72), defects));
      out.addPage([width, height]).drawImage(await out.embedJpg(jpeg), { x: 0, y: 0, width, height });
      jpegs.push(jpeg);
    }
    return { pdf: await out.save(), jpeg: jpegs[0]! };
  } finally {
    await pdf.destroy();
  }
}

async function encodeJpeg(image: GreyImage): Promise<Buffer> {
  const rgba = new Uint8ClampedArray(image.width * image.height * 4);
  for (let i = 0; i < image.data.length; i++) {
    rgba.fill(image.data[i]!, 4 * i, 4 * i + 3);
    rgba[4 * i + 3] = 255;
  }
  const canvas = createCanvas(image.width, image.height);
  canvas.getContext('2d').putImageData(new ImageData(rgba, image.width, image.height), 0, 0);
  return encodeCanvas(canvas, 'jpeg', 88);
}

/** Text page (letter), scanned page (paper), text page (headings): routed page by page. */
async function mixedPdf(): Promise<Uint8Array> {
  const out = await PDFDocument.create();
  for (const file of [fixturePdfPath('letter'), scanPath('paper-200'), fixturePdfPath('headings')]) {
    const source = await PDFDocument.load(await readFile(file));
    const [page] = await out.copyPages(source, [0]);
    out.addPage(page!);
  }
  return out.save();
}

/** The letter scan under an invisible OCR layer, as scanners write one over the image. */
async function ocrLayerPdf(lines: readonly string[]): Promise<Uint8Array> {
  const pdf = await PDFDocument.load(await readFile(scanPath('letter-150')));
  const page = pdf.getPage(0);
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  page.pushOperators(setTextRenderingMode(TextRenderingMode.Invisible));
  const { height } = page.getSize();
  lines.forEach((line, i) => page.drawText(line, { x: 60, y: height - 90 - i * 16, size: 11, font }));
  return pdf.save();
}

/** What a poor scanner's OCR makes of the letter. */
const GARBLED = [
  'Dcar Ms Hcndr1cks, tbank yOu f0r yOur lctter 0f thc 4tb.',
  'Wc ha\\/e rcvicwcd thc p1ans and rcgrct tb@t tbc w0rks',
  'cann0t bcg1n bcf0rc Scptcmbcr; thc c0ntract0r nccds',
  'thc s1tc c1car 0f vchic1cs fr0m thc f1rst wcck.',
  'Y0urs s1nccrc1y, ~ :: ;; || ## %% && ** ^^',
];

/** What a good scanner's OCR makes of it. */
const LETTER = [
  'Dear Ms Ruiz,',
  'Thank you for your letter about the survey walks along the harbour wall. The board is happy for',
  'volunteers to use the wall path before eight in the morning, when the quay is closed to vehicles.',
  'Please ask each volunteer to carry the enclosed pass and to keep clear of the crane tracks.',
  'Yours sincerely, Daniel Price, Harbour Master',
];
