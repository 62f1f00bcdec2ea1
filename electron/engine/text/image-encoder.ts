/**
 * An image painted on a page, as PNG bytes: its decoded pixels fetched from pdf.js (or read by
 * PDFium, pdf/pdfium-images.ts) and re-encoded with @napi-rs/canvas. Whatever cannot be decoded gives undefined; extraction is best effort and
 * must never fail a page.
 */

import type { Canvas } from '@napi-rs/canvas';
import type { ImageKind, PDFPageProxy } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { encodeCanvas } from '../../core/canvas-encoding.js';
import { INLINE_IMAGE_PREFIX } from './drawing.js';
import type { ImagePlacement } from '../layout/geometry.js';
import type { ImageLimits, ImagePixels } from '../pdf/pdfium-images.js';

/** Longest side of an extracted image, in pixels: enough to read a figure, small enough to ship. */
const MAX_SIDE = 2000;
/** Larger images are not decoded at all (a corrupt size field can claim gigapixels). */
const MAX_PIXELS = 100_000_000;
/** The bounds PDFium's reader applies before it makes any bitmap, the same as pdf.js's images get here. */
export const IMAGE_LIMITS: ImageLimits = { maxSide: MAX_SIDE, maxPixels: MAX_PIXELS };
/** pdf.js decodes images while the operator list is built; this bounds the wait for one that never comes. */
const WAIT_MS = 10_000;

/** The parts of pdf.js's decoded image object that we read. */
interface DecodedImage {
  width: number;
  height: number;
  kind?: number;
  data?: Uint8Array | Uint8ClampedArray;
  bitmap?: unknown;
}

type CanvasApi = typeof import('@napi-rs/canvas');
let canvasApi: Promise<CanvasApi> | undefined;

/** @napi-rs/canvas, loaded on the first image: a page without figures never needs its native library. */
function loadCanvas(): Promise<CanvasApi> {
  canvasApi ??= import('@napi-rs/canvas');
  return canvasApi;
}

export async function encodeImage(page: PDFPageProxy, placement: ImagePlacement): Promise<Uint8Array | undefined> {
  try {
    const image = await decodedImage(page, placement.objectId);
    if (!image) return undefined;
    // pdf.js is loaded by now (it decoded the image); not imported up front, for PDFium's pages never need it
    const [api, { ImageKind: kinds }] = await Promise.all([loadCanvas(), import('pdfjs-dist/legacy/build/pdf.mjs')]);
    const canvas = image.data ? pixelCanvas(api, image, kinds) : bitmapCanvas(api, image);
    return canvas ? new Uint8Array(await encodeCanvas(canvas, 'png')) : undefined;
  } catch {
    return undefined;
  }
}

/** PNG bytes of pixels PDFium read (already within IMAGE_LIMITS); undefined when encoding fails. */
export async function encodePixels(pixels: ImagePixels): Promise<Uint8Array | undefined> {
  try {
    const api = await loadCanvas();
    return new Uint8Array(await encodeCanvas(fitted(api, pixelsCanvas(api, pixels)), 'png'));
  } catch {
    return undefined;
  }
}

async function decodedImage(page: PDFPageProxy, objectId: string): Promise<DecodedImage | undefined> {
  if (objectId.startsWith(INLINE_IMAGE_PREFIX)) {
    // Inline images have no object id; the operator list (cached by pdf.js) still holds their pixels.
    const index = Number(objectId.slice(INLINE_IMAGE_PREFIX.length));
    const ops = await page.getOperatorList();
    return asDecodedImage((ops.argsArray[index] as unknown[] | undefined)?.[0]);
  }
  const store = objectId.startsWith('g_') ? page.commonObjs : page.objs;
  return asDecodedImage(await resolvedObject(store, objectId));
}

function resolvedObject(store: PDFPageProxy['objs'], objectId: string): Promise<unknown> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(undefined), WAIT_MS);
    store.get(objectId, (data: unknown) => {
      clearTimeout(timer);
      resolve(data);
    });
  });
}

function asDecodedImage(value: unknown): DecodedImage | undefined {
  if (value === null || typeof value !== 'object') return undefined;
  const image = value as DecodedImage;
  const { width, height } = image;
  const sized = Number.isInteger(width) && Number.isInteger(height) && width > 0 && height > 0 && width * height <= MAX_PIXELS;
  return sized ? image : undefined;
}

