/** A rendered page as the image a server receives: PNG or JPEG, as a data URL. */

import { createCanvas } from '@napi-rs/canvas';
import type { RemoteImageFormat } from '../../../shared/protocol.js';
import type { RgbImage } from '../raster/rgb-image.js';

/** Text stays legible to the model at this quality while the upload is a fraction of PNG's. */
const JPEG_QUALITY = 90;

export async function encodePageImage(image: RgbImage, format: RemoteImageFormat): Promise<Uint8Array> {
  const canvas = createCanvas(image.width, image.height);
  const context = canvas.getContext('2d');
  const pixels = context.createImageData(image.width, image.height);
  const rgba = pixels.data;
  for (let i = 0, o = 0; i < image.data.length; i += 3, o += 4) {
    rgba[o] = image.data[i] ?? 255;
    rgba[o + 1] = image.data[i + 1] ?? 255;
    rgba[o + 2] = image.data[i + 2] ?? 255;
    rgba[o + 3] = 255;
  }
  context.putImageData(pixels, 0, 0);
  // encode() runs on libuv's thread pool, so the host's event loop keeps streaming other pages meanwhile
  return format === 'png' ? canvas.encode('png') : canvas.encode('jpeg', JPEG_QUALITY);
}

export function imageDataUrl(bytes: Uint8Array, format: RemoteImageFormat): string {
  return `data:image/${format};base64,${Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64')}`;
}
