/** An 8-bit RGB raster, row-major, three bytes per pixel: what preprocessing works on. */
export interface RgbImage {
  width: number;
  height: number;
  data: Uint8Array;
}

export function rgbFromRgba(width: number, height: number, rgba: Uint8Array | Uint8ClampedArray): RgbImage {
  const data = new Uint8Array(width * height * 3);
  for (let i = 0, o = 0; o < data.length; i += 4, o += 3) {
    data[o] = rgba[i] ?? 0;
    data[o + 1] = rgba[i + 1] ?? 0;
    data[o + 2] = rgba[i + 2] ?? 0;
  }
  return { width, height, data };
}

export function filledImage(width: number, height: number, colour: readonly [number, number, number]): RgbImage {
  const data = new Uint8Array(width * height * 3);
  for (let o = 0; o < data.length; o += 3) data.set(colour, o);
  return { width, height, data };
}

/** Copies `source` into `target` with its top-left corner at (x, y); both must fit. */
export function paste(target: RgbImage, source: RgbImage, x: number, y: number): void {
  for (let row = 0; row < source.height; row++) {
    const from = row * source.width * 3;
    target.data.set(source.data.subarray(from, from + source.width * 3), ((y + row) * target.width + x) * 3);
  }
}

export function crop(source: RgbImage, x: number, y: number, width: number, height: number): RgbImage {
  const out: RgbImage = { width, height, data: new Uint8Array(width * height * 3) };
  for (let row = 0; row < height; row++) {
    const from = ((y + row) * source.width + x) * 3;
    out.data.set(source.data.subarray(from, from + width * 3), row * width * 3);
  }
  return out;
}
