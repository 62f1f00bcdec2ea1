/**
 * What a page draws besides text, as far as layout cares: horizontal and vertical ruling lines
 * (table borders, booktabs rules, separators) and where images are painted, from the paths and
 * images PDFium read (pdf.js's operator list is read in operator-drawing.ts, with these pieces).
 */

import { IDENTITY, applyX, applyY, meanScale, multiply, toMatrix, type Matrix } from './affine.js';
import type { Box, ImagePlacement, Rule } from '../layout/geometry.js';
import { readPathShapes } from './path-shapes.js';
import { mergeRules } from './rule-merging.js';

/** Object id given to an inline image: it has no id in pdf.js, so its operator index stands in. */
export const INLINE_IMAGE_PREFIX = 'inline-';

/** Thicker filled bars are shapes (cell shading, blocks), not rules. */
const MAX_RULE_THICKNESS = 4;
/** Shorter pieces are glyph parts, ticks and dots. */
const MIN_RULE_LENGTH = 3;
/** A stroke whose ends differ across it by at most this much (points) is straight enough. */
const AXIS_TOLERANCE = 0.5;
/** Past this many pieces a page is a chart or a map, not a table; the rest is ignored. */
export const MAX_PIECES = 100_000;

/**
 * A path as another reader (PDFium) gives it: its commands in pdf.js's buffer format (see
 * path-shapes.ts), the matrix to PDF user space, and how it is painted.
 */
export interface PaintedPath {
  buffer: ArrayLike<number>;
  ctm: Matrix;
  lineWidth: number;
  stroked: boolean;
  filled: boolean;
}

/** An image another reader found: the matrix that places its unit square in PDF user space. */
export interface PaintedImage {
  ctm: Matrix;
  objectId: string;
}

/** What another parser than pdf.js read of a page besides its characters. */
export interface PageObjects {
  paths: PaintedPath[];
  images: PaintedImage[];
  /** Paths filled or stroked, whatever their colour (as the router counts pdf.js's painting operators). */
  pathPaints: number;
  /** Text-showing objects, and those drawn invisible (render modes 3 and 7). */
  textShows: number;
  invisibleTextShows: number;
}

/** Ruling lines and image places from paths and images read by another parser than pdf.js. */
export function drawingFromObjects(
  paths: readonly PaintedPath[],
  painted: readonly PaintedImage[],
  viewport: { transform: number[]; width: number; height: number },
): { rules: Rule[]; images: ImagePlacement[] } {
  const page = { width: viewport.width, height: viewport.height };
  const toPage = toMatrix(viewport.transform) ?? IDENTITY;
  const pieces: Rule[] = [];
  for (const path of paths) {
    if (pieces.length >= MAX_PIECES) break;
    addPathPieces(path.buffer, multiply(toPage, path.ctm), path.stroked, path.filled, path.lineWidth, pieces);
  }
  const images: ImagePlacement[] = [];
  for (const image of painted) {
    const box = clipToPage(unitSquare(multiply(toPage, image.ctm)), page);
    if (box) images.push({ ...box, objectId: image.objectId });
  }
  return { rules: finishRules(pieces, page), images };
}

export function finishRules(pieces: readonly Rule[], page: { width: number; height: number }): Rule[] {
  const clipped: Rule[] = [];
  for (const piece of pieces) {
    const rule = clipRule(piece, page);
    if (rule) clipped.push(rule);
  }
  return mergeRules(clipped).filter((rule) => !isPageFrame(rule, page));
}

/** The rule pieces of one painted path; `m` takes its points to the page. */
export function addPathPieces(buffer: ArrayLike<number>, m: Matrix, stroked: boolean, filled: boolean, lineWidth: number, pieces: Rule[]): void {
  if (!stroked && !filled) return;
  const shapes = readPathShapes(buffer, m);
  if (stroked) {
    const thickness = Math.max(lineWidth * meanScale(m), 0.1);
    for (const s of shapes.segments) {
      if (Math.abs(s.y1 - s.y0) <= AXIS_TOLERANCE && Math.abs(s.x1 - s.x0) >= MIN_RULE_LENGTH) {
        const y = (s.y0 + s.y1) / 2;
        pieces.push({ orientation: 'horizontal', x0: Math.min(s.x0, s.x1), x1: Math.max(s.x0, s.x1), y0: y - thickness / 2, y1: y + thickness / 2 });
      } else if (Math.abs(s.x1 - s.x0) <= AXIS_TOLERANCE && Math.abs(s.y1 - s.y0) >= MIN_RULE_LENGTH) {
        const x = (s.x0 + s.x1) / 2;
        pieces.push({ orientation: 'vertical', y0: Math.min(s.y0, s.y1), y1: Math.max(s.y0, s.y1), x0: x - thickness / 2, x1: x + thickness / 2 });
      }
    }
  }
  if (filled) {
    for (const box of shapes.subpathBoxes) addFilledBar(box, pieces);
  }
}

/** A thin filled rectangle is a rule along its long side. */
export function addFilledBar(box: Box, pieces: Rule[]): void {
  const width = box.x1 - box.x0;
  const height = box.y1 - box.y0;
  if (height <= MAX_RULE_THICKNESS && width >= MIN_RULE_LENGTH && width >= 3 * height) {
    pieces.push({ ...box, orientation: 'horizontal' });
  } else if (width <= MAX_RULE_THICKNESS && height >= MIN_RULE_LENGTH && height >= 3 * width) {
    pieces.push({ ...box, orientation: 'vertical' });
  }
}

export function unitSquare(m: Matrix): Box {
  const xs = [applyX(m, 0, 0), applyX(m, 1, 0), applyX(m, 0, 1), applyX(m, 1, 1)];
  const ys = [applyY(m, 0, 0), applyY(m, 1, 0), applyY(m, 0, 1), applyY(m, 1, 1)];
  return { x0: Math.min(...xs), y0: Math.min(...ys), x1: Math.max(...xs), y1: Math.max(...ys) };
}

/** The part of the box on the page, or undefined when nothing of it is (or it is not a number). */
export function clipToPage(box: Box, page: { width: number; height: number }): Box | undefined {
  const clipped = { x0: Math.max(box.x0, 0), y0: Math.max(box.y0, 0), x1: Math.min(box.x1, page.width), y1: Math.min(box.y1, page.height) };
  return clipped.x1 > clipped.x0 && clipped.y1 > clipped.y0 ? clipped : undefined;
}

/** The part of the rule on the page, or undefined when too little of it is. */
function clipRule(rule: Rule, page: { width: number; height: number }): Rule | undefined {
  const box = clipToPage(rule, page);
  if (!box) return undefined;
  const length = rule.orientation === 'horizontal' ? box.x1 - box.x0 : box.y1 - box.y0;
  return length >= MIN_RULE_LENGTH ? { ...box, orientation: rule.orientation } : undefined;
}

/** A line along a page edge spanning nearly the whole side: a frame around the page, not content. */
function isPageFrame(rule: Rule, page: { width: number; height: number }): boolean {
  if (rule.orientation === 'horizontal') {
    const y = (rule.y0 + rule.y1) / 2;
    return rule.x1 - rule.x0 >= 0.9 * page.width && (y < 0.04 * page.height || y > 0.96 * page.height);
  }
  const x = (rule.x0 + rule.x1) / 2;
  return rule.y1 - rule.y0 >= 0.9 * page.height && (x < 0.04 * page.width || x > 0.96 * page.width);
}

