/**
 * The straight pieces of a pdf.js path: segments for strokes, axis-aligned rectangles for fills.
 * pdf.js 5 hands paths over as one flat buffer of drawing commands (`DrawOPS` in its
 * src/shared/util.js, not exported): a command code followed by its coordinates, in the user
 * space that was current when the path was painted.
 */

import { applyX, applyY, type Matrix } from './affine.js';
import type { Box } from './geometry.js';

const MOVE_TO = 0;
const LINE_TO = 1;
const CURVE_TO = 2;
const QUADRATIC_CURVE_TO = 3;
const CLOSE_PATH = 4;

export interface Segment {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

export interface PathShapes {
  segments: Segment[];
  /** Closed subpaths made of four axis-aligned sides, as boxes. */
  rectangles: Box[];
}

/** Reads the path buffer through `m`; stops quietly at a truncated or unknown command. */
export function readPathShapes(buffer: ArrayLike<number>, m: Matrix): PathShapes {
  const segments: Segment[] = [];
  const rectangles: Box[] = [];
  let corners: number[] = [];
  let startX = 0;
  let startY = 0;
  let x = 0;
  let y = 0;
  const endSubpath = () => {
    const box = rectangleOf(corners);
    if (box) rectangles.push(box);
    corners = [];
  };
  const lineTo = (nx: number, ny: number) => {
    if (nx !== x || ny !== y) {
      segments.push({ x0: x, y0: y, x1: nx, y1: ny });
      corners.push(nx, ny);
    }
    x = nx;
    y = ny;
  };
  const n = buffer.length;
  let i = 0;
  while (i < n) {
    const command = buffer[i++];
    const arity = command === MOVE_TO || command === LINE_TO ? 2 : command === CURVE_TO ? 6 : command === QUADRATIC_CURVE_TO ? 4 : 0;
    if (i + arity > n || (arity === 0 && command !== CLOSE_PATH)) break;
    const px = buffer[i + arity - 2] ?? 0;
    const py = buffer[i + arity - 1] ?? 0;
    i += arity;
    if (command === CLOSE_PATH) {
      lineTo(startX, startY);
      endSubpath();
      continue;
    }
    const tx = applyX(m, px, py);
    const ty = applyY(m, px, py);
    if (!Number.isFinite(tx) || !Number.isFinite(ty)) break;
    if (command === MOVE_TO) {
      endSubpath();
      startX = x = tx;
      startY = y = ty;
      corners.push(tx, ty);
    } else if (command === LINE_TO) {
      lineTo(tx, ty);
    } else {
      // A curve breaks any rectangle; its end point is where the path goes on from.
      corners.push(NaN, NaN);
      x = tx;
      y = ty;
    }
  }
  endSubpath();
  return { segments, rectangles };
}

/** The box of a closed run of four axis-aligned sides (the start may be repeated at the end). */
function rectangleOf(corners: readonly number[]): Box | undefined {
  let count = corners.length / 2;
  if (count === 5 && corners[0] === corners[8] && corners[1] === corners[9]) count = 4;
  if (count !== 4) return undefined;
  const xs = [corners[0]!, corners[2]!, corners[4]!, corners[6]!];
  const ys = [corners[1]!, corners[3]!, corners[5]!, corners[7]!];
  for (let k = 0; k < 4; k++) {
    const j = (k + 1) % 4;
    const vertical = nearlyEqual(xs[k]!, xs[j]!);
    const horizontal = nearlyEqual(ys[k]!, ys[j]!);
    if (vertical === horizontal) return undefined;
  }
  return { x0: Math.min(...xs), y0: Math.min(...ys), x1: Math.max(...xs), y1: Math.max(...ys) };
}

function nearlyEqual(a: number, b: number): boolean {
  return Math.abs(a - b) < 0.01;
}
