import { loadImage } from '@napi-rs/canvas';
import { describe, expect, it } from 'vitest';
import { decodeImage } from '../raster/page-raster.js';
import type { RgbImage } from '../raster/rgb-image.js';
import { encodePageImage } from './page-image.js';

/** A gradient with a black bar: every pixel differs from its neighbours, so a lossless round trip shows. */
function testImage(width: number, height: number): RgbImage {
  const data = new Uint8Array(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const o = (y * width + x) * 3;
      const bar = y > 10 && y < 20;
      data.set(bar ? [0, 0, 0] : [x % 256, y % 256, (x * y) % 256], o);
    }
  }
  return { width, height, data };
}

describe('page images for the server', () => {
  it('encodes PNG losslessly, pixel for pixel, as a standard decoder reads it', async () => {
    const image = testImage(67, 41);
    const png = await encodePageImage(image, 'png');
    const decoded = await decodeImage(png);
    expect(decoded.width).toBe(67);
    expect(decoded.height).toBe(41);
    expect(Buffer.from(decoded.data).equals(Buffer.from(image.data))).toBe(true);
  });

  it('encodes JPEG that decodes to the same size', async () => {
    const jpeg = await encodePageImage(testImage(80, 50), 'jpeg');
    const decoded = await loadImage(Buffer.from(jpeg));
    expect([decoded.width, decoded.height]).toEqual([80, 50]);
  });
});
