/**
 * The upright frame the layout works in. pdf.js's viewport already applies the page's /Rotate;
 * when most of the text still runs sideways or upside down (a landscape table printed on a portrait
 * page), the frame turns by quarter turns so that it reads left to right. Layout happens in the
 * frame; bboxes go back to page coordinates at the end.
 */

import { multiply, type Matrix } from './affine.js';
import type { Box } from '../layout/geometry.js';

export interface PageFrame {
  /** Page size in the frame (width and height swap after an odd number of quarter turns). */
  width: number;
  height: number;
  /** Quarter turns (0-3) from page coordinates to frame coordinates. */
  quarterTurns: number;
  /** PDF user space to frame coordinates. */
  fromUser: Matrix;
  /** Page top-left coordinates to frame coordinates. */
  fromPage: Matrix;
  /** Frame coordinates back to page top-left coordinates. */
  toPage: Matrix;
}

export function applyMatrix(m: Matrix, x: number, y: number): [number, number] {
  return [m[0] * x + m[2] * y + m[4], m[1] * x + m[3] * y + m[5]];
}

export function transformBox(m: Matrix, box: Box): Box {
  const [ax, ay] = applyMatrix(m, box.x0, box.y0);
  const [bx, by] = applyMatrix(m, box.x1, box.y1);
  return { x0: Math.min(ax, bx), y0: Math.min(ay, by), x1: Math.max(ax, bx), y1: Math.max(ay, by) };
}

/** The turn that maps a page-space direction quadrant (0 right, 1 down, 2 left, 3 up) to "right". */
function pageToFrame(quarterTurns: number, width: number, height: number): Matrix {
  switch (quarterTurns) {
    case 1:
      return [0, -1, 1, 0, 0, width]; // down -> right
    case 2:
      return [-1, 0, 0, -1, width, height];
    case 3:
      return [0, 1, -1, 0, height, 0]; // up -> right
    default:
      return [1, 0, 0, 1, 0, 0];
  }
}

function invert(m: Matrix): Matrix {
  const det = m[0] * m[3] - m[1] * m[2];
  return [
    m[3] / det,
    -m[1] / det,
    -m[2] / det,
    m[0] / det,
    (m[2] * m[5] - m[3] * m[4]) / det,
    (m[1] * m[4] - m[0] * m[5]) / det,
  ];
}

/**
 * @param viewportTransform pdf.js's `viewport.transform` at scale 1 (user space to page top-left).
 * @param quarterTurns the dominant text direction's quadrant in page coordinates.
 */
export function createPageFrame(viewportTransform: Matrix, width: number, height: number, quarterTurns: number): PageFrame {
  const turn = ((quarterTurns % 4) + 4) % 4;
  const fromPage = pageToFrame(turn, width, height);
  const odd = turn % 2 === 1;
  return {
    width: odd ? height : width,
    height: odd ? width : height,
    quarterTurns: turn,
    fromUser: multiply(fromPage, viewportTransform),
    fromPage,
    toPage: invert(fromPage),
  };
}

/** The quadrant (0 right, 1 down, 2 left, 3 up) of a direction vector in page coordinates. */
export function directionQuadrant(dx: number, dy: number): number {
  if (Math.abs(dx) >= Math.abs(dy)) return dx >= 0 ? 0 : 2;
  return dy >= 0 ? 1 : 3;
}
