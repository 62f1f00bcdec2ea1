/**
 * The pages of an image file as upright RGB on white, through pure-JS decoders: pngjs, jpeg-js, and
 * utif2 for TIFF (one page per image directory, so a multi-page fax is several pages). A damaged
 * file then throws an error rather than crashing the process, as the canvas's native decoder does.
 * EXIF orientation comes from exifr for PNG and JPEG, from the directory's own tag for TIFF.
 */

import exifr from 'exifr';
import jpeg from 'jpeg-js';
import { PNG } from 'pngjs';
import UTIF from 'utif2';
import type { RgbImage } from '../raster/rgb-image.js';
import type { ImageFormat } from './image-format.js';
import { applyOrientation } from './orientation.js';

export type ReadableFormat = Extract<ImageFormat, 'png' | 'jpeg' | 'tiff'>;

const ORIENTATION_TAG = 't274';
const NEW_SUBFILE_TYPE_TAG = 't254';
/** NewSubfileType bit 0: a reduced-resolution copy (a thumbnail), not a page. */
const REDUCED_IMAGE = 1;
/** Beyond this a photo is not a page; it would only exhaust memory. Images inside PDFs are held to it too (page-raster.ts). */
export const MAX_MEGAPIXELS = 150;

/** A well-formed image too large to be a page: decoding it would only exhaust memory. */
export class ImageTooLargeError extends Error {
  constructor(megapixels: number) {
    super(`it has ${Math.round(megapixels)} megapixels, more than the ${MAX_MEGAPIXELS} a page may have`);
    this.name = 'ImageTooLargeError';
  }
}

export interface ImagePages {
  count: number;
  /** Decodes page `index` (0-based). */
  decode(index: number): Promise<RgbImage>;
}

export async function readImagePages(bytes: Uint8Array, format: ReadableFormat): Promise<ImagePages> {
  if (format === 'tiff') return readTiff(bytes);
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const orientation = await exifr.orientation(buffer).catch(() => undefined);
  if (format === 'png') refuseHugePng(buffer);
  const decoded = format === 'png' ? PNG.sync.read(buffer) : jpeg.decode(buffer, { useTArray: true, formatAsRGBA: true, maxResolutionInMP: MAX_MEGAPIXELS });
  const image = applyOrientation(rgbOnWhite(decoded.width, decoded.height, decoded.data), orientation);
  return { count: 1, decode: async () => image };
}

/** pngjs has no size limit of its own; the header (IHDR, right after the signature) says the size. */
function refuseHugePng(buffer: Buffer): void {
  if (buffer.length < 24) return;
  const pixels = buffer.readUInt32BE(16) * buffer.readUInt32BE(20);
  if (pixels > MAX_MEGAPIXELS * 1e6) throw new ImageTooLargeError(pixels / 1e6);
}

function readTiff(bytes: Uint8Array): ImagePages {
  const buffer = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
  // a directory without a width and height (an empty one, EXIF data) holds no picture: not a page
  const pages = UTIF.decode(buffer).filter(
    (ifd) => ((numberTag(ifd, NEW_SUBFILE_TYPE_TAG) ?? 0) & REDUCED_IMAGE) === 0 && (numberTag(ifd, 't256') ?? 0) > 0 && (numberTag(ifd, 't257') ?? 0) > 0,
  );
  return {
    count: pages.length,
    decode: async (index) => {
      const ifd = pages[index];
      if (!ifd) throw new RangeError(`the TIFF has ${pages.length} pages, not ${index + 1}`);
      const pixels = (numberTag(ifd, 't256') ?? 0) * (numberTag(ifd, 't257') ?? 0);
      if (pixels > MAX_MEGAPIXELS * 1e6) throw new ImageTooLargeError(pixels / 1e6);
      UTIF.decodeImage(buffer, ifd);
      const rgba = UTIF.toRGBA8(ifd);
      if (!(ifd.width > 0 && ifd.height > 0) || rgba.length < ifd.width * ifd.height * 4) {
        throw new Error(`its image data does not fill the ${numberTag(ifd, 't256')}x${numberTag(ifd, 't257')} pixels its directory declares`);
      }
      return applyOrientation(rgbOnWhite(ifd.width, ifd.height, rgba), numberTag(ifd, ORIENTATION_TAG));
    },
  };
}

function numberTag(ifd: UTIF.IFD, tag: string): number | undefined {
  const value = ifd[tag];
  const first: unknown = Array.isArray(value) ? value[0] : value;
  return typeof first === 'number' ? first : undefined;
}

/**
 * Drops alpha by compositing over white, in place: each pixel's three bytes are written over the
 * RGBA it was read from, so a 148-megapixel page holds its 592 MB of RGBA and not 444 MB more.
 */
function rgbOnWhite(width: number, height: number, rgba: Uint8Array): RgbImage {
  const length = width * height * 3;
  for (let i = 0, o = 0; o < length; i += 4, o += 3) {
    const alpha = rgba[i + 3] ?? 255;
    const r = rgba[i] ?? 0;
    const g = rgba[i + 1] ?? 0;
    const b = rgba[i + 2] ?? 0;
    if (alpha === 255) {
      rgba[o] = r;
      rgba[o + 1] = g;
      rgba[o + 2] = b;
    } else {
      rgba[o] = Math.round((r * alpha + 255 * (255 - alpha)) / 255);
      rgba[o + 1] = Math.round((g * alpha + 255 * (255 - alpha)) / 255);
      rgba[o + 2] = Math.round((b * alpha + 255 * (255 - alpha)) / 255);
    }
  }
  return { width, height, data: rgba.subarray(0, length) };
}
