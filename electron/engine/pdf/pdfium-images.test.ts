import { readFile } from 'node:fs/promises';
import { deflateSync } from 'node:zlib';
import { createCanvas, loadImage } from '@napi-rs/canvas';
import { getDocument, type PDFDocumentProxy } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { fixturePdfPath } from '../../../test/fixtures/build-fixtures.js';
import { assemblePdf, pdfStream } from '../../../test/hand-built-pdf.js';
import { printHtml } from '../../../test/printed-page.js';
import { encodeCanvas } from '../../core/canvas-encoding.js';
import { drawingFromObjects } from '../text/drawing.js';
import { readDrawing } from '../text/operator-drawing.js';
import type { ImagePlacement } from '../layout/geometry.js';
import { encodeImage, encodePixels, IMAGE_LIMITS } from '../text/image-encoder.js';
import { loadPdfium, openPdfiumDocument } from './pdfium-text.js';

type Pdfium = Awaited<ReturnType<typeof loadPdfium>>;
let pdfium: Pdfium;

beforeAll(async () => {
  pdfium = await loadPdfium();
});

interface Extracted {
  placement: ImagePlacement;
  width: number;
  height: number;
  /** RGBA of the pixel at a fraction of the width and height. */
  at(fx: number, fy: number): number[];
}

async function decoded(placement: ImagePlacement, png: Uint8Array | undefined): Promise<Extracted> {
  expect(png).toBeDefined();
  const image = await loadImage(Buffer.from(png!));
  const canvas = createCanvas(image.width, image.height);
  const context = canvas.getContext('2d');
  context.drawImage(image, 0, 0);
  const data = context.getImageData(0, 0, image.width, image.height).data;
  return {
    placement,
    width: image.width,
    height: image.height,
    at(fx, fy) {
      const x = Math.min(image.width - 1, Math.floor(fx * image.width));
      const y = Math.min(image.height - 1, Math.floor(fy * image.height));
      return Array.from(data.slice((y * image.width + x) * 4, (y * image.width + x) * 4 + 4));
    },
  };
}

/** Page 1's images as the pdf.js path extracts them: operator list places, decoded objects. */
async function pdfjsImages(bytes: Uint8Array): Promise<Extracted[]> {
  const pdf: PDFDocumentProxy = await getDocument({ data: bytes.slice(), verbosity: 0 }).promise;
  try {
    const page = await pdf.getPage(1);
    const { images } = readDrawing(await page.getOperatorList(), page.getViewport({ scale: 1 }));
    return await Promise.all(images.map(async (placement) => decoded(placement, await encodeImage(page, placement))));
  } finally {
    await pdf.destroy();
  }
}

/** Page 1's images as PDFium reads them: places from its page objects, pixels rendered from them. */
async function pdfiumImages(bytes: Uint8Array): Promise<Extracted[]> {
  const pdf: PDFDocumentProxy = await getDocument({ data: bytes.slice(), verbosity: 0 }).promise;
  const document = openPdfiumDocument(pdfium, bytes);
  try {
    const viewport = (await pdf.getPage(1)).getViewport({ scale: 1 });
    const { drawing } = document.readText(1);
    if (!drawing) throw new Error('PDFium read no drawing');
    const { images } = drawingFromObjects(drawing.paths, drawing.images, viewport);
    const pixels = document.readImages(1, images.map((image) => image.objectId), IMAGE_LIMITS);
    return await Promise.all(images.map(async (placement) => decoded(placement, await encodePixels(pixels.get(placement.objectId)!))));
  } finally {
    document.close();
    await pdf.destroy();
  }
}

function expectSameImages(pdfium: Extracted[], pdfjs: Extracted[]): void {
  expect(pdfium.length).toBe(pdfjs.length);
  for (const [i, ours] of pdfium.entries()) {
    const theirs = pdfjs[i]!;
    for (const edge of ['x0', 'y0', 'x1', 'y1'] as const) expect(Math.abs(ours.placement[edge] - theirs.placement[edge])).toBeLessThanOrEqual(0.5);
    expect(Math.abs(ours.width - theirs.width)).toBeLessThanOrEqual(1);
    expect(Math.abs(ours.height - theirs.height)).toBeLessThanOrEqual(1);
    // away from edges inside the picture, where JPEG's ringing and the two scalers differ
    for (const [fx, fy] of [[0.25, 0.5], [0.75, 0.5], [0.25, 0.25], [0.75, 0.75]] as const) {
      const [a, b] = [ours.at(fx, fy), theirs.at(fx, fy)];
      for (let channel = 0; channel < 4; channel++) expect(Math.abs(a[channel]! - b[channel]!)).toBeLessThanOrEqual(12);
    }
  }
}

