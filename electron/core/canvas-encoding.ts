/**
 * PNG and JPEG from a canvas, encoded on libuv's thread pool so the event loop keeps streaming pages.
 *
 * @napi-rs/canvas 0.1.x does not keep a canvas alive while its `encode()` runs: when the canvas is
 * collected meanwhile, its pixels are freed under the encoder and the process dies with SIGSEGV
 * (Brooooooklyn/canvas#1312; fixed in 1.x, whose clipping pdf.js cannot use). A canvas that is
 * encoded as it goes out of scope is the usual case, so every encode goes through here, which holds
 * the canvas until its encode settles.
 */

import type { Canvas } from '@napi-rs/canvas';

const encoding = new Set<Canvas>();

export async function encodeCanvas(canvas: Canvas, format: 'png'): Promise<Buffer>;
export async function encodeCanvas(canvas: Canvas, format: 'jpeg', quality: number): Promise<Buffer>;
export async function encodeCanvas(canvas: Canvas, format: 'png' | 'jpeg', quality?: number): Promise<Buffer> {
  encoding.add(canvas);
  try {
    return await (format === 'png' ? canvas.encode('png') : canvas.encode('jpeg', quality));
  } finally {
    encoding.delete(canvas);
  }
}
