/**
 * Where the vision features go in the prompt: all tiles as one (t*h x t*w) grid with each row closed
 * by `image_newline`, then the global grid likewise, then one `view_seperator`.
 */

export interface VisionFeatures {
  /** `[g*g, hidden]`. */
  global: Float32Array;
  globalSide: number;
  /** `[w*h, t*t, hidden]`, row-major tiles, or null. */
  tiles: Float32Array | null;
  tileSide: number;
  grid: readonly [number, number];
  newline: Float32Array;
  separator: Float32Array;
  hidden: number;
}

export function visualTokenCount(globalSide: number, tileSide: number, grid: readonly [number, number]): number {
  const [w, h] = grid;
  const tileRows = w * h > 1 ? tileSide * h * (tileSide * w + 1) : 0;
  return tileRows + globalSide * (globalSide + 1) + 1;
}

export function layVisualSequence(features: VisionFeatures): Float32Array {
  const { hidden, globalSide, tileSide, grid } = features;
  const out = new Float32Array(visualTokenCount(globalSide, tileSide, grid) * hidden);
  let next = 0;
  const put = (row: Float32Array): void => {
    out.set(row, next * hidden);
    next++;
  };
  const [w, h] = grid;
  if (features.tiles && w * h > 1) {
    const perTile = tileSide * tileSide;
    for (let row = 0; row < tileSide * h; row++) {
      const tileRow = Math.floor(row / tileSide);
      const inner = row % tileSide;
      for (let tileColumn = 0; tileColumn < w; tileColumn++) {
        const first = ((tileRow * w + tileColumn) * perTile + inner * tileSide) * hidden;
        out.set(features.tiles.subarray(first, first + tileSide * hidden), next * hidden);
        next += tileSide;
      }
      put(features.newline);
    }
  }
  for (let row = 0; row < globalSide; row++) {
    out.set(features.global.subarray(row * globalSide * hidden, (row + 1) * globalSide * hidden), next * hidden);
    next += globalSide;
    put(features.newline);
  }
  put(features.separator);
  return out;
}
