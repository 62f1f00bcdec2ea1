import { createCanvas, loadImage } from '@napi-rs/canvas';
import { ImageKind, type PDFDocumentProxy, type PDFPageProxy } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPrintedPdf, printHtml, readPrintedPage, type PrintedPage } from '../../../test/printed-page.js';
import { encodeCanvas } from '../../core/canvas-encoding.js';
import type { ImagePlacement } from '../layout/geometry.js';
import { encodeImage } from './image-encoder.js';

/** A 40x20 picture: red left half, blue right half, optionally half-transparent. */
async function twoColourPng(alpha = 1): Promise<string> {
  const canvas = createCanvas(40, 20);
  const context = canvas.getContext('2d');
  context.fillStyle = `rgba(255, 0, 0, ${alpha})`;
  context.fillRect(0, 0, 20, 20);
  context.fillStyle = `rgba(0, 0, 255, ${alpha})`;
  context.fillRect(20, 0, 20, 20);
  return `data:image/png;base64,${(await encodeCanvas(canvas, 'png')).toString('base64')}`;
}

async function twoColourJpeg(): Promise<string> {
  const canvas = createCanvas(40, 20);
  const context = canvas.getContext('2d');
  context.fillStyle = '#ff0000';
  context.fillRect(0, 0, 20, 20);
  context.fillStyle = '#0000ff';
  context.fillRect(20, 0, 20, 20);
  return `data:image/jpeg;base64,${(await encodeCanvas(canvas, 'jpeg', 95)).toString('base64')}`;
}

async function pixelsOf(png: Uint8Array): Promise<{ width: number; height: number; at(x: number, y: number): number[] }> {
  const image = await loadImage(Buffer.from(png));
  const canvas = createCanvas(image.width, image.height);
  const context = canvas.getContext('2d');
  context.drawImage(image, 0, 0);
  const data = context.getImageData(0, 0, image.width, image.height).data;
  return {
    width: image.width,
    height: image.height,
    at: (x, y) => Array.from(data.slice((y * image.width + x) * 4, (y * image.width + x) * 4 + 4)),
  };
}

let pdf: PDFDocumentProxy;
let printed: PrintedPage;

beforeAll(async () => {
  const html = `<!doctype html><html><body style="margin: 0">
    <p>Three pictures follow.</p>
    <img src="${await twoColourPng()}" style="width: 160px; height: 80px; display: block">
    <img src="${await twoColourPng(0.5)}" style="width: 160px; height: 80px; display: block">
    <img src="${await twoColourJpeg()}" style="width: 160px; height: 80px; display: block">
  </body></html>`;
  const [bytes] = await printHtml([html]);
  pdf = await openPrintedPdf(bytes!);
  printed = await readPrintedPage(pdf);
});

afterAll(async () => {
  await pdf?.destroy();
});

describe('encodeImage on printed pictures', () => {
  it('re-encodes an opaque picture as a PNG with its pixels and size', async () => {
    const png = await encodeImage(printed.page, printed.images[0]!);
    const pixels = await pixelsOf(png!);
    expect([pixels.width, pixels.height]).toEqual([40, 20]);
    expect(pixels.at(5, 10)).toEqual([255, 0, 0, 255]);
    expect(pixels.at(35, 10)).toEqual([0, 0, 255, 255]);
  });

  it('keeps the transparency of a picture with an alpha channel', async () => {
    const pixels = await pixelsOf((await encodeImage(printed.page, printed.images[1]!))!);
    const [red, , blue, alpha] = pixels.at(5, 10);
    expect(red).toBeGreaterThan(200);
    expect(blue).toBeLessThan(50);
    expect(alpha).toBeGreaterThan(100);
    expect(alpha).toBeLessThan(160);
  });

  it('decodes a JPEG picture', async () => {
    const pixels = await pixelsOf((await encodeImage(printed.page, printed.images[2]!))!);
    const [red, , blue] = pixels.at(5, 10);
    expect(red).toBeGreaterThan(220);
    expect(blue).toBeLessThan(40);
    expect(pixels.at(35, 10)[2]).toBeGreaterThan(220);
  });

  it('gives undefined for an object id the page does not have', async () => {
    const missing: ImagePlacement = { x0: 0, y0: 0, x1: 10, y1: 10, objectId: 'img_p0_999' };
    const stub = { objs: { get: (_id: string, callback: (data: unknown) => void) => callback(null) } };
    expect(await encodeImage(stub as unknown as PDFPageProxy, missing)).toBeUndefined();
  });
});

describe('encodeImage on pixel layouts pdf.js produces', () => {
  const placement: ImagePlacement = { x0: 0, y0: 0, x1: 10, y1: 10, objectId: 'img_1' };
  const pageWith = (image: unknown) =>
    ({ objs: { get: (_id: string, callback: (data: unknown) => void) => callback(image) } }) as unknown as PDFPageProxy;

  it('turns a one-bit image into black and white pixels', async () => {
    // 10 px wide: rows padded to two bytes; first row starts white-black, second black-white.
    const data = new Uint8Array([0b10000000, 0, 0b01000000, 0]);
    const png = await encodeImage(pageWith({ width: 10, height: 2, kind: ImageKind.GRAYSCALE_1BPP, data }), placement);
    const pixels = await pixelsOf(png!);
    expect(pixels.at(0, 0)).toEqual([255, 255, 255, 255]);
    expect(pixels.at(1, 0)).toEqual([0, 0, 0, 255]);
    expect(pixels.at(0, 1)).toEqual([0, 0, 0, 255]);
    expect(pixels.at(1, 1)).toEqual([255, 255, 255, 255]);
  });

  it('draws an image mask as black where it paints and transparent elsewhere', async () => {
    const png = await encodeImage(pageWith({ width: 2, height: 1, data: new Uint8Array([0b01000000]) }), placement);
    const pixels = await pixelsOf(png!);
    expect(pixels.at(0, 0)[3]).toBe(255);
    expect(pixels.at(1, 0)[3]).toBe(0);
  });

  it('scales a huge image down to a bounded size', async () => {
    const data = new Uint8Array(5000 * 100 * 3).fill(128);
    const pixels = await pixelsOf((await encodeImage(pageWith({ width: 5000, height: 100, kind: ImageKind.RGB_24BPP, data }), placement))!);
    expect(pixels.width).toBe(2000);
    expect(pixels.height).toBe(40);
  });

  it('gives undefined for pixel data shorter than the size it claims, or an unknown layout', async () => {
    const short = { width: 100, height: 100, kind: ImageKind.RGB_24BPP, data: new Uint8Array(10) };
    expect(await encodeImage(pageWith(short), placement)).toBeUndefined();
    expect(await encodeImage(pageWith({ width: 1, height: 1, kind: 99, data: new Uint8Array(4) }), placement)).toBeUndefined();
    expect(await encodeImage(pageWith({ width: -1, height: 1 }), placement)).toBeUndefined();
  });
});
