/**
 * Pillow's bicubic resize (`Image.resize(size, BICUBIC)` on an RGB image), reproduced so that Folio's
 * views equal the reference's byte for byte. Canvas resampling differs from Pillow's; the model was
 * trained on Pillow's. Pillow widens the filter by the scale when shrinking (antialiasing), uses
 * 22-bit fixed-point weights, and rounds to 8 bits after the horizontal pass and again after the
 * vertical one (libImaging/Resample.c).
 */

import type { RgbImage } from './rgb-image.js';

const PRECISION_BITS = 32 - 8 - 2;
const BICUBIC_SUPPORT = 2;
const A = -0.5;

function bicubic(distance: number): number {
  const x = Math.abs(distance);
  if (x < 1) return ((A + 2) * x - (A + 3)) * x * x + 1;
  if (x < 2) return (((x - 5) * x + 8) * x - 4) * A;
  return 0;
}

interface Coefficients {
  /** Taps per output pixel. */
  size: number;
  /** First input index and tap count per output pixel. */
  bounds: Int32Array;
  /** Fixed-point weights, `size` per output pixel. */
  weights: Int32Array;
}

function coefficients(inSize: number, outSize: number): Coefficients {
  const scale = inSize / outSize;
  const filterScale = Math.max(scale, 1);
  const support = BICUBIC_SUPPORT * filterScale;
  const size = Math.ceil(support) * 2 + 1;
  const bounds = new Int32Array(outSize * 2);
  const weights = new Int32Array(outSize * size);
  const taps = new Float64Array(size);
  for (let out = 0; out < outSize; out++) {
    const center = (out + 0.5) * scale;
    // C truncates these toward zero; both are non-negative after clamping
    const min = Math.max(Math.trunc(center - support + 0.5), 0);
    const count = Math.min(Math.trunc(center + support + 0.5), inSize) - min;
    let total = 0;
    for (let x = 0; x < count; x++) {
      const w = bicubic((x + min - center + 0.5) / filterScale);
      taps[x] = w;
      total += w;
    }
    for (let x = 0; x < size; x++) {
      const w = x < count && total !== 0 ? (taps[x] ?? 0) / total : 0;
      weights[out * size + x] = Math.trunc(w < 0 ? -0.5 + w * (1 << PRECISION_BITS) : 0.5 + w * (1 << PRECISION_BITS));
    }
    bounds[out * 2] = min;
    bounds[out * 2 + 1] = count;
  }
  return { size, bounds, weights };
}

function clip8(sum: number): number {
  const value = sum >> PRECISION_BITS;
  return value < 0 ? 0 : value > 255 ? 255 : value;
}

function horizontal(source: RgbImage, width: number, firstRow: number, rows: number): RgbImage {
  const { size, bounds, weights } = coefficients(source.width, width);
  const out = new Uint8Array(width * rows * 3);
  for (let y = 0; y < rows; y++) {
    const row = (y + firstRow) * source.width * 3;
    for (let x = 0; x < width; x++) {
      const min = bounds[x * 2] ?? 0;
      const count = bounds[x * 2 + 1] ?? 0;
      for (let c = 0; c < 3; c++) {
        let sum = 1 << (PRECISION_BITS - 1);
        for (let k = 0; k < count; k++) sum += (source.data[row + (min + k) * 3 + c] ?? 0) * (weights[x * size + k] ?? 0);
        out[(y * width + x) * 3 + c] = clip8(sum);
      }
    }
  }
  return { width, height: rows, data: out };
}

function vertical(source: RgbImage, height: number, bounds: Int32Array, size: number, weights: Int32Array): RgbImage {
  const width = source.width;
  const out = new Uint8Array(width * height * 3);
  for (let y = 0; y < height; y++) {
    const min = bounds[y * 2] ?? 0;
    const count = bounds[y * 2 + 1] ?? 0;
    for (let i = 0; i < width * 3; i++) {
      let sum = 1 << (PRECISION_BITS - 1);
      for (let k = 0; k < count; k++) sum += (source.data[(min + k) * width * 3 + i] ?? 0) * (weights[y * size + k] ?? 0);
      out[y * width * 3 + i] = clip8(sum);
    }
  }
  return { width, height, data: out };
}

export function resizeBicubic(source: RgbImage, width: number, height: number): RgbImage {
  if (width === source.width && height === source.height) return { width, height, data: source.data.slice() };
  const vert = coefficients(source.height, height);
  // Pillow's horizontal pass covers only the source rows the vertical pass reads
  const firstRow = vert.bounds[0] ?? 0;
  const lastRow = (vert.bounds[height * 2 - 2] ?? 0) + (vert.bounds[height * 2 - 1] ?? 0);
  let image = source;
  let bounds = vert.bounds;
  if (width !== source.width) {
    image = horizontal(source, width, firstRow, lastRow - firstRow);
    bounds = vert.bounds.map((value, i) => (i % 2 === 0 ? value - firstRow : value));
  }
  return height !== source.height ? vertical(image, height, bounds, vert.size, vert.weights) : image;
}
