/** Decodes a page image file (PNG, JPEG, WebP, GIF, via @napi-rs/canvas) or a pdf.js page into RGB. */

import { createCanvas, loadImage } from '@napi-rs/canvas';
import { OPS, type PDFPageProxy } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { FailureError } from '../../core/failure-error.js';
import { MAX_MEGAPIXELS } from '../image/image-pages.js';
import { pageToRender } from '../pdf/open-pdf.js';
import { pdfjsDocument, type PdfDocument } from '../pdf/pdf-document.js';
import { rgbFromRgba, type RgbImage } from './rgb-image.js';

export async function decodeImage(bytes: Uint8Array): Promise<RgbImage> {
  const image = await loadImage(Buffer.from(bytes));
  const canvas = createCanvas(image.width, image.height);
  const context = canvas.getContext('2d');
  context.drawImage(image, 0, 0);
  return rgbFromRgba(image.width, image.height, context.getImageData(0, 0, image.width, image.height).data);
}

/** Renders page `pageNumber` of `pdf` (its renderable twin: see openPdf) so that its longer side is `longSide` pixels. */
export async function renderPdfPage(pdf: PdfDocument, pageNumber: number, longSide: number): Promise<RgbImage> {
  return renderPage(await pageToRender(await pdfjsDocument(pdf), pageNumber), longSide);
}

/**
 * Renders a PDF page on white so that its longer side is `longSide` pixels; the page must come from
 * a document opened with glyph outlines. A page that paints an image larger than an image file may
 * be is refused first, as such a file is: pdf.js would draw it through a canvas of its full size,
 * which fails ("Create skia surface failed") or exhausts memory.
 */
export async function renderPage(page: PDFPageProxy, longSide: number): Promise<RgbImage> {
  // the same operator list the render below uses (pdf.js keeps it), so this costs no second parse
  const largest = largestImage(await page.getOperatorList());
  if (largest && largest.width * largest.height > MAX_MEGAPIXELS * 1e6) {
    const megapixels = Math.round((largest.width * largest.height) / 1e6);
    throw new FailureError(
      'damaged',
      `page ${page.pageNumber} holds a ${largest.width}x${largest.height} image (${megapixels} megapixels), more than the ${MAX_MEGAPIXELS} a page may have, so it cannot be drawn to be read`,
      'text-engine',
    );
  }
  const base = page.getViewport({ scale: 1 });
  const viewport = page.getViewport({ scale: longSide / Math.max(base.width, base.height) });
  const width = Math.max(1, Math.round(viewport.width));
  const height = Math.max(1, Math.round(viewport.height));
  const canvas = createCanvas(width, height);
  const context = canvas.getContext('2d');
  context.fillStyle = '#ffffff';
  context.fillRect(0, 0, width, height);
  // pdf.js accepts any 2D context; @napi-rs/canvas's is close enough to the DOM's for its renderer
  const parameters = { canvas: null, canvasContext: context, viewport } as unknown as Parameters<PDFPageProxy['render']>[0];
  await page.render(parameters).promise;
  return rgbFromRgba(width, height, context.getImageData(0, 0, width, height).data);
}

interface ImageSize {
  width: number;
  height: number;
}

/** The image with the most pixels the operator list paints; images drawn repeatedly are small by construction and not counted. */
function largestImage(ops: { fnArray: number[]; argsArray: unknown[] }): ImageSize | undefined {
  let largest: ImageSize | undefined;
  ops.fnArray.forEach((fn, index) => {
    const args = ops.argsArray[index] as unknown[] | null;
    let size: ImageSize | undefined;
    if (fn === OPS.paintImageXObject) size = { width: Number(args?.[1]), height: Number(args?.[2]) };
    else if (fn === OPS.paintInlineImageXObject || fn === OPS.paintImageMaskXObject) {
      const image = args?.[0] as Partial<ImageSize> | null | undefined;
      size = { width: Number(image?.width), height: Number(image?.height) };
    }
    if (size && Number.isFinite(size.width * size.height) && size.width * size.height > (largest ? largest.width * largest.height : 0)) largest = size;
  });
  return largest;
}
