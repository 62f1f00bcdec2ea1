/**
 * EXIF orientation (tag 274) applied to pixels: the value says how the stored image must be turned
 * to look upright. 1 upright, 2 mirrored, 3 upside down, 4 flipped, 5 transposed, 6 turned a quarter
 * clockwise, 7 transversed, 8 turned a quarter anticlockwise.
 */

import type { RgbImage } from '../raster/rgb-image.js';

export function applyOrientation(image: RgbImage, orientation: number | undefined): RgbImage {
  if (orientation === undefined || orientation < 2 || orientation > 8 || !Number.isInteger(orientation)) return image;
  const { width, height } = image;
  const swaps = orientation >= 5;
  const outWidth = swaps ? height : width;
  const outHeight = swaps ? width : height;
  const data = new Uint8Array(image.data.length);
  for (let y = 0; y < outHeight; y++) {
    for (let x = 0; x < outWidth; x++) {
      const [sx, sy] = sourcePixel(orientation, x, y, width, height);
      const from = (sy * width + sx) * 3;
      data.set(image.data.subarray(from, from + 3), (y * outWidth + x) * 3);
    }
  }
  return { width: outWidth, height: outHeight, data };
}

/** The stored pixel that lands at upright (x, y); `width` and `height` are the stored image's. */
function sourcePixel(orientation: number, x: number, y: number, width: number, height: number): [number, number] {
  switch (orientation) {
    case 2: return [width - 1 - x, y];
    case 3: return [width - 1 - x, height - 1 - y];
    case 4: return [x, height - 1 - y];
    case 5: return [y, x];
    case 6: return [y, height - 1 - x];
    case 7: return [width - 1 - y, height - 1 - x];
    default: return [width - 1 - y, x];
  }
}
