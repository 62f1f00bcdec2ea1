/**
 * Ruling lines and image places from pdf.js's operator list, for the pages pdf.js reads (PDFium
 * cannot open the file or read the page), read with its own small graphics-state stack; anything
 * malformed is skipped, never thrown, because operator lists come from hostile files. Loaded with
 * pdf.js, whose operator codes it reads.
 */

import { OPS, type PageViewport, type PDFPageProxy } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { IDENTITY, multiply, toMatrix, type Matrix } from './affine.js';
import type { ImagePlacement, Rule } from '../layout/geometry.js';
import { addFilledBar, addPathPieces, clipToPage, finishRules, INLINE_IMAGE_PREFIX, MAX_PIECES, unitSquare } from './drawing.js';

export type OperatorList = Awaited<ReturnType<PDFPageProxy['getOperatorList']>>;

/** pdf.js's operator codes, read once: a switch over constants is cheap on pages of 100k operators. */
const op = { ...OPS };

interface GraphicsState {
  ctm: Matrix;
  lineWidth: number;
  strokeVisible: boolean;
  fillVisible: boolean;
  strokeAlpha: number;
  fillAlpha: number;
}

export function readDrawing(ops: OperatorList, viewport: PageViewport): { rules: Rule[]; images: ImagePlacement[] } {
  const page = { width: viewport.width, height: viewport.height };
  const toPage = toMatrix(viewport.transform) ?? IDENTITY;
  const pieces: Rule[] = [];
  const images: ImagePlacement[] = [];
  const stack: GraphicsState[] = [];
  let state: GraphicsState = { ctm: IDENTITY, lineWidth: 1, strokeVisible: true, fillVisible: true, strokeAlpha: 1, fillAlpha: 1 };
  const fnArray: unknown = ops?.fnArray;
  const argsArray: unknown = ops?.argsArray;
  if (!Array.isArray(fnArray) || !Array.isArray(argsArray)) return { rules: [], images: [] };

  const addImage = (objectId: string, placement: Matrix) => {
    const box = clipToPage(unitSquare(multiply(toPage, placement)), page);
    if (box) images.push({ ...box, objectId });
  };

  for (let index = 0; index < fnArray.length && pieces.length < MAX_PIECES; index++) {
    const args: unknown = argsArray[index];
    const list: readonly unknown[] = Array.isArray(args) ? args : [];
    try {
      switch (fnArray[index]) {
        case op.save:
        case op.beginGroup:
          stack.push({ ...state });
          break;
        case op.restore:
        case op.endGroup:
        case op.paintFormXObjectEnd:
          state = stack.pop() ?? state;
          break;
        case op.paintFormXObjectBegin: {
          stack.push({ ...state });
          const matrix = toMatrix(list[0]);
          if (matrix) state.ctm = multiply(state.ctm, matrix);
          break;
        }
        case op.transform: {
          const matrix = toMatrix(list);
          if (matrix) state.ctm = multiply(state.ctm, matrix);
          break;
        }
        case op.setLineWidth:
          state.lineWidth = finiteOr(list[0], state.lineWidth);
          break;
        case op.setGState:
          readGraphicsStateEntries(state, list[0]);
          break;
        case op.setStrokeRGBColor:
          state.strokeVisible = !isNearWhite(list[0]);
          break;
        case op.setFillRGBColor:
          state.fillVisible = !isNearWhite(list[0]);
          break;
        case op.setStrokeColorN:
          state.strokeVisible = true;
          break;
        case op.setFillColorN:
          state.fillVisible = true;
          break;
        case op.setStrokeTransparent:
          state.strokeVisible = false;
          break;
        case op.setFillTransparent:
          state.fillVisible = false;
          break;
        case op.constructPath:
          readPaintedPath(list, multiply(toPage, state.ctm), state, pieces);
          break;
        case op.paintSolidColorImageMask:
          if (fills(state)) addFilledBar(unitSquare(multiply(toPage, state.ctm)), pieces);
          break;
        case op.paintImageXObject:
          if (typeof list[0] === 'string') addImage(list[0], state.ctm);
          break;
        case op.paintImageXObjectRepeat:
          addRepeatedImage(list, state.ctm, addImage);
          break;
        case op.paintInlineImageXObject:
          addImage(`${INLINE_IMAGE_PREFIX}${index}`, state.ctm);
          break;
        case op.paintImageMaskXObject: {
          const id = (list[0] as { data?: unknown } | null)?.data;
          if (typeof id === 'string') addImage(id, state.ctm);
          break;
        }
      }
    } catch {
      // A malformed operator is skipped; the rest of the page still counts.
    }
  }
  return { rules: finishRules(pieces, page), images };
}

function readPaintedPath(args: readonly unknown[], m: Matrix, state: GraphicsState, pieces: Rule[]): void {
  const paint = args[0];
  const buffer = (args[1] as unknown[] | undefined)?.[0];
  if (!isNumberArray(buffer)) return;
  const stroked = STROKE_OPS.has(paint) && state.strokeVisible && state.strokeAlpha > 0;
  const filled = FILL_OPS.has(paint) && fills(state);
  addPathPieces(buffer, m, stroked, filled, state.lineWidth, pieces);
}

function addRepeatedImage(args: readonly unknown[], ctm: Matrix, addImage: (id: string, placement: Matrix) => void): void {
  const [id, scaleX, scaleY, positions] = args;
  if (typeof id !== 'string' || !isNumberArray(positions)) return;
  const sx = finiteOr(scaleX, 1);
  const sy = finiteOr(scaleY, 1);
  for (let k = 0; k + 1 < positions.length; k += 2) {
    addImage(id, multiply(ctm, [sx, 0, 0, sy, positions[k]!, positions[k + 1]!]));
  }
}

function readGraphicsStateEntries(state: GraphicsState, entries: unknown): void {
  if (!Array.isArray(entries)) return;
  for (const entry of entries) {
    if (!Array.isArray(entry)) continue;
    const [key, value] = entry;
    if (key === 'LW') state.lineWidth = finiteOr(value, state.lineWidth);
    if (key === 'CA') state.strokeAlpha = finiteOr(value, state.strokeAlpha);
    if (key === 'ca') state.fillAlpha = finiteOr(value, state.fillAlpha);
  }
}

function fills(state: GraphicsState): boolean {
  return state.fillVisible && state.fillAlpha > 0;
}

const STROKE_OPS = new Set<unknown>([op.stroke, op.closeStroke, op.fillStroke, op.eoFillStroke, op.closeFillStroke, op.closeEOFillStroke]);

const FILL_OPS = new Set<unknown>([op.fill, op.eoFill, op.fillStroke, op.eoFillStroke, op.closeFillStroke, op.closeEOFillStroke]);

/** pdf.js reports device colours as `#rrggbb`; near-white lines vanish on a white page. */
function isNearWhite(color: unknown): boolean {
  if (typeof color !== 'string' || !/^#[0-9a-f]{6}$/i.test(color)) return false;
  const value = Number.parseInt(color.slice(1), 16);
  return (value >> 16) >= 0xf4 && ((value >> 8) & 0xff) >= 0xf4 && (value & 0xff) >= 0xf4;
}

function finiteOr(value: unknown, fallback: number): number {
  return typeof value === 'number' && Number.isFinite(value) ? value : fallback;
}

function isNumberArray(value: unknown): value is ArrayLike<number> {
  return value instanceof Float32Array || value instanceof Float64Array || (Array.isArray(value) && value.every((v) => typeof v === 'number'));
}
