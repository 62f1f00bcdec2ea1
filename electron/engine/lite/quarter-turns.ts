/**
 * Quarter turns of a page image and the way back: a scan fed sideways or upside down is read turned
 * upright, and what was found on it is mapped back onto the page as the user sees it.
 */

import type { RgbImage } from '../raster/rgb-image.js';

/** Clockwise quarter turns. */
export type QuarterTurns = 0 | 1 | 2 | 3;

/** The image turned clockwise by `turns` quarters (a new image; the same one for none). */
export function turnImage(image: RgbImage, turns: QuarterTurns): RgbImage {
  if (turns === 0) return image;
  const { width, height, data } = image;
  const sideways = turns % 2 === 1;
  const outWidth = sideways ? height : width;
  const out = new Uint8Array(data.length);
  // Where source pixel (x, y) lands, as a start and steps per x and per y through the output's pixels.
  const [start, stepX, stepY] =
    turns === 1 ? [height - 1, outWidth, -1] : turns === 2 ? [width * height - 1, -1, -width] : [(width - 1) * outWidth, -outWidth, 1];
  for (let y = 0, i = 0; y < height; y++) {
    let o = start + y * stepY;
    for (let x = 0; x < width; x++, i += 3, o += stepX) {
      out[3 * o] = data[i]!;
      out[3 * o + 1] = data[i + 1]!;
      out[3 * o + 2] = data[i + 2]!;
    }
  }
  return { width: outWidth, height: sideways ? width : height, data: out };
}

/**
 * A box `[x0, y0, x1, y1]` on the page turned clockwise by `turns` (`turnedWidth` x `turnedHeight`)
 * as it lies on the page before turning.
 */
export function unturnedBox(
  box: readonly [number, number, number, number],
  turns: QuarterTurns,
  turnedWidth: number,
  turnedHeight: number,
): [number, number, number, number] {
  const back = ([x, y]: [number, number]): [number, number] =>
    turns === 0 ? [x, y] : turns === 1 ? [y, turnedWidth - x] : turns === 2 ? [turnedWidth - x, turnedHeight - y] : [turnedHeight - y, x];
  const [ax, ay] = back([box[0], box[1]]);
  const [bx, by] = back([box[2], box[3]]);
  return [Math.min(ax, bx), Math.min(ay, by), Math.max(ax, bx), Math.max(ay, by)];
}
