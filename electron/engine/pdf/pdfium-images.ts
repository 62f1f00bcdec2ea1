/**
 * The pixels of images a page paints, read with PDFium: each image is found again by its path of
 * object indices (pdfium-drawing.ts) and rendered by `FPDFImageObj_GetRenderedBitmap`, which applies
 * its soft mask, stencil mask and colour space, as RGBA. Sizes are checked before any bitmap is made:
 * an image whose dictionary claims more pixels than `maxPixels` is not decoded, and a larger one is
 * rendered straight at `maxSide`, so no full-size bitmap is ever allocated for it.
 */

import { PDFIUM_IMAGE_PREFIX, type ObjectTreeExports } from './pdfium-drawing.js';

/** An image's pixels, top row first, 4 bytes (RGBA, not premultiplied) a pixel. */
export interface ImagePixels {
  width: number;
  height: number;
  rgba: Uint8ClampedArray;
}

/** The WebAssembly functions read per image. */
export interface ImageExports extends ObjectTreeExports {
  FPDFPageObj_SetMatrix(object: number, matrix: number): number;
  FPDFImageObj_GetImagePixelSize(image: number, width: number, height: number): number;
  FPDFImageObj_GetRenderedBitmap(document: number, page: number, image: number): number;
  FPDFBitmap_GetWidth(bitmap: number): number;
  FPDFBitmap_GetHeight(bitmap: number): number;
  FPDFBitmap_GetStride(bitmap: number): number;
  FPDFBitmap_GetFormat(bitmap: number): number;
  FPDFBitmap_GetBuffer(bitmap: number): number;
  FPDFBitmap_Destroy(bitmap: number): void;
}

export interface ImageHeap {
  HEAPU8: Uint8Array;
  HEAPF32: Float32Array;
  HEAPU32: Uint32Array;
}

export interface ImageLimits {
  /** Longest side of the pixels given, larger images are scaled down to it. */
  maxSide: number;
  /** Images whose dictionary claims more pixels are not decoded at all. */
  maxPixels: number;
}

/** Bytes of scratch memory `readImagePixels` needs: two matrices of 6 floats. */
export const IMAGE_SCRATCH_BYTES = 48;

/**
 * An image this small on each side is a flat colour whose soft mask carries the picture (a 2x2
 * colour under a 1264x273 mask of text); PDFium's API does not give the mask's size, which pdf.js
 * decodes the image at, so such an image is drawn at this many pixels per point of its placement.
 */
const COLOUR_UNDER_MASK_SIDE = 8;
const UPSAMPLED_PIXELS_PER_POINT = 600 / 72;
const IMAGE_OBJECT = 3;
const FORM_OBJECT = 5;
// FPDFBitmap_* formats (fpdfview.h).
const GRAY = 1;
const BGR = 2;
const BGRX = 3;
const BGRA = 4;

/**
 * Each wanted image's pixels on the loaded `page`, by object id; an image that is too large, or that
 * PDFium cannot decode, is left out. Every bitmap made is destroyed, and every matrix restored.
 */
export function readImagePixels(
  api: ImageExports,
  heap: ImageHeap,
  document: number,
  page: number,
  objectIds: readonly string[],
  limits: ImageLimits,
  scratch: number,
): Map<string, ImagePixels> {
  const pixels = new Map<string, ImagePixels>();
  for (const objectId of objectIds) {
    const object = findObject(api, page, objectId);
    if (!object) continue;
    const read = renderImage(api, heap, document, page, object, limits, scratch);
    if (read) pixels.set(objectId, read);
  }
  return pixels;
}

function findObject(api: ImageExports, page: number, objectId: string): number {
  if (!objectId.startsWith(PDFIUM_IMAGE_PREFIX)) return 0;
  const path = objectId.slice(PDFIUM_IMAGE_PREFIX.length).split('.').map(Number);
  let object = 0;
  for (const [depth, index] of path.entries()) {
    if (!Number.isInteger(index) || index < 0) return 0;
    if (depth === 0) object = index < api.FPDFPage_CountObjects(page) ? api.FPDFPage_GetObject(page, index) : 0;
    else object = api.FPDFPageObj_GetType(object) === FORM_OBJECT && index < api.FPDFFormObj_CountObjects(object) ? api.FPDFFormObj_GetObject(object, index) : 0;
    if (!object) return 0;
  }
  return api.FPDFPageObj_GetType(object) === IMAGE_OBJECT ? object : 0;
}

