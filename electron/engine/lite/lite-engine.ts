/**
 * The `lite` engine: scanned pages read on the CPU from models that ship in npm packages. PP-OCRv4
 * detects and reads the lines (Tesseract for the languages PP-OCR's characters do not cover), then
 * the text engine's layout turns them into paragraphs, columns, headings and tables.
 */

import type { PDFPageProxy } from 'pdfjs-dist/legacy/build/pdf.mjs';
import type { PdfDocument } from '../pdf/pdf-document.js';
import { OCR_LANGUAGE_INFO, type OcrLanguage, type OcrReader } from '../../../shared/ocr-languages.js';
import type { PageContent, PageEngine, PageJob } from '../engine.js';
import type { RgbImage } from '../raster/rgb-image.js';
import { renderPdfPage } from '../raster/page-raster.js';
import { scannedImage } from '../raster/scan-image.js';
import { DocumentBandLines } from '../layout/document-band-lines.js';
import type { BandLine } from '../layout/running-text.js';
import { ocrBandLines, ocrBlocks, type OcrPage } from './ocr-layout.js';
import { OcrNeighbours } from './ocr-neighbours.js';
import { readPage, type PageReading } from './page-reading.js';
import { isUnsure, readingConfidence } from './reading-confidence.js';
import { unturnedBox } from './quarter-turns.js';

/**
 * Pixels on the page's longer side: about 200 dpi on A4, where 9-point text is still a dozen pixels
 * high for the detector and the recogniser gets lines at close to their own scale.
 */
export const LITE_LONG_SIDE = 2200;

/** `bandLines`: the running-text signatures of pages read, shared with the text engine. */
export function createLiteEngine(bandLines = new DocumentBandLines()): PageEngine {
  // Per document, what running headers are compared with; the models belong to the process.
  const documents = new WeakMap<PdfDocument, OcrNeighbours<PageRead>>();
  return {
    name: 'lite',
    async convertPage(job) {
      const language: OcrLanguage = job.options.lang ?? 'auto';
      const { reader } = OCR_LANGUAGE_INFO[language];
      const { pdf } = job;
      if (!pdf) return contentOf(await readJob(job, reader), job, { bands: [] });
      let neighbours = documents.get(pdf);
      if (!neighbours) documents.set(pdf, (neighbours = new OcrNeighbours(pdf, bandLines)));
      const read = neighbours.take(job.page, language) ?? (await readJob(job, reader));
      neighbours.remember(job.page, ocrBandLines(ocrPageOf(read)));
      // only a page this conversion reaches anyway is read ahead: a page converted alone costs one reading
      const readAhead = job.alsoConverts(job.page + 1)
        ? async (page: number) => {
          const ahead = await readJob(neighbourJob(job, pdf, page), reader);
          return { read: ahead, bandLines: ocrBandLines(ocrPageOf(ahead)) };
        }
        : undefined;
      return contentOf(read, job, await neighbours.around(job.page, language, readAhead, job.signal));
    },
    forgetDocument(pdf: PdfDocument) {
      documents.delete(pdf);
      bandLines.forget(pdf);
    },
  };
}

/** A page read by OCR, and its size in points as shown. */
interface PageRead {
  reading: PageReading;
  width: number;
  height: number;
}

async function readJob(job: PageJob, reader: OcrReader): Promise<PageRead> {
  const { image, width, height } = await pageImage(job);
  job.signal.throwIfAborted();
  return { reading: await readPage(image, reader, job.signal), width, height };
}

/** Another page of the document, to be read ahead as a neighbour: rendered as the session renders pages. */
function neighbourJob(job: PageJob, pdf: PdfDocument, page: number): PageJob {
  return {
    pdf, page, options: job.options, signal: job.signal, render: (longSide) => renderPdfPage(pdf, page, longSide), emitDelta: () => {},
    alsoConverts: job.alsoConverts,
  };
}

