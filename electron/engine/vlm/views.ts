/**
 * Page image to the model's normalised views, exactly as the reference (`tools/model/folio_model/
 * preprocess.py`, after DeepSeek-OCR's processor) prepares them: a global view letterboxed (or, for
 * small native modes, squashed) to the base size, plus Gundam tiles cut from the page resized to the
 * chosen grid.
 */

import type { ResolutionMode } from '../../core/model/manifest.js';
import { resizeBicubic } from '../raster/pil-resize.js';
import { crop, filledImage, paste, type RgbImage } from '../raster/rgb-image.js';

/** Native modes of at most this size squash the page to a square instead of letterboxing it. */
const SQUASH_LIMIT = 640;

export interface VisionSettings {
  mean: number;
  std: number;
  pad_colour: readonly [number, number, number];
}

export interface PreparedViews {
  /** `[3, base, base]`. */
  global: Float32Array;
  baseSize: number;
  /** `[w*h, 3, tile, tile]`, row-major tiles, or null when the page needs none. */
  tiles: Float32Array | null;
  tileSize: number;
  /** Tiles wide and high; `[1, 1]` without tiles. */
  grid: readonly [number, number];
}

/** Python's `round`: halves go to the even neighbour. */
function roundHalfEven(value: number): number {
  const floor = Math.floor(value);
  const fraction = value - floor;
  if (fraction !== 0.5) return Math.round(value);
  return floor % 2 === 0 ? floor : floor + 1;
}

/** The candidate grid whose aspect is closest to the page's; exact ties go to the later candidate when the page is large. */
export function chooseGrid(width: number, height: number, tile: number, candidates: readonly (readonly [number, number])[]): [number, number] {
  const aspect = width / height;
  let best: [number, number] = [1, 1];
  let bestDiff = Number.POSITIVE_INFINITY;
  for (const [w, h] of candidates) {
    const diff = Math.abs(aspect - w / h);
    if (diff < bestDiff) {
      best = [w, h];
      bestDiff = diff;
    } else if (diff === bestDiff && width * height > 0.5 * tile * tile * w * h) {
      best = [w, h];
    }
  }
  return best;
}

export function tileGrid(width: number, height: number, mode: ResolutionMode): [number, number] {
  if (!mode.crop || (width <= mode.image_size && height <= mode.image_size)) return [1, 1];
  return chooseGrid(width, height, mode.image_size, mode.candidate_grids);
}

/** Pillow's `ImageOps.pad`: fit inside a square keeping the aspect, centred on the pad colour. */
export function letterbox(image: RgbImage, size: number, colour: readonly [number, number, number]): RgbImage {
  let width = size;
  let height = size;
  if (image.width !== image.height) {
    if (image.width > image.height) height = roundHalfEven((image.height / image.width) * size);
    else width = roundHalfEven((image.width / image.height) * size);
  }
  const resized = resizeBicubic(image, width, height);
  if (width === size && height === size) return resized;
  const out = filledImage(size, size, colour);
  paste(out, resized, roundHalfEven((size - width) * 0.5), roundHalfEven((size - height) * 0.5));
  return out;
}

function normalise(image: RgbImage, settings: VisionSettings, target: Float32Array, offset: number): void {
  const plane = image.width * image.height;
  for (let i = 0; i < plane; i++) {
    for (let c = 0; c < 3; c++) {
      // float32 at each step, as numpy computes it
      const unit = Math.fround((image.data[i * 3 + c] ?? 0) / 255);
      target[offset + c * plane + i] = Math.fround(Math.fround(unit - settings.mean) / settings.std);
    }
  }
}

export function prepareViews(image: RgbImage, mode: ResolutionMode, settings: VisionSettings): PreparedViews {
  const grid = tileGrid(image.width, image.height, mode);
  const squashed = !mode.crop && mode.image_size <= SQUASH_LIMIT ? resizeBicubic(image, mode.image_size, mode.image_size) : image;
  const globalView = letterbox(squashed, mode.base_size, settings.pad_colour);
  const global = new Float32Array(3 * mode.base_size * mode.base_size);
  normalise(globalView, settings, global, 0);
  const count = grid[0] * grid[1];
  let tiles: Float32Array | null = null;
  if (count > 1) {
    const size = mode.image_size;
    const whole = resizeBicubic(image, size * grid[0], size * grid[1]);
    tiles = new Float32Array(count * 3 * size * size);
    for (let r = 0; r < grid[1]; r++) {
      for (let c = 0; c < grid[0]; c++) normalise(crop(whole, c * size, r * size, size, size), settings, tiles, (r * grid[0] + c) * 3 * size * size);
    }
  }
  return { global, baseSize: mode.base_size, tiles, tileSize: mode.image_size, grid };
}