/** Raw pixel data: every `step`-th pixel in each direction (bounded memory), then smoothed down. */
function pixelCanvas(api: CanvasApi, image: DecodedImage, kinds: typeof ImageKind): Canvas | undefined {
  const step = Math.max(1, Math.floor(Math.max(image.width, image.height) / (2 * MAX_SIDE)));
  const pixels = samplePixels(image, step, kinds);
  return pixels && fitted(api, pixelsCanvas(api, pixels));
}

function pixelsCanvas(api: CanvasApi, pixels: ImagePixels): Canvas {
  const canvas = api.createCanvas(pixels.width, pixels.height);
  canvas.getContext('2d').putImageData(new api.ImageData(pixels.rgba, pixels.width, pixels.height), 0, 0);
  return canvas;
}

function samplePixels(image: DecodedImage, step: number, kinds: typeof ImageKind): ImagePixels | undefined {
  const data = image.data!;
  const width = Math.ceil(image.width / step);
  const height = Math.ceil(image.height / step);
  const rgba = new Uint8ClampedArray(width * height * 4);
  const read = pixelReader(image, data, kinds);
  if (!read) return undefined;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) read(x * step, y * step, rgba, (y * width + x) * 4);
  }
  return { width, height, rgba };
}

type PixelReader = (x: number, y: number, out: Uint8ClampedArray, at: number) => void;

/** Reads one source pixel as RGBA, for each pixel layout pdf.js produces; undefined for data too short. */
function pixelReader(image: DecodedImage, data: Uint8Array | Uint8ClampedArray, kinds: typeof ImageKind): PixelReader | undefined {
  const { width, height } = image;
  const rowBytes = Math.ceil(width / 8);
  switch (image.kind) {
    case kinds.RGBA_32BPP:
      if (data.length < width * height * 4) return undefined;
      return (x, y, out, at) => {
        const from = (y * width + x) * 4;
        out[at] = data[from]!;
        out[at + 1] = data[from + 1]!;
        out[at + 2] = data[from + 2]!;
        out[at + 3] = data[from + 3]!;
      };
    case kinds.RGB_24BPP:
      if (data.length < width * height * 3) return undefined;
      return (x, y, out, at) => {
        const from = (y * width + x) * 3;
        out[at] = data[from]!;
        out[at + 1] = data[from + 1]!;
        out[at + 2] = data[from + 2]!;
        out[at + 3] = 255;
      };
    case kinds.GRAYSCALE_1BPP:
      // One bit per pixel, rows padded to whole bytes: 1 is white, 0 black.
      if (data.length < rowBytes * height) return undefined;
      return (x, y, out, at) => {
        const value = bitAt(data, rowBytes, x, y) ? 255 : 0;
        out.fill(value, at, at + 3);
        out[at + 3] = 255;
      };
    case undefined:
      // An image mask (stencil): 1 bits let the page show through, 0 bits paint (drawn black here).
      if (data.length < rowBytes * height) return undefined;
      return (x, y, out, at) => {
        out.fill(0, at, at + 3);
        out[at + 3] = bitAt(data, rowBytes, x, y) ? 0 : 255;
      };
    default:
      return undefined;
  }
}

function bitAt(data: Uint8Array | Uint8ClampedArray, rowBytes: number, x: number, y: number): boolean {
  return ((data[y * rowBytes + (x >> 3)]! >> (7 - (x & 7))) & 1) === 1;
}

/** An already-drawn image (pdf.js hands over bitmaps when it can decode to a canvas itself). */
function bitmapCanvas(api: CanvasApi, image: DecodedImage): Canvas | undefined {
  const bitmap = image.bitmap as Parameters<ReturnType<Canvas['getContext']>['drawImage']>[0] | undefined;
  if (!bitmap) return undefined;
  const canvas = api.createCanvas(image.width, image.height);
  canvas.getContext('2d').drawImage(bitmap, 0, 0);
  return fitted(api, canvas);
}

/** The canvas scaled down (smoothly) so that its longest side is at most MAX_SIDE. */
function fitted(api: CanvasApi, canvas: Canvas): Canvas {
  const scale = MAX_SIDE / Math.max(canvas.width, canvas.height);
  if (scale >= 1) return canvas;
  const smaller = api.createCanvas(Math.max(1, Math.round(canvas.width * scale)), Math.max(1, Math.round(canvas.height * scale)));
  smaller.getContext('2d').drawImage(canvas, 0, 0, smaller.width, smaller.height);
  return smaller;
}
