/**
 * Page images the tests make: a PNG, a JPEG whose EXIF says "turn me a quarter clockwise", and a
 * two-page TIFF whose second page is stored sideways. Each has a red mark in its stored top-left
 * corner, so a test can tell where orientation put it.
 */

import { createCanvas } from '@napi-rs/canvas';
import UTIF from 'utif2';

export const RED: readonly [number, number, number] = [220, 20, 20];

/** A white page `width` x `height` with grey text-like lines and a red mark 10 x 6 at the top-left. */
function drawPage(width: number, height: number) {
  const canvas = createCanvas(width, height);
  const context = canvas.getContext('2d');
  context.fillStyle = '#ffffff';
  context.fillRect(0, 0, width, height);
  context.fillStyle = '#222222';
  for (let y = 14; y < height - 6; y += 9) context.fillRect(14, y, width - 28 - ((y * 7) % 20), 4);
  context.fillStyle = `rgb(${RED.join(',')})`;
  context.fillRect(0, 0, 10, 6);
  return { canvas, context };
}

export function pngPage(width: number, height: number): Uint8Array {
  return drawPage(width, height).canvas.toBuffer('image/png');
}

export function blankPng(width: number, height: number): Uint8Array {
  const canvas = createCanvas(width, height);
  const context = canvas.getContext('2d');
  context.fillStyle = '#ffffff';
  context.fillRect(0, 0, width, height);
  return canvas.toBuffer('image/png');
}

/** A JPEG with an EXIF APP1 segment holding only the orientation tag. */
export function jpegPage(width: number, height: number, orientation: number): Uint8Array {
  const jpeg = drawPage(width, height).canvas.toBuffer('image/jpeg', 100);
  const tiff = new Uint8Array(UTIF.encode([{ t274: [orientation] } as unknown as UTIF.IFD]));
  const payload = new Uint8Array([...Buffer.from('Exif\0\0', 'latin1'), ...tiff]);
  const segment = new Uint8Array([0xff, 0xe1, (payload.length + 2) >> 8, (payload.length + 2) & 0xff, ...payload]);
  // right after the start-of-image marker
  return new Uint8Array([...jpeg.subarray(0, 2), ...segment, ...jpeg.subarray(2)]);
}

/** An uncompressed RGB TIFF with one page per entry, each with its own EXIF-style orientation tag. */
export function tiffPages(pages: readonly { width: number; height: number; orientation: number }[]): Uint8Array {
  const rasters = pages.map(({ width, height }) => {
    const rgba = drawPage(width, height).context.getImageData(0, 0, width, height).data;
    const rgb = new Uint8Array(width * height * 3);
    for (let i = 0, o = 0; o < rgb.length; i += 4, o += 3) rgb.set(rgba.subarray(i, i + 3), o);
    return rgb;
  });
  // UTIF.encode writes the directories into its first 20,000 bytes; the strips go after them
  let offset = 20_000;
  const ifds = pages.map(({ width, height, orientation }, i) => {
    const bytes = rasters[i]?.length ?? 0;
    const ifd = { t256: [width], t257: [height], t258: [8, 8, 8], t259: [1], t262: [2], t273: [offset], t274: [orientation], t277: [3], t278: [height], t279: [bytes], t284: [1] };
    offset += bytes;
    return ifd as unknown as UTIF.IFD;
  });
  const file = new Uint8Array(offset);
  file.set(new Uint8Array(UTIF.encode(ifds)));
  let at = 20_000;
  for (const raster of rasters) {
    file.set(raster, at);
    at += raster.length;
  }
  return file;
}
