/** A rendered page as the image a server receives: PNG or JPEG bytes. */

import { createCanvas } from '@napi-rs/canvas';
import { promisify } from 'node:util';
import { crc32, deflate } from 'node:zlib';
import type { RemoteImageFormat } from '../../../shared/protocol.js';
import { encodeCanvas } from '../../core/canvas-encoding.js';
import type { RgbImage } from '../raster/rgb-image.js';

/** Text stays legible to the model at this quality while the upload is a fraction of PNG's. */
const JPEG_QUALITY = 90;
const PNG_SIGNATURE = Uint8Array.of(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a);
const deflateAsync = promisify(deflate);

export async function encodePageImage(image: RgbImage, format: RemoteImageFormat): Promise<Uint8Array> {
  return format === 'png' ? encodePng(image) : encodeJpeg(image);
}

/**
 * RGB rows, unfiltered, deflated by node:zlib on libuv's thread pool. Written here rather than
 * through the canvas because the canvas wants RGBA and compresses hard: measured on a 1920 px page,
 * about a fifth of the CPU for an upload of similar size, which is what lets one core feed a server.
 */
async function encodePng(image: RgbImage): Promise<Uint8Array> {
  const stride = image.width * 3;
  const rows = new Uint8Array((stride + 1) * image.height);
  for (let y = 0; y < image.height; y++) rows.set(image.data.subarray(y * stride, (y + 1) * stride), y * (stride + 1) + 1);
  const header = new Uint8Array(13);
  const view = new DataView(header.buffer);
  view.setUint32(0, image.width);
  view.setUint32(4, image.height);
  header.set([8, 2, 0, 0, 0], 8); // 8 bits per sample, truecolour, deflate, no filter method, not interlaced
  return Buffer.concat([PNG_SIGNATURE, chunk('IHDR', header), chunk('IDAT', await deflateAsync(rows)), chunk('IEND', new Uint8Array(0))]);
}

function chunk(type: string, data: Uint8Array): Uint8Array {
  const out = new Uint8Array(12 + data.length);
  const view = new DataView(out.buffer);
  view.setUint32(0, data.length);
  out.set(Buffer.from(type, 'latin1'), 4);
  out.set(data, 8);
  view.setUint32(8 + data.length, crc32(out.subarray(4, 8 + data.length)));
  return out;
}

async function encodeJpeg(image: RgbImage): Promise<Uint8Array> {
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
  return encodeCanvas(canvas, 'jpeg', JPEG_QUALITY);
}
