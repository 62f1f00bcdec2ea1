/**
 * What a page paints besides text, read from PDFium's page objects: painted paths (with their
 * commands, matrix, line width and paint) and images (their placing matrix), for the text engine's
 * ruling lines and image places (text/drawing.ts); and how many paths and text objects are painted,
 * and how many of the latter invisibly, for the router's probe (text-layer-probe.ts). Forms are entered with their matrices. Hostile
 * files are bounded: past a number of path commands the rest is ignored, as pdf.js's reader does.
 */

import { IDENTITY, multiply, type Matrix } from '../text/affine.js';
import type { PageObjects, PaintedImage, PaintedPath } from '../text/drawing.js';

/** The WebAssembly functions that walk a page's object tree (forms entered), called directly (numbers only). */
export interface ObjectTreeExports {
  FPDFPage_CountObjects(page: number): number;
  FPDFPage_GetObject(page: number, index: number): number;
  FPDFFormObj_CountObjects(form: number): number;
  FPDFFormObj_GetObject(form: number, index: number): number;
  FPDFPageObj_GetType(object: number): number;
  FPDFPageObj_GetMatrix(object: number, matrix: number): number;
}

/** The WebAssembly functions read per object and per path segment. */
export interface ObjectExports extends ObjectTreeExports {
  FPDFPageObj_GetStrokeWidth(object: number, width: number): number;
  FPDFPageObj_GetStrokeColor(object: number, r: number, g: number, b: number, a: number): number;
  FPDFPageObj_GetFillColor(object: number, r: number, g: number, b: number, a: number): number;
  FPDFPath_GetDrawMode(path: number, fillMode: number, stroke: number): number;
  FPDFTextObj_GetTextRenderMode(text: number): number;
  FPDFPath_CountSegments(path: number): number;
  FPDFPath_GetPathSegment(path: number, index: number): number;
  FPDFPathSegment_GetPoint(segment: number, x: number, y: number): number;
  FPDFPathSegment_GetType(segment: number): number;
  FPDFPathSegment_GetClose(segment: number): number;
}

export interface ObjectHeap {
  HEAPF32: Float32Array;
  HEAPU32: Uint32Array;
  HEAP32: Int32Array;
}

/** Object ids of images read here: the prefix, then the image's path of object indices. */
export const PDFIUM_IMAGE_PREFIX = 'pdfium-image-';

/** Bytes of scratch memory `readPageObjects` needs. */
export const OBJECT_SCRATCH_BYTES = 64;

// FPDF_PAGEOBJ_* and FPDF_SEGMENT_* (fpdf_edit.h).
const TEXT_OBJECT = 1;
const PATH_OBJECT = 2;
const IMAGE_OBJECT = 3;
const FORM_OBJECT = 5;
const LINE_TO = 0;
const BEZIER_TO = 1;
const MOVE_TO = 2;
// pdf.js's path buffer commands (path-shapes.ts).
const BUFFER_MOVE = 0;
const BUFFER_LINE = 1;
const BUFFER_CURVE = 2;
const BUFFER_CLOSE = 4;
/** Path commands read per page at most; a page past it is a chart or a map. */
const MAX_SEGMENTS = 200_000;
/** Forms nested deeper than this are not entered (a cycle in a broken file ends here too). */
const MAX_FORM_DEPTH = 12;
/** Channels at or above this are near white, which vanishes on a white page (as drawing.ts reads pdf.js's colours). */
const NEAR_WHITE = 0xf4;
/** Text render modes that draw nothing: invisible, and invisible added to the clip. */
const INVISIBLE_MODES = new Set([3, 7]);

