import { describe, expect, it } from 'vitest';
import type { RgbImage } from '../raster/rgb-image.js';
import { turnImage, unturnedBox } from './quarter-turns.js';

/**
 * A 3 x 2 image whose pixels are numbered 1..6 in reading order (each pixel's three bytes are its
 * number, its number + 10 and + 20, so channels must travel together):
 *   1 2 3
 *   4 5 6
 */
const IMAGE: RgbImage = { width: 3, height: 2, data: Uint8Array.from([1, 2, 3, 4, 5, 6].flatMap((n) => [n, n + 10, n + 20])) };

function rows(image: RgbImage): number[][] {
  return Array.from({ length: image.height }, (_, y) => Array.from({ length: image.width }, (_, x) => image.data[3 * (y * image.width + x)]!));
}

describe('turnImage', () => {
  it('turns a quarter clockwise: the left column becomes the top row, read bottom to top', () => {
    expect(rows(turnImage(IMAGE, 1))).toEqual([[4, 1], [5, 2], [6, 3]]);
  });

  it('turns half a turn', () => {
    expect(rows(turnImage(IMAGE, 2))).toEqual([[6, 5, 4], [3, 2, 1]]);
  });

  it('turns three quarters clockwise: the right column becomes the top row', () => {
    expect(rows(turnImage(IMAGE, 3))).toEqual([[3, 6], [2, 5], [1, 4]]);
  });

  it('keeps each pixel\'s channels together', () => {
    const turned = turnImage(IMAGE, 1);
    expect([...turned.data.subarray(0, 6)]).toEqual([4, 14, 24, 1, 11, 21]);
  });

  it('comes back to the image after four quarters', () => {
    let image = IMAGE;
    for (let i = 0; i < 4; i++) image = turnImage(image, 1);
    expect(image).toEqual(IMAGE);
  });
});

describe('unturnedBox', () => {
  // A 100 x 200 page (portrait); a box near its top-left corner: x 10-30, y 20-60.
  const onPage: [number, number, number, number] = [10, 20, 30, 60];

  it('leaves a box alone with no turn', () => {
    expect(unturnedBox(onPage, 0, 100, 200)).toEqual(onPage);
  });

  it('brings back a box from the page turned a quarter clockwise (200 x 100, the corner now top-right)', () => {
    expect(unturnedBox([140, 10, 180, 30], 1, 200, 100)).toEqual(onPage);
  });

  it('brings back a box from the page turned half a turn (the corner now bottom-right)', () => {
    expect(unturnedBox([70, 140, 90, 180], 2, 100, 200)).toEqual(onPage);
  });

  it('brings back a box from the page turned three quarters (200 x 100, the corner now bottom-left)', () => {
    expect(unturnedBox([20, 70, 60, 90], 3, 200, 100)).toEqual(onPage);
  });
});
