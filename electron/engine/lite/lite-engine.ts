/**
 * The `lite` engine: scanned pages read on the CPU from models that ship in npm packages. PP-OCRv4
 * detects and reads the lines (Tesseract for the languages PP-OCR's characters do not cover), then
 * the text engine's layout turns them into paragraphs, columns, headings and tables.
 */

import type { PDFDocumentProxy, PDFPageProxy } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { OCR_LANGUAGE_INFO, type OcrLanguage } from '../../../shared/ocr-languages.js';
import type { PageContent, PageEngine, PageJob } from '../engine.js';
import type { RgbImage } from '../raster/rgb-image.js';
import { scannedImage } from '../raster/scan-image.js';
import { ocrBlocks } from './ocr-layout.js';
import { readPage, type PageReading } from './page-reading.js';
import { unturnedBox } from './quarter-turns.js';

/**
 * Pixels on the page's longer side: about 200 dpi on A4, where 9-point text is still a dozen pixels
 * high for the detector and the recogniser gets lines at close to their own scale.
 */
export const LITE_LONG_SIDE = 2200;

export function createLiteEngine(): PageEngine {
  return {
    name: 'lite',
    async convertPage(job) {
      const language: OcrLanguage = job.options.lang ?? 'auto';
      const { image, width, height } = await pageImage(job);
      job.signal.throwIfAborted();
      const reading = await readPage(image, OCR_LANGUAGE_INFO[language].reader, job.signal);
      return contentOf(reading, width, height, job);
    },
    forgetDocument(_pdf: PDFDocumentProxy) {
      // nothing is kept per document: the models belong to the process
    },
  };
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

function contentOf(reading: PageReading, width: number, height: number, job: PageJob): PageContent {
  const started = performance.now();
  // Laid out on the page turned as it was read, so the text reads upright; boxes go back onto the page as shown.
  const { turns } = reading;
  const [readWidth, readHeight] = turns % 2 === 1 ? [height, width] : [width, height];
  const blocks = ocrBlocks({ width: readWidth, height: readHeight, scale: readWidth / reading.imageWidth, lines: reading.lines }, job.options.keepHeaders).map(
    (block) => ({ ...block, bbox: unturnedBox(block.bbox, turns, readWidth, readHeight) }),
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
  const turned = turns === 0 ? '' : `scan lies ${LYING[turns]}, read turned upright; `;
  const reason = `${reading.reader}: ${turned}${reading.lines.length} lines; detection ${ms(timings.detectionMs)}, orientation ${ms(timings.orientationMs)}, recognition ${ms(timings.recognitionMs)}, layout ${ms(layoutMs)}`;
  return { width, height, markdown, blocks, images: [], device: 'cpu', reason };
}

/** How the scan lies, by the clockwise quarter turns that set it upright. */
const LYING = ['', 'turned 90 degrees anticlockwise', 'upside down', 'turned 90 degrees clockwise'] as const;

function ms(value: number): string {
  return `${Math.round(value)} ms`;
}
