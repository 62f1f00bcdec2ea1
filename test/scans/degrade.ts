/**
 * What a scanner does to a clean page, made reproducible: greyscale, a small rotation, optical blur
 * and sensor noise, from a seeded generator so every run makes the same pixels.
 */

import type { RgbImage } from '../../electron/engine/raster/rgb-image.js';

export interface ScanDefects {
  /** Degrees, clockwise. */
  skewDegrees: number;
  /** Passes of a 3x3 box blur. */
  blurPasses: number;
  /** Standard deviation of the added noise, in grey levels. */
  noise: number;
  seed: number;
}

/** Greyscale, one byte per pixel. */
export interface GreyImage {
  width: number;
  height: number;
  data: Uint8Array;
}

export function degrade(image: RgbImage, defects: ScanDefects): GreyImage {
  let grey = toGrey(image);
  grey = rotate(grey, (defects.skewDegrees * Math.PI) / 180);
  for (let i = 0; i < defects.blurPasses; i++) grey = boxBlur(grey);
  return addNoise(grey, defects.noise, defects.seed);
}

function toGrey(image: RgbImage): GreyImage {
  const data = new Uint8Array(image.width * image.height);
  for (let i = 0; i < data.length; i++) {
    data[i] = Math.round(0.299 * image.data[3 * i]! + 0.587 * image.data[3 * i + 1]! + 0.114 * image.data[3 * i + 2]!);
  }
  return { width: image.width, height: image.height, data };
}

/** Bilinear rotation about the centre; what comes in from outside is white paper. */
function rotate(image: GreyImage, radians: number): GreyImage {
  if (radians === 0) return image;
  const { width, height } = image;
  const out = new Uint8Array(width * height);
  const cos = Math.cos(radians);
  const sin = Math.sin(radians);
  const cx = width / 2;
  const cy = height / 2;
  const at = (x: number, y: number) => (x < 0 || y < 0 || x >= width || y >= height ? 255 : image.data[y * width + x]!);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const dx = x - cx;
      const dy = y - cy;
      const sx = cos * dx + sin * dy + cx;
      const sy = -sin * dx + cos * dy + cy;
      const x0 = Math.floor(sx);
      const y0 = Math.floor(sy);
      const fx = sx - x0;
      const fy = sy - y0;
      const top = at(x0, y0) * (1 - fx) + at(x0 + 1, y0) * fx;
      const bottom = at(x0, y0 + 1) * (1 - fx) + at(x0 + 1, y0 + 1) * fx;
      out[y * width + x] = Math.round(top * (1 - fy) + bottom * fy);
    }
  }
  return { width, height, data: out };
}

function boxBlur(image: GreyImage): GreyImage {
  const { width, height } = image;
  const out = new Uint8Array(width * height);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      let sum = 0;
      let n = 0;
      for (let yy = Math.max(0, y - 1); yy <= Math.min(height - 1, y + 1); yy++) {
        for (let xx = Math.max(0, x - 1); xx <= Math.min(width - 1, x + 1); xx++) {
          sum += image.data[yy * width + xx]!;
          n++;
        }
      }
      out[y * width + x] = Math.round(sum / n);
    }
  }
  return { width, height, data: out };
}

/** Gaussian noise (Box-Muller over a mulberry32 stream). */
function addNoise(image: GreyImage, sigma: number, seed: number): GreyImage {
  let state = seed >>> 0;
  const random = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const out = new Uint8Array(image.data.length);
  for (let i = 0; i < out.length; i++) {
    const gaussian = Math.sqrt(-2 * Math.log(random() + 1e-12)) * Math.cos(2 * Math.PI * random());
    out[i] = Math.max(0, Math.min(255, Math.round(image.data[i]! + sigma * gaussian)));
  }
  return { width: image.width, height: image.height, data: out };
}
