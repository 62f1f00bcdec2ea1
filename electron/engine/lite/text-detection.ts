/**
 * Text-line detection with PP-OCR's DB model: the page is shrunk to the detector's scale, the
 * probability map thresholded, and each connected region becomes a rotated rectangle (centre, axis,
 * extents), expanded as DB's "unclip" does and mapped back to the page image's pixels.
 */

import ort from 'onnxruntime-node';
import type { RgbImage } from '../raster/rgb-image.js';

/** A text line on the page image: a rectangle of `length` x `thickness` pixels about `cx, cy`, turned by `angle`. */
export interface TextLineBox {
  cx: number;
  cy: number;
  /** Radians; positive turns the reading direction clockwise on screen (y grows downwards). */
  angle: number;
  length: number;
  thickness: number;
  /** Mean detector probability inside the region. */
  score: number;
}

export interface DetectionSettings {
  /** Longer side of the detector's input, pixels (a multiple of 32). */
  longSide: number;
  /** Probability above which a pixel is text. */
  threshold: number;
  /** Regions whose mean probability is lower are dropped. */
  minScore: number;
  /** DB's expansion: a region grows by area * ratio / perimeter on every side. */
  unclipRatio: number;
}

export const DEFAULT_DETECTION: DetectionSettings = { longSide: 1280, threshold: 0.3, minScore: 0.55, unclipRatio: 1.6 };

const MEAN = [0.485, 0.456, 0.406] as const;
const STD = [0.229, 0.224, 0.225] as const;
/** Regions smaller than this many detector pixels are specks. */
const MIN_REGION_PIXELS = 12;
/** Regions this much longer than thick tell the page's skew reliably; shorter ones take the page's. */
const ORIENTING_ASPECT = 4;
const MAX_SKEW = (10 * Math.PI) / 180;

export async function detectTextLines(session: ort.InferenceSession, image: RgbImage, settings = DEFAULT_DETECTION): Promise<TextLineBox[]> {
  const scale = Math.min(1, settings.longSide / Math.max(image.width, image.height));
  const width = Math.max(32, Math.round((image.width * scale) / 32) * 32);
  const height = Math.max(32, Math.round((image.height * scale) / 32) * 32);
  const input = new ort.Tensor('float32', detectorInput(image, width, height), [1, 3, height, width]);
  const output = await session.run({ [session.inputNames[0]!]: input });
  const map = output[session.outputNames[0]!]!.data as Float32Array;
  const regions = textRegions(map, width, height, settings);
  const sx = image.width / width;
  const sy = image.height / height;
  return orientRegions(regions).map((box) => toImagePixels(box, sx, sy, settings.unclipRatio));
}

/** Area-averaged resize to the detector's size, normalised as ImageNet, planar RGB. */
function detectorInput(image: RgbImage, width: number, height: number): Float32Array {
  const out = new Float32Array(3 * width * height);
  const plane = width * height;
  const fx = image.width / width;
  const fy = image.height / height;
  for (let y = 0; y < height; y++) {
    const y0 = Math.floor(y * fy);
    const y1 = Math.max(y0 + 1, Math.min(image.height, Math.floor((y + 1) * fy)));
    for (let x = 0; x < width; x++) {
      const x0 = Math.floor(x * fx);
      const x1 = Math.max(x0 + 1, Math.min(image.width, Math.floor((x + 1) * fx)));
      let r = 0;
      let g = 0;
      let b = 0;
      for (let yy = y0; yy < y1; yy++) {
        let o = (yy * image.width + x0) * 3;
        for (let xx = x0; xx < x1; xx++, o += 3) {
          r += image.data[o]!;
          g += image.data[o + 1]!;
          b += image.data[o + 2]!;
        }
      }
      const n = 255 * (y1 - y0) * (x1 - x0);
      const i = y * width + x;
      out[i] = (r / n - MEAN[0]) / STD[0];
      out[plane + i] = (g / n - MEAN[1]) / STD[1];
      out[2 * plane + i] = (b / n - MEAN[2]) / STD[2];
    }
  }
  return out;
}

interface Region {
  /** Pixel moments about the centroid, detector pixels. */
  cx: number;
  cy: number;
  mu20: number;
  mu02: number;
  mu11: number;
  /** (x, y) pairs. */
  pixels: Int32Array;
  score: number;
}