export function readPageObjects(api: ObjectExports, heap: ObjectHeap, page: number, scratch: number): PageObjects {
  const paths: PaintedPath[] = [];
  const images: PaintedImage[] = [];
  const counts = { pathPaints: 0, textShows: 0, invisibleTextShows: 0 };
  let budget = MAX_SEGMENTS;
  // An image's id is its path through the page's objects and forms (`pdfium-image-3.0`), by which
  // pdfium-images.ts finds it again to read its pixels.
  const visit = (object: number, outer: Matrix, depth: number, at: string) => {
    const type = api.FPDFPageObj_GetType(object);
    if (type === TEXT_OBJECT) {
      counts.textShows++;
      if (INVISIBLE_MODES.has(api.FPDFTextObj_GetTextRenderMode(object))) counts.invisibleTextShows++;
      return;
    }
    if (type !== PATH_OBJECT && type !== IMAGE_OBJECT && type !== FORM_OBJECT) return;
    const ctm = multiply(outer, objectMatrix(api, heap, object, scratch));
    if (type === IMAGE_OBJECT) {
      images.push({ ctm, objectId: `${PDFIUM_IMAGE_PREFIX}${at}` });
    } else if (type === FORM_OBJECT) {
      if (depth >= MAX_FORM_DEPTH) return;
      for (let i = 0, n = api.FPDFFormObj_CountObjects(object); i < n && budget > 0; i++) visit(api.FPDFFormObj_GetObject(object, i), ctm, depth + 1, `${at}.${i}`);
    } else {
      const path = readPath(api, heap, object, ctm, scratch, budget, counts);
      if (path) {
        budget -= path.buffer.length / 3;
        paths.push(path);
      }
    }
  };
  for (let i = 0, n = api.FPDFPage_CountObjects(page); i < n && budget > 0; i++) visit(api.FPDFPage_GetObject(page, i), IDENTITY, 0, String(i));
  return { paths, images, ...counts };
}

function objectMatrix(api: ObjectExports, heap: ObjectHeap, object: number, scratch: number): Matrix {
  if (!api.FPDFPageObj_GetMatrix(object, scratch)) return IDENTITY;
  const f = heap.HEAPF32;
  const at = scratch >> 2;
  const m: Matrix = [f[at] ?? 1, f[at + 1] ?? 0, f[at + 2] ?? 0, f[at + 3] ?? 1, f[at + 4] ?? 0, f[at + 5] ?? 0];
  return m.every(Number.isFinite) ? m : IDENTITY;
}

function readPath(
  api: ObjectExports,
  heap: ObjectHeap,
  object: number,
  ctm: Matrix,
  scratch: number,
  budget: number,
  counts: { pathPaints: number },
): PaintedPath | undefined {
  if (!api.FPDFPath_GetDrawMode(object, scratch, scratch + 4)) return undefined;
  if (heap.HEAP32[scratch >> 2] !== 0 || heap.HEAP32[(scratch + 4) >> 2] !== 0) counts.pathPaints++;
  const filled = heap.HEAP32[scratch >> 2] !== 0 && visible(api.FPDFPageObj_GetFillColor.bind(api), heap, object, scratch);
  const stroked = heap.HEAP32[(scratch + 4) >> 2] !== 0 && visible(api.FPDFPageObj_GetStrokeColor.bind(api), heap, object, scratch);
  if (!filled && !stroked) return undefined;
  const lineWidth = api.FPDFPageObj_GetStrokeWidth(object, scratch) ? (heap.HEAPF32[scratch >> 2] ?? 1) : 1;
  const buffer: number[] = [];
  let curve: number[] = [];
  for (let i = 0, n = Math.min(api.FPDFPath_CountSegments(object), budget); i < n; i++) {
    const segment = api.FPDFPath_GetPathSegment(object, i);
    if (!segment || !api.FPDFPathSegment_GetPoint(segment, scratch, scratch + 4)) break;
    const x = heap.HEAPF32[scratch >> 2] ?? 0;
    const y = heap.HEAPF32[(scratch + 4) >> 2] ?? 0;
    const type = api.FPDFPathSegment_GetType(segment);
    if (type === MOVE_TO) buffer.push(BUFFER_MOVE, x, y);
    else if (type === LINE_TO) buffer.push(BUFFER_LINE, x, y);
    else if (type === BEZIER_TO) {
      // PDFium gives a curve as three points in a row: two controls, then the end.
      curve.push(x, y);
      if (curve.length === 6) {
        buffer.push(BUFFER_CURVE, ...curve);
        curve = [];
      }
    }
    if (api.FPDFPathSegment_GetClose(segment)) buffer.push(BUFFER_CLOSE);
  }
  return { buffer, ctm, lineWidth: Number.isFinite(lineWidth) ? lineWidth : 1, stroked, filled };
}

/** Painted in a colour that shows: not (near) white, not fully transparent; a pattern (no colour) shows. */
function visible(
  color: (object: number, r: number, g: number, b: number, a: number) => number,
  heap: ObjectHeap,
  object: number,
  scratch: number,
): boolean {
  const at = scratch + 8;
  if (!color(object, at, at + 4, at + 8, at + 12)) return true;
  const u = heap.HEAPU32;
  const [r = 0, g = 0, b = 0, a = 255] = [u[at >> 2], u[(at + 4) >> 2], u[(at + 8) >> 2], u[(at + 12) >> 2]];
  return a > 0 && !(r >= NEAR_WHITE && g >= NEAR_WHITE && b >= NEAR_WHITE);
}
