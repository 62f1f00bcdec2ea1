/**
 * The pieces of a pdf.js path that can be rules: straight segments for strokes, subpath bounding
 * boxes for fills. pdf.js 5 hands paths over as one flat buffer of drawing commands (`DrawOPS` in
 * its src/shared/util.js, not exported): a command code followed by its coordinates, in the user
 * space that was current when the path was painted.
 */

import { applyX, applyY, type Matrix } from './affine.js';
import type { Box } from '../layout/geometry.js';

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
  /** Straight segments, closing segments included. */
  segments: Segment[];
  /**
   * Bounding boxes of the subpaths (through their end points). A filled subpath whose box is a
   * thin bar paints a rule, whatever its outline: browsers draw bevelled (inset, outset) borders
   * as trapezoids.
   */
  subpathBoxes: Box[];
}

/** Reads the path buffer through `m`; stops quietly at a truncated or unknown command. */
export function readPathShapes(buffer: ArrayLike<number>, m: Matrix): PathShapes {
  const segments: Segment[] = [];
  const subpathBoxes: Box[] = [];
  let box: Box | undefined;
  let startX = 0;
  let startY = 0;
  let x = 0;
  let y = 0;
  const endSubpath = () => {
    if (box) subpathBoxes.push(box);
    box = undefined;
  };
  const reach = (px: number, py: number) => {
    if (box) {
      box.x0 = Math.min(box.x0, px);
      box.y0 = Math.min(box.y0, py);
      box.x1 = Math.max(box.x1, px);
      box.y1 = Math.max(box.y1, py);
    } else {
      box = { x0: px, y0: py, x1: px, y1: py };
    }
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
      if (x !== startX || y !== startY) segments.push({ x0: x, y0: y, x1: startX, y1: startY });
      x = startX;
      y = startY;
      endSubpath();
      continue;
    }
    const tx = applyX(m, px, py);
    const ty = applyY(m, px, py);
    if (!Number.isFinite(tx) || !Number.isFinite(ty)) break;
    if (command === MOVE_TO) {
      endSubpath();
      startX = tx;
      startY = ty;
    } else if (command === LINE_TO && (tx !== x || ty !== y)) {
      segments.push({ x0: x, y0: y, x1: tx, y1: ty });
    }
    // A curve's end point is where the path goes on from; the curve itself is no rule.
    reach(tx, ty);
    x = tx;
    y = ty;
  }
  endSubpath();
  return { segments, subpathBoxes };
}