/** Connected regions (4-neighbourhood) of the thresholded map, scored by their mean probability. */
function textRegions(map: Float32Array, width: number, height: number, settings: DetectionSettings): Region[] {
  const seen = new Uint8Array(width * height);
  const stack = new Int32Array(width * height);
  const regions: Region[] = [];
  for (let start = 0; start < map.length; start++) {
    if (seen[start] !== 0 || map[start]! <= settings.threshold) continue;
    seen[start] = 1;
    let top = 0;
    stack[top++] = start;
    const pixels: number[] = [];
    let sum = 0;
    let sx = 0;
    let sy = 0;
    while (top > 0) {
      const p = stack[--top]!;
      const x = p % width;
      const y = (p - x) / width;
      pixels.push(x, y);
      sum += map[p]!;
      sx += x;
      sy += y;
      for (const q of [x > 0 ? p - 1 : -1, x < width - 1 ? p + 1 : -1, y > 0 ? p - width : -1, y < height - 1 ? p + width : -1]) {
        if (q >= 0 && seen[q] === 0 && map[q]! > settings.threshold) {
          seen[q] = 1;
          stack[top++] = q;
        }
      }
    }
    const count = pixels.length / 2;
    if (count < MIN_REGION_PIXELS || sum / count < settings.minScore) continue;
    const cx = sx / count;
    const cy = sy / count;
    let mu20 = 0;
    let mu02 = 0;
    let mu11 = 0;
    for (let k = 0; k < pixels.length; k += 2) {
      const dx = pixels[k]! - cx;
      const dy = pixels[k + 1]! - cy;
      mu20 += dx * dx;
      mu02 += dy * dy;
      mu11 += dx * dy;
    }
    regions.push({ cx, cy, mu20, mu02, mu11, pixels: Int32Array.from(pixels), score: sum / count });
  }
  return regions;
}

interface OrientedRegion {
  cx: number;
  cy: number;
  angle: number;
  /** Extents along the reading axis and across it, from the centroid: [min, max]. */
  along: [number, number];
  across: [number, number];
  score: number;
}

/**
 * Each region's axis from its second moments; short regions (a word, a digit) have no reliable
 * axis of their own and take the page's skew, the median of the long ones.
 */
function orientRegions(regions: readonly Region[]): OrientedRegion[] {
  const own = regions.map((r) => 0.5 * Math.atan2(2 * r.mu11, r.mu20 - r.mu02));
  const elongation = regions.map((r) => {
    const common = Math.sqrt(((r.mu20 - r.mu02) / 2) ** 2 + r.mu11 ** 2);
    const major = (r.mu20 + r.mu02) / 2 + common;
    const minor = Math.max(1e-6, (r.mu20 + r.mu02) / 2 - common);
    return Math.sqrt(major / minor);
  });
  const reliable = own.filter((a, i) => elongation[i]! >= ORIENTING_ASPECT && Math.abs(a) <= MAX_SKEW).sort((a, b) => a - b);
  const pageSkew = reliable.length > 0 ? reliable[Math.floor(reliable.length / 2)]! : 0;
  return regions.map((r, i) => {
    const angle = elongation[i]! >= ORIENTING_ASPECT && Math.abs(own[i]!) <= MAX_SKEW ? own[i]! : pageSkew;
    const ux = Math.cos(angle);
    const uy = Math.sin(angle);
    const along: [number, number] = [Infinity, -Infinity];
    const across: [number, number] = [Infinity, -Infinity];
    for (let k = 0; k < r.pixels.length; k += 2) {
      const dx = r.pixels[k]! - r.cx;
      const dy = r.pixels[k + 1]! - r.cy;
      const u = dx * ux + dy * uy;
      const v = -dx * uy + dy * ux;
      if (u < along[0]) along[0] = u;
      if (u > along[1]) along[1] = u;
      if (v < across[0]) across[0] = v;
      if (v > across[1]) across[1] = v;
    }
    return { cx: r.cx, cy: r.cy, angle, along, across, score: r.score };
  });
}

function toImagePixels(region: OrientedRegion, sx: number, sy: number, unclipRatio: number): TextLineBox {
  // Pixel extents are centres; the region covers half a pixel more on each side.
  const length = region.along[1] - region.along[0] + 1;
  const thickness = region.across[1] - region.across[0] + 1;
  const grow = (length * thickness * unclipRatio) / (2 * (length + thickness));
  const midU = (region.along[0] + region.along[1]) / 2;
  const midV = (region.across[0] + region.across[1]) / 2;
  const ux = Math.cos(region.angle);
  const uy = Math.sin(region.angle);
  const cx = region.cx + midU * ux - midV * uy;
  const cy = region.cy + midU * uy + midV * ux;
  // The detector's pixels are nearly square in the image (the resize keeps the aspect within a pixel).
  const s = (sx + sy) / 2;
  return {
    cx: (cx + 0.5) * sx,
    cy: (cy + 0.5) * sy,
    angle: region.angle,
    length: (length + 2 * grow) * s,
    thickness: (thickness + 2 * grow) * s,
    score: region.score,
  };
}