/** Laid out on the page turned as it was read, so the text reads upright. */
function ocrPageOf({ reading, width, height }: PageRead): OcrPage {
  const [readWidth, readHeight] = reading.turns % 2 === 1 ? [height, width] : [width, height];
  return { width: readWidth, height: readHeight, scale: readWidth / reading.imageWidth, lines: reading.lines };
}

/** Images up to this long are read at their own pixels rather than resampled to `LITE_LONG_SIDE`. */
const OWN_PIXELS_LONG_SIDE = LITE_LONG_SIDE * 1.5;

/**
 * An image file's page at its own pixels (one pixel is one point) unless it is huge; a scanned PDF
 * page as its scan's own pixels; any other PDF page rendered.
 */
async function pageImage(job: PageJob): Promise<{ image: RgbImage; width: number; height: number }> {
  if (!job.pdf && job.storedImage) {
    const stored = await job.storedImage();
    const image = Math.max(stored.width, stored.height) > OWN_PIXELS_LONG_SIDE ? await job.render(LITE_LONG_SIDE) : stored;
    return { image, width: stored.width, height: stored.height };
  }
  if (!job.pdf) {
    const image = await job.render(LITE_LONG_SIDE);
    return { image, width: image.width, height: image.height };
  }
  const page = await job.pdf.getPage(job.page);
  const image = await pdfPageImage(page, () => job.render(LITE_LONG_SIDE));
  const viewport = page.getViewport({ scale: 1 });
  return { image, width: viewport.width, height: viewport.height };
}

/** A PDF page as the recognisers see it: its scan's own pixels, or `render()`'s when it is no plain scan. */
export async function pdfPageImage(page: PDFPageProxy, render: () => Promise<RgbImage>): Promise<RgbImage> {
  return (await scannedImage(page, OWN_PIXELS_LONG_SIDE)) ?? render();
}

function contentOf(read: PageRead, job: PageJob, neighbours: { bands: BandLine[][]; readAhead?: number }): PageContent {
  const { reading, width, height } = read;
  const started = performance.now();
  // Boxes go back onto the page as shown.
  const { turns } = reading;
  const page = ocrPageOf(read);
  const blocks = ocrBlocks(page, job.options.keepHeaders, neighbours.bands).map(
    (block) => ({ ...block, bbox: unturnedBox(block.bbox, turns, page.width, page.height) }),
  );
  const layoutMs = performance.now() - started;
  let markdown = '';
  for (const block of blocks) {
    if (!block.markdown) continue;
    const delta = markdown ? `\n\n${block.markdown}` : block.markdown;
    markdown += delta;
    job.emitDelta(delta);
  }
  const { timings } = reading;
  const confidence = readingConfidence(reading.lines);
  const turned = turns === 0 ? '' : `scan lies ${LYING[turns]}, read turned upright; `;
  const sure = `mean character confidence ${confidence.mean.toFixed(2)}, ${percent(confidence.guessed)} of characters guessed`;
  const ahead = neighbours.readAhead ? `; page ${neighbours.readAhead} read ahead for running headers` : '';
  const reason = `${reading.reader}: ${turned}${reading.lines.length} lines, ${sure}; detection ${ms(timings.detectionMs)}, orientation ${ms(timings.orientationMs)}, recognition ${ms(timings.recognitionMs)}, layout ${ms(layoutMs)}${ahead}`;
  const measured = confidence.characters > 0 ? { confidence: Math.round(confidence.mean * 1000) / 1000 } : {};
  return { width, height, markdown, blocks, images: [], device: 'cpu', reason, ...measured, flags: isUnsure(confidence) ? ['low-confidence'] : [] };
}

/** How the scan lies, by the clockwise quarter turns that set it upright. */
const LYING = ['', 'turned 90 degrees anticlockwise', 'upside down', 'turned 90 degrees clockwise'] as const;

function ms(value: number): string {
  return `${Math.round(value)} ms`;
}

function percent(share: number): string {
  return `${(share * 100).toFixed(share < 0.1 ? 1 : 0)}%`;
}
