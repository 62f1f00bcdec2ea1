import { describe, expect, it } from 'vitest';
import type { RgbImage } from '../raster/rgb-image.js';
import { applyOrientation } from './orientation.js';

/** A 3 x 2 image whose pixels are numbered 0..5 row by row (the number in the red channel). */
const stored: RgbImage = { width: 3, height: 2, data: new Uint8Array([0, 0, 0, 1, 0, 0, 2, 0, 0, 3, 0, 0, 4, 0, 0, 5, 0, 0]) };

function rows(image: RgbImage): number[][] {
  return Array.from({ length: image.height }, (_, y) => Array.from({ length: image.width }, (_, x) => image.data[(y * image.width + x) * 3] as number));
}

describe('EXIF orientation', () => {
  // stored:  0 1 2
  //          3 4 5
  it.each([
    [1, [[0, 1, 2], [3, 4, 5]]],
    [2, [[2, 1, 0], [5, 4, 3]]],
    [3, [[5, 4, 3], [2, 1, 0]]],
    [4, [[3, 4, 5], [0, 1, 2]]],
    [5, [[0, 3], [1, 4], [2, 5]]],
    [6, [[3, 0], [4, 1], [5, 2]]],
    [7, [[5, 2], [4, 1], [3, 0]]],
    [8, [[2, 5], [1, 4], [0, 3]]],
  ])('orientation %i turns the stored pixels upright', (orientation, expected) => {
    expect(rows(applyOrientation(stored, orientation))).toEqual(expected);
  });

  it('leaves the image as it is when the tag is missing or out of range', () => {
    expect(applyOrientation(stored, undefined)).toBe(stored);
    expect(applyOrientation(stored, 9)).toBe(stored);
  });
});
