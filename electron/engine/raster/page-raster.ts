/** Decodes a page image file (PNG, JPEG, WebP, GIF, via @napi-rs/canvas) or a pdf.js page into RGB. */

import { createCanvas, loadImage } from '@napi-rs/canvas';
import type { PDFDocumentProxy, PDFPageProxy } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { pageToRender } from '../pdf/open-pdf.js';
import { rgbFromRgba, type RgbImage } from './rgb-image.js';

export async function decodeImage(bytes: Uint8Array): Promise<RgbImage> {
  const image = await loadImage(Buffer.from(bytes));
  const canvas = createCanvas(image.width, image.height);
  const context = canvas.getContext('2d');
  context.drawImage(image, 0, 0);
  return rgbFromRgba(image.width, image.height, context.getImageData(0, 0, image.width, image.height).data);
}

/** Renders page `pageNumber` of `pdf` (its renderable twin: see openPdf) so that its longer side is `longSide` pixels. */
export async function renderPdfPage(pdf: PDFDocumentProxy, pageNumber: number, longSide: number): Promise<RgbImage> {
  return renderPage(await pageToRender(pdf, pageNumber), longSide);
}

/** Renders a PDF page on white so that its longer side is `longSide` pixels; the page must come from a document opened with glyph outlines. */
export async function renderPage(page: PDFPageProxy, longSide: number): Promise<RgbImage> {
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