function renderImage(
  api: ImageExports,
  heap: ImageHeap,
  document: number,
  page: number,
  image: number,
  limits: ImageLimits,
  scratch: number,
): ImagePixels | undefined {
  if (!api.FPDFImageObj_GetImagePixelSize(image, scratch, scratch + 4)) return undefined;
  const width = heap.HEAPU32[scratch >> 2] ?? 0;
  const height = heap.HEAPU32[(scratch + 4) >> 2] ?? 0;
  if (width <= 0 || height <= 0 || width * height > limits.maxPixels) return undefined;
  const saved = scratch;
  const placed = scratch + 24;
  if (!api.FPDFPageObj_GetMatrix(image, saved)) return undefined;
  const m = heap.HEAPF32.subarray(saved >> 2, (saved >> 2) + 4);
  const [placedWidth, placedHeight] = [Math.hypot(m[0]!, m[1]!), Math.hypot(m[2]!, m[3]!)];
  const [wide, high] =
    Math.max(width, height) <= COLOUR_UNDER_MASK_SIDE
      ? [Math.max(width, placedWidth * UPSAMPLED_PIXELS_PER_POINT), Math.max(height, placedHeight * UPSAMPLED_PIXELS_PER_POINT)]
      : [width, height];
  const scale = Math.min(1, limits.maxSide / Math.max(wide, high));
  const outWidth = Math.max(1, Math.round(wide * scale));
  const outHeight = Math.max(1, Math.round(high * scale));
  // PDFium renders the image at its matrix's size, upright only; placed at [w 0 0 h 0 0] it comes
  // out at that many pixels, the right way up as the image's rows are stored (pdf.js gives them so).
  heap.HEAPF32.set([outWidth, 0, 0, outHeight, 0, 0], placed >> 2);
  if (!api.FPDFPageObj_SetMatrix(image, placed)) return undefined;
  let bitmap = 0;
  try {
    bitmap = api.FPDFImageObj_GetRenderedBitmap(document, page, image);
    return bitmap ? bitmapPixels(api, heap, bitmap) : undefined;
  } finally {
    if (bitmap) api.FPDFBitmap_Destroy(bitmap);
    api.FPDFPageObj_SetMatrix(image, saved);
  }
}

function bitmapPixels(api: ImageExports, heap: ImageHeap, bitmap: number): ImagePixels | undefined {
  const width = api.FPDFBitmap_GetWidth(bitmap);
  const height = api.FPDFBitmap_GetHeight(bitmap);
  const stride = api.FPDFBitmap_GetStride(bitmap);
  const format = api.FPDFBitmap_GetFormat(bitmap);
  const buffer = api.FPDFBitmap_GetBuffer(bitmap);
  const bytesPerPixel = format === GRAY ? 1 : format === BGR ? 3 : format === BGRX || format === BGRA ? 4 : 0;
  if (!buffer || width <= 0 || height <= 0 || !bytesPerPixel || stride < width * bytesPerPixel) return undefined;
  const source = heap.HEAPU8;
  const rgba = new Uint8ClampedArray(width * height * 4);
  for (let y = 0; y < height; y++) {
    let from = buffer + y * stride;
    let to = y * width * 4;
    for (let x = 0; x < width; x++, from += bytesPerPixel, to += 4) {
      if (bytesPerPixel === 1) {
        rgba[to] = rgba[to + 1] = rgba[to + 2] = source[from]!;
        rgba[to + 3] = 255;
      } else {
        rgba[to] = source[from + 2]!;
        rgba[to + 1] = source[from + 1]!;
        rgba[to + 2] = source[from]!;
        rgba[to + 3] = format === BGRA ? source[from + 3]! : 255;
      }
    }
  }
  return { width, height, rgba };
}