async function twoColour(kind: 'png' | 'jpeg', alpha = 1): Promise<string> {
  const canvas = createCanvas(40, 20);
  const context = canvas.getContext('2d');
  context.fillStyle = `rgba(255, 0, 0, ${alpha})`;
  context.fillRect(0, 0, 20, 20);
  context.fillStyle = `rgba(0, 0, 255, ${alpha})`;
  context.fillRect(20, 0, 20, 20);
  return `data:image/${kind};base64,${(kind === 'png' ? await encodeCanvas(canvas, 'png') : await encodeCanvas(canvas, 'jpeg', 95)).toString('base64')}`;
}

describe('images read with PDFium, against pdf.js', () => {
  it('gives printed pictures (opaque, half-transparent through a soft mask, JPEG) at the places, sizes and colours pdf.js gives them', async () => {
    const html = `<!doctype html><html><body style="margin: 0">
      <p>Three pictures follow.</p>
      <img src="${await twoColour('png')}" style="width: 160px; height: 80px; display: block">
      <img src="${await twoColour('png', 0.5)}" style="width: 160px; height: 80px; display: block">
      <img src="${await twoColour('jpeg')}" style="width: 160px; height: 80px; display: block">
    </body></html>`;
    const [bytes] = await printHtml([html]);
    const ours = await pdfiumImages(bytes!);
    expectSameImages(ours, await pdfjsImages(bytes!));
    expect(ours.map((image) => [image.width, image.height])).toEqual([[40, 20], [40, 20], [40, 20]]);
    const [red, , blue, alpha] = ours[1]!.at(0.25, 0.5);
    expect(red).toBeGreaterThan(200);
    expect(blue).toBeLessThan(50);
    expect(alpha).toBeGreaterThan(100);
    expect(alpha).toBeLessThan(160);
  });

  it.each(['image', 'scan-like'])('gives the images of the %s fixture as pdf.js does', async (name) => {
    const bytes = new Uint8Array(await readFile(fixturePdfPath(name)));
    const ours = await pdfiumImages(bytes);
    expect(ours.length).toBeGreaterThan(0);
    expectSameImages(ours, await pdfjsImages(bytes));
  });

  it('scales an image larger than the longest side down to it', async () => {
    const [width, height] = [5000, 100];
    const gray = deflateSync(Buffer.alloc(width * height, 128));
    const bytes = new Uint8Array(imagePdf(width, height, '/ColorSpace /DeviceGray /BitsPerComponent 8', gray));
    const [image] = await pdfiumImages(bytes);
    expect([image!.width, image!.height]).toEqual([2000, 40]);
    expect(image!.at(0.5, 0.5).slice(0, 3)).toEqual([128, 128, 128]);
  });

  it('reads no pixels of a 30000x30000 image, leaving it out instead of allocating a bitmap for it', () => {
    const side = 30_000;
    const bytes = new Uint8Array(imagePdf(side, side, '/ColorSpace /DeviceGray /BitsPerComponent 1', deflateSync(Buffer.alloc((side / 8) * side, 0xff))));
    const document = openPdfiumDocument(pdfium, bytes);
    try {
      const drawing = document.readText(1).drawing!;
      expect(drawing.images).toHaveLength(1);
      expect(document.readImages(1, [drawing.images[0]!.objectId], IMAGE_LIMITS).size).toBe(0);
    } finally {
      document.close();
    }
  });

  it('gives nothing for an object id that is not an image of the page', () => {
    const bytes = new Uint8Array(imagePdf(2, 2, '/ColorSpace /DeviceGray /BitsPerComponent 8', deflateSync(Buffer.alloc(4, 0))));
    const document = openPdfiumDocument(pdfium, bytes);
    try {
      document.readText(1);
      expect(document.readImages(1, ['pdfium-image-7', 'pdfium-image-0.3', 'img_p0_1'], IMAGE_LIMITS).size).toBe(0);
      expect(document.readImages(1, ['pdfium-image-0'], IMAGE_LIMITS).size).toBe(1);
    } finally {
      document.close();
    }
  });
});

/** A one-page PDF painting one image XObject over most of the page. */
function imagePdf(width: number, height: number, format: string, pixels: Buffer): Buffer {
  return assemblePdf(
    [
      '<< /Type /Catalog /Pages 2 0 R >>',
      '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
      '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /XObject << /Im1 5 0 R >> >> >>',
      pdfStream(Buffer.from('q 500 0 0 700 50 50 cm /Im1 Do Q')),
      pdfStream(pixels, ` /Type /XObject /Subtype /Image /Width ${width} /Height ${height} ${format} /Filter /FlateDecode`),
    ],
    '/Root 1 0 R',
  );
}
