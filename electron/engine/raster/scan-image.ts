/**
 * A scanned PDF page's own image, taken from what pdf.js decoded for the page's operator list
 * instead of rendering the page: a scan is one image over the whole page, so rendering only
 * resamples it (0.4 s of 2.6 s on a 200-dpi A4 scan) and blurs it a little. Anything else drawn on
 * the page (visible text, vector art, a second image, a turned page) keeps the rendered path.
 */

import { AnnotationMode, ImageKind, OPS, type PDFPageProxy } from 'pdfjs-dist/legacy/build/pdf.mjs';
import type { RgbImage } from './rgb-image.js';

type Matrix = [number, number, number, number, number, number];

/** Operations that draw nothing: state, text positioning, marked content, colour choices. */
const STATE_OPS = new Set<number>(
  (
    [
      'save', 'restore', 'transform', 'dependency', 'setGState', 'setLineWidth', 'setLineCap', 'setLineJoin',
      'setMiterLimit', 'setDash', 'setRenderingIntent', 'setFlatness', 'beginText', 'endText', 'setCharSpacing',
      'setWordSpacing', 'setHScale', 'setLeading', 'setFont', 'setTextRenderingMode', 'setTextRise', 'moveText',
      'setLeadingMoveText', 'setTextMatrix', 'nextLine', 'setFillGray', 'setStrokeGray', 'setFillRGBColor',
      'setStrokeRGBColor', 'setFillCMYKColor', 'setStrokeCMYKColor', 'setFillColor', 'setStrokeColor',
      'setFillColorN', 'setStrokeColorN', 'setFillColorSpace', 'setStrokeColorSpace', 'beginMarkedContent',
      'beginMarkedContentProps', 'endMarkedContent', 'markPoint', 'markPointProps', 'beginCompat', 'endCompat',
    ] as const
  ).map((name) => OPS[name]),
);
const TEXT_OPS = new Set<number>([OPS.showText, OPS.showSpacedText, OPS.nextLineShowText, OPS.nextLineSetSpacingShowText]);
/** Render modes that leave no ink: a scanner's OCR layer. */
const INVISIBLE_MODES = new Set([3, 7]);
/** How far the image's edges may sit from the page's, as a share of the page's size. */
const EDGE_TOLERANCE = 0.02;

interface DecodedImage {
  width: number;
  height: number;
  kind?: number;
  data?: Uint8Array | Uint8ClampedArray;
}

/**
 * The page's scan as an RGB image when the page is exactly that, at most `maxLongSide` pixels on
 * its longer side (halved, averaging, while larger); `undefined` when the page must be rendered.
 */
export async function scannedImage(page: PDFPageProxy, maxLongSide: number): Promise<RgbImage | undefined> {
  if (page.rotate % 360 !== 0) return undefined;
  // The same parameters as the router's probe and the text engine, so pdf.js parses the page once.
  const ops = await page.getOperatorList({ annotationMode: AnnotationMode.DISABLE });
  const id = soleFullPageImage(ops.fnArray, ops.argsArray, page.view as [number, number, number, number]);
  if (id === undefined) return undefined;
  const objects = id.startsWith('g_') ? page.commonObjs : page.objs;
  if (!objects.has(id)) return undefined;
  const image = rgbOf(objects.get(id) as DecodedImage);
  return image && halvedToFit(image, maxLongSide);
}

/** The object id of the one image painted upright over the whole page, when nothing else shows. */
export function soleFullPageImage(fnArray: number[], argsArray: unknown[], view: [number, number, number, number]): string | undefined {
  let ctm: Matrix = [1, 0, 0, 1, 0, 0];
  const saved: Matrix[] = [];
  let mode = 0;
  let found: { id: string; ctm: Matrix } | undefined;
  for (let i = 0; i < fnArray.length; i++) {
    const fn = fnArray[i]!;
    const args = argsArray[i] as unknown[] | null;
    if (fn === OPS.save) saved.push(ctm);
    else if (fn === OPS.restore) ctm = saved.pop() ?? ctm;
    else if (fn === OPS.transform) ctm = multiply(ctm, args as Matrix);
    else if (fn === OPS.setTextRenderingMode) mode = Number(args?.[0]);
    else if (fn === OPS.paintImageXObject) {
      if (found) return undefined;
      found = { id: String(args?.[0]), ctm };
    } else if (TEXT_OPS.has(fn)) {
      if (!INVISIBLE_MODES.has(mode)) return undefined;
    } else if (!STATE_OPS.has(fn)) return undefined;
  }
  if (!found) return undefined;
  const [a, b, c, d, e, f] = found.ctm;
  const [x0, y0, x1, y1] = view;
  const width = x1 - x0;
  const height = y1 - y0;
  const upright = a > 0 && d > 0 && Math.abs(b) < 1e-6 * a && Math.abs(c) < 1e-6 * d;
  const covers =
    Math.abs(e - x0) <= EDGE_TOLERANCE * width &&
    Math.abs(e + a - x1) <= EDGE_TOLERANCE * width &&
    Math.abs(f - y0) <= EDGE_TOLERANCE * height &&
    Math.abs(f + d - y1) <= EDGE_TOLERANCE * height;
  return upright && covers ? found.id : undefined;
}

function multiply(m: Matrix, n: Matrix): Matrix {
  return [
    m[0] * n[0] + m[2] * n[1],
    m[1] * n[0] + m[3] * n[1],
    m[0] * n[2] + m[2] * n[3],
    m[1] * n[2] + m[3] * n[3],
    m[0] * n[4] + m[2] * n[5] + m[4],
    m[1] * n[4] + m[3] * n[5] + m[5],
  ];
}

/** pdf.js's decoded pixels as RGB: packed 1-bit (a set bit is white, as pdf.js paints it), RGB or RGBA. */
export function rgbOf(image: DecodedImage): RgbImage | undefined {
  const { width, height, data } = image;
  if (!data) return undefined;
  const out = new Uint8Array(width * height * 3);
  if (image.kind === ImageKind.RGB_24BPP && data.length >= out.length) {
    out.set(data.subarray(0, out.length));
  } else if (image.kind === ImageKind.RGBA_32BPP && data.length >= width * height * 4) {
    for (let i = 0, o = 0; o < out.length; i += 4, o += 3) {
      out[o] = data[i]!;
      out[o + 1] = data[i + 1]!;
      out[o + 2] = data[i + 2]!;
    }
  } else if (image.kind === ImageKind.GRAYSCALE_1BPP && data.length >= ((width + 7) >> 3) * height) {
    const stride = (width + 7) >> 3;
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) {
        if (data[y * stride + (x >> 3)]! & (128 >> (x & 7))) {
          const o = (y * width + x) * 3;
          out[o] = out[o + 1] = out[o + 2] = 255;
        }
      }
    }
  } else {
    return undefined;
  }
  return { width, height, data: out };
}

/** Halves the image (2x2 means) until its longer side is at most `maxLongSide`. */
function halvedToFit(image: RgbImage, maxLongSide: number): RgbImage {
  let current = image;
  while (Math.max(current.width, current.height) > maxLongSide) {
    const width = current.width >> 1;
    const height = current.height >> 1;
    const data = new Uint8Array(width * height * 3);
    const src = current.data;
    const row = current.width * 3;
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) {
        const i = (2 * y * current.width + 2 * x) * 3;
        const o = (y * width + x) * 3;
        for (let ch = 0; ch < 3; ch++) data[o + ch] = (src[i + ch]! + src[i + 3 + ch]! + src[i + row + ch]! + src[i + row + 3 + ch]! + 2) >> 2;
      }
    }
    current = { width, height, data };
  }
  return current;
}
