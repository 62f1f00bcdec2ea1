/**
 * Cuts each detected line out of the page image as the recogniser wants it: turned level, scaled
 * to a fixed height, normalised to [-1, 1], in one bilinear pass per line.
 */

import type { RgbImage } from '../raster/rgb-image.js';
import type { TextLineBox } from './text-detection.js';

export const LINE_HEIGHT = 48;
/** Longer lines are rare (a full-width line at 48 px is about 1,800) and only cost time. */
const MAX_LINE_WIDTH = 3200;

export interface LineCrop {
  /** Planar RGB, LINE_HEIGHT x width. */
  data: Float32Array;
  width: number;
}

function lineCropWidth(box: TextLineBox): number {
  return Math.max(LINE_HEIGHT / 2, Math.min(MAX_LINE_WIDTH, Math.round((LINE_HEIGHT * box.length) / box.thickness)));
}

/** `width` is the line's own aspect unless a model wants it squeezed (the direction classifier). */
export function cropLine(image: RgbImage, box: TextLineBox, width = lineCropWidth(box)): LineCrop {
  const plane = width * LINE_HEIGHT;
  const data = new Float32Array(3 * plane);
  const ux = Math.cos(box.angle);
  const uy = Math.sin(box.angle);
  const stepU = box.length / width;
  const stepV = box.thickness / LINE_HEIGHT;
  // Top-left corner of the rectangle, then walk along u (columns) and v (rows).
  const ox = box.cx - (box.length / 2) * ux + (box.thickness / 2) * uy;
  const oy = box.cy - (box.length / 2) * uy - (box.thickness / 2) * ux;
  const maxX = image.width - 1;
  const maxY = image.height - 1;
  for (let row = 0; row < LINE_HEIGHT; row++) {
    const v = (row + 0.5) * stepV;
    for (let col = 0; col < width; col++) {
      const u = (col + 0.5) * stepU;
      const x = Math.min(maxX, Math.max(0, ox + u * ux - v * uy - 0.5));
      const y = Math.min(maxY, Math.max(0, oy + u * uy + v * ux - 0.5));
      const x0 = Math.floor(x);
      const y0 = Math.floor(y);
      const x1 = Math.min(maxX, x0 + 1);
      const y1 = Math.min(maxY, y0 + 1);
      const fx = x - x0;
      const fy = y - y0;
      const a = (y0 * image.width + x0) * 3;
      const b = (y0 * image.width + x1) * 3;
      const c = (y1 * image.width + x0) * 3;
      const d = (y1 * image.width + x1) * 3;
      const i = row * width + col;
      for (let channel = 0; channel < 3; channel++) {
        const top = image.data[a + channel]! + (image.data[b + channel]! - image.data[a + channel]!) * fx;
        const bottom = image.data[c + channel]! + (image.data[d + channel]! - image.data[c + channel]!) * fx;
        data[channel * plane + i] = (top + (bottom - top) * fy) / 127.5 - 1;
      }
    }
  }
  return { data, width };
}

/**
 * Runs of columns with no ink across the middle of the line, in crop columns: where the spaces
 * are, read from the pixels because the recogniser often leaves them out. Ink is anything darker
 * than halfway between the line's paper and its darkest strokes.
 */
export function blankRuns(crop: LineCrop): [number, number][] {
  const { width, data } = crop;
  // Not the crop's edges, where neighbouring lines' descenders and ascenders reach in; but high
  // enough for a T's bar, or "T he" would split.
  const top = Math.round(LINE_HEIGHT * 0.1);
  const bottom = Math.round(LINE_HEIGHT * 0.85);
  const darkest = new Float32Array(width).fill(Infinity);
  for (let row = top; row < bottom; row++) {
    for (let col = 0; col < width; col++) {
      // Green channel as luminance: scans are grey, and it carries most of the luminance in colour.
      const v = data[width * LINE_HEIGHT + row * width + col]!;
      if (v < darkest[col]!) darkest[col] = v;
    }
  }
  const sorted = Float32Array.from(darkest).sort();
  const ink = sorted[Math.floor(sorted.length * 0.05)]!;
  const paper = sorted[Math.floor(sorted.length * 0.95)]!;
  const threshold = (ink + paper) / 2;
  const runs: [number, number][] = [];
  let start = -1;
  for (let col = 0; col <= width; col++) {
    const blank = col < width && darkest[col]! > threshold;
    if (blank && start < 0) start = col;
    if (!blank && start >= 0) {
      runs.push([start, col]);
      start = -1;
    }
  }
  return runs;
}
