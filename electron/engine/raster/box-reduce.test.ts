import { describe, expect, it } from 'vitest';
import { boxReduced, resizeLarge } from './box-reduce.js';
import type { RgbImage } from './rgb-image.js';

function grey(width: number, height: number, value: (x: number, y: number) => number): RgbImage {
  const data = new Uint8Array(width * height * 3);
  for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) data.fill(value(x, y), (y * width + x) * 3, (y * width + x) * 3 + 3);
  return { width, height, data };
}

describe('boxReduced', () => {
  it('averages each block, and the part of a block the right and bottom edges cut', () => {
    const reduced = boxReduced(grey(5, 3, (x, y) => x * 10 + y * 100), 2);
    expect(reduced.width).toBe(3);
    expect(reduced.height).toBe(2);
    const values = Array.from({ length: 6 }, (_, i) => reduced.data[i * 3]);
    expect(values).toEqual([55, 75, 90, 205, 225, 240]);
  });
});

describe('resizeLarge', () => {
  it('shrinks a large page of dark bars to the size asked, each bar dark on its own row and the gaps light', () => {
    const page = grey(3000, 2000, (x, y) => (y % 40 < 6 && x < 2400 ? 20 : 250));
    const small = resizeLarge(page, 500, 333);
    expect([small.width, small.height]).toEqual([500, 333]);
    const rowMean = (y: number) => small.data.subarray(y * 500 * 3, y * 500 * 3 + 400 * 3).reduce((sum, v) => sum + v, 0) / (400 * 3);
    for (let bar = 0; bar < 2000; bar += 40) {
      // a bar may fall across two rows (and 334 rows become 333)
      const barRows = [Math.floor(bar / 6) - 1, Math.floor(bar / 6), Math.floor((bar + 5) / 6), Math.floor((bar + 5) / 6) + 1].filter((y) => y >= 0 && y < 333);
      const gapRow = Math.floor((bar + 23) / 6);
      expect(Math.min(...barRows.map(rowMean))).toBeLessThan(200);
      expect(rowMean(gapRow)).toBeGreaterThan(240);
    }
  });
});

