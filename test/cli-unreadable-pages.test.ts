/**
 * Pages that give nothing must say so: a page whose content pdf.js cannot parse, a document with no
 * text at all, a page pdf.js cannot even find, a TIFF whose directory is empty and a page holding an
 * image too large to draw, each with a true and specific message and exit status 1.
 */

import { existsSync } from 'node:fs';
import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { deflateSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot, runFolio } from './folio-process.js';
import { assemblePdf, pdfStream, plainPdf } from './hand-built-pdf.js';

let folder: string;

beforeAll(async () => {
  if (!existsSync(path.join(repoRoot, 'dist/electron/cli/main.js'))) throw new Error('The CLI is not built; run "npm run build" before these tests.');
  folder = await mkdtemp(path.join(os.tmpdir(), 'folio-unreadable-'));
});

afterAll(async () => {
  if (folder) await rm(folder, { recursive: true, force: true });
});

const NESTING = 200_000;

describe('folio convert on pages that give nothing', () => {
  const hostile = `${'['.repeat(NESTING)}${']'.repeat(NESTING)} pop BT /F1 24 Tf 72 700 Td (Hidden words) Tj ET`;

  it('reads with PDFium, in the text engine, a page whose content pdf.js cannot parse', async () => {
    const file = path.join(folder, 'nested-text.pdf');
    await writeFile(file, plainPdf(['BT /F1 24 Tf 72 700 Td (Readable words) Tj ET', hostile]));
    const out = path.join(folder, 'nested-text-out');
    const run = await runFolio(['convert', file, '-o', out]);
    expect(run.code).toBe(0);
    expect(await readFile(path.join(out, 'nested-text.md'), 'utf8')).toBe('Readable words\n\nHidden words\n');
  });

  it('fails a page whose content pdf.js cannot parse, for an engine that renders it with pdf.js, saying why, and marks it in the .md beside the pages that converted', async () => {
    const file = path.join(folder, 'nested.pdf');
    await writeFile(file, plainPdf(['BT /F1 24 Tf 72 700 Td (Readable words) Tj ET', hostile]));
    const out = path.join(folder, 'nested-out');
    const run = await runFolio(['convert', file, '-o', out, '--engine', 'lite']);
    expect(run.code).toBe(1);
    const reason = "pdf.js could not read the page's content (Maximum call stack size exceeded), so nothing came out of it; another PDF reader may read its text.";
    expect(run.stderr).toContain(`${file}: page 2: ${reason}\n`);
    expect(await readFile(path.join(out, 'nested.md'), 'utf8')).toBe(`Readable words\n\n> **Page 2 could not be converted:** ${reason}\n`);
  });

  it('reports a document with no text on any page as a problem and writes no empty file', async () => {
    const file = path.join(folder, 'blank.pdf');
    await writeFile(file, plainPdf(['', '']));
    const out = path.join(folder, 'blank-out');
    const run = await runFolio(['convert', file, '-o', out, '--engine', 'text']);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`${file}: page 1: review: no text came out of it; check that nothing is on it.\n`);
    expect(run.stderr).toContain(`${file}: no text came out of any of the 2 pages read, so nothing was written; if it is a scan, read it with --engine lite or vlm.\n`);
    expect(await readdir(out)).toEqual([]);
  });

  it('says a single damaged page cannot be read without promising other pages that do not exist', async () => {
    const file = path.join(folder, 'bad-kids.pdf');
    const objects = [
      '<< /Type /Catalog /Pages 2 0 R >>',
      '<< /Type /Pages /Kids 3 0 R /Count 1 >>',
      '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R >>',
      pdfStream(Buffer.from('BT ET')),
    ];
    await writeFile(file, assemblePdf(objects, '/Root 1 0 R'));
    const run = await runFolio(['convert', file, '-o', path.join(folder, 'bad-kids-out')]);
    expect(run.code).toBe(1);
    expect(run.stderr).not.toMatch(/other pages/);
    expect(run.stderr).toContain(`${file}: no page could be converted, so nothing was written.\n`);
  });

  it('says a TIFF whose only directory is empty holds no image, instead of an internal error', async () => {
    const file = path.join(folder, 'empty-directory.tif');
    const tiff = Buffer.alloc(14);
    tiff.write('II', 0, 'latin1');
    tiff.writeUInt16LE(42, 2);
    tiff.writeUInt32LE(8, 4); // the first directory, right after the header: no entries, no next one
    await writeFile(file, tiff);
    const run = await runFolio(['convert', file, '-o', path.join(folder, 'tiff-out')]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`${file}: the TIFF file holds no image.\n`);
    expect(run.stderr).not.toMatch(/Unexpected error/);
  });

  it('refuses a PDF page holding a 30000x30000 image with the limit image files get, instead of an internal error', async () => {
    const file = path.join(folder, 'huge-image.pdf');
    const side = 30_000;
    // one bit per pixel, all white: 112 MB unpacked, 110 KB deflated
    const pixels = deflateSync(Buffer.alloc((side / 8) * side, 0xff));
    const objects = [
      '<< /Type /Catalog /Pages 2 0 R >>',
      '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
      '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /XObject << /Im1 5 0 R >> >> >>',
      pdfStream(Buffer.from('q 500 0 0 700 50 50 cm /Im1 Do Q')),
      pdfStream(pixels, ` /Type /XObject /Subtype /Image /Width ${side} /Height ${side} /ColorSpace /DeviceGray /BitsPerComponent 1 /Filter /FlateDecode`),
    ];
    await writeFile(file, assemblePdf(objects, '/Root 1 0 R'));
    const run = await runFolio(['convert', file, '-o', path.join(folder, 'huge-out')]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(
      `${file}: page 1: page 1 holds a 30000x30000 image (900 megapixels), more than the 150 a page may have, so it cannot be drawn to be read; its text layer, if it has one, reads with --engine text.\n`,
    );
    expect(run.stderr).not.toMatch(/Unexpected error/);
  });
});
