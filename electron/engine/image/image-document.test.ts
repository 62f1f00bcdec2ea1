import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RED, jpegPage, pngPage, tiffPages } from '../../../test/page-images.js';
import { openDocumentSource } from '../open-document.js';
import type { RgbImage } from '../raster/rgb-image.js';

let folder: string;
beforeAll(async () => {
  folder = await mkdtemp(path.join(os.tmpdir(), 'folio-image-doc-'));
});
afterAll(async () => {
  if (folder) await rm(folder, { recursive: true, force: true });
});

async function saved(name: string, bytes: Uint8Array): Promise<string> {
  const file = path.join(folder, name);
  await writeFile(file, bytes);
  return file;
}

function isRed(image: RgbImage, x: number, y: number): boolean {
  const at = (y * image.width + x) * 3;
  const [r, g, b] = [image.data[at] ?? 0, image.data[at + 1] ?? 0, image.data[at + 2] ?? 0];
  return Math.abs(r - RED[0]) < 40 && Math.abs(g - RED[1]) < 40 && Math.abs(b - RED[2]) < 40;
}

describe('image files as documents', () => {
  it('opens a PNG as one page of its own pixels, with no PDF behind it', async () => {
    const source = await openDocumentSource(await saved('scan.png', pngPage(80, 50)));
    expect(source.info.pageCount).toBe(1);
    expect(source.pdf).toBeUndefined();
    const image = await source.storedImage?.(1);
    expect(image).toMatchObject({ width: 80, height: 50 });
    expect(image && isRed(image, 2, 2)).toBe(true);
  });

  it('turns a JPEG upright by its EXIF orientation (6: a quarter clockwise)', async () => {
    // named .png on purpose: the format is told from the bytes
    const source = await openDocumentSource(await saved('photo-misnamed.png', jpegPage(80, 50, 6)));
    const image = await source.storedImage?.(1);
    expect(image).toMatchObject({ width: 50, height: 80 });
    // the stored top-left corner is now the top-right one
    expect(image && isRed(image, 47, 2)).toBe(true);
    expect(image && isRed(image, 2, 2)).toBe(false);
  });

  it('opens a two-page TIFF as two pages, each turned by its own orientation tag', async () => {
    const file = await saved('fax.tif', tiffPages([{ width: 60, height: 40, orientation: 1 }, { width: 70, height: 30, orientation: 8 }]));
    const source = await openDocumentSource(file);
    expect(source.info.pageCount).toBe(2);
    const first = await source.storedImage?.(1);
    const second = await source.storedImage?.(2);
    expect(first).toMatchObject({ width: 60, height: 40 });
    expect(first && isRed(first, 1, 1)).toBe(true);
    // 8: a quarter anticlockwise, so the stored top-left lands bottom-left
    expect(second).toMatchObject({ width: 30, height: 70 });
    expect(second && isRed(second, 1, 68)).toBe(true);
  });

  it('renders an image page to the asked-for long side, keeping its shape', async () => {
    const source = await openDocumentSource(await saved('wide.png', pngPage(120, 60)));
    expect(await source.render(1, 60)).toMatchObject({ width: 60, height: 30 });
  });

  it('says which file is damaged when an image is cut short, without crashing the process', async () => {
    await expect(openDocumentSource(await saved('broken.png', pngPage(40, 40).subarray(0, 60)))).rejects.toThrow(/broken\.png: damaged PNG image that cannot be decoded/);
    await expect(openDocumentSource(await saved('broken.jpg', jpegPage(200, 200, 1).subarray(0, 400)))).rejects.toThrow(/broken\.jpg: damaged JPEG image/);
  });

  it('refuses a PNG whose header claims more pixels than a page can have, before decoding it', async () => {
    const png = Buffer.from(pngPage(40, 40));
    png.writeUInt32BE(100_000, 16);
    png.writeUInt32BE(100_000, 20);
    await expect(openDocumentSource(await saved('huge.png', png))).rejects.toThrow(/huge\.png: too large to read as a page \(it has 10000 megapixels, more than the 150 a page may have\); scale it down first/);
  });

  it('names the formats it reads when given an image in another one', async () => {
    const gif = new Uint8Array([...Buffer.from('GIF89a', 'latin1'), 1, 0, 1, 0, 0, 0, 0]);
    await expect(openDocumentSource(await saved('anim.gif', gif))).rejects.toThrow(/anim\.gif: a GIF image, which Folio does not read; save it as PNG, JPEG or TIFF/);
  });
});
