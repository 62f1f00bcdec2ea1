import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { missingPrograms, needs, PROGRAMS } from '../../../test/environment.js';
import { launchPdfPrinter } from '../../../test/fixtures/print-pdf.js';
import { textEngineMarkdown } from '../../../test/text-engine-markdown.js';

const TESSERACT = '/usr/bin/tesseract';
const PDFTOPPM = '/usr/bin/pdftoppm';
const run = promisify(execFile);
let folder: string;
let markdown: string;

const LEFT = [
  'The harbour works began in the spring, after the council approved the budget for a new breakwater and the dredging of the inner basin.',
  'Engineers placed the first stones in April, and the contractor expects to finish before the autumn storms.',
];
const RIGHT = [
  'Meanwhile the market hall on the quay will close for repairs in September, because its roof leaks in several places.',
  'Traders will move to temporary stalls on the square, and the council promises that rents will not rise.',
];
const PAGE = `<!doctype html><html><head><style>
body { font: 15px serif; margin: 40px; } .columns { column-count: 2; column-gap: 40px; } p { margin: 0 0 12px; }
</style></head><body><h1>Town Gazette</h1><div class="columns">${[...LEFT, ...RIGHT].map((p) => `<p>${p}</p>`).join('')}</div></body></html>`;

/** A scan with Tesseract's invisible text layer over it (render mode 3, GlyphLessFont): print, rasterise, OCR. */
async function scannedWithTextLayer(): Promise<string> {
  const printer = await launchPdfPrinter();
  try {
    await printer.printHtml(PAGE, path.join(folder, 'printed.pdf'));
  } finally {
    await printer.close();
  }
  await run(PDFTOPPM, ['-r', '200', '-png', '-singlefile', path.join(folder, 'printed.pdf'), path.join(folder, 'scan')]);
  await run(TESSERACT, [path.join(folder, 'scan.png'), path.join(folder, 'ocr'), 'pdf']);
  return path.join(folder, 'ocr.pdf');
}

describe('a two-column scan with an OCR text layer', needs(PROGRAMS, missingPrograms({ [TESSERACT]: 'tesseract-ocr', [PDFTOPPM]: 'poppler-utils' })), () => {
  beforeAll(async () => {
    folder = await mkdtemp(path.join(os.tmpdir(), 'folio-ocr-layer-'));
    markdown = await textEngineMarkdown(await scannedWithTextLayer());
  }, 120_000);
  afterAll(async () => {
    await rm(folder, { recursive: true, force: true });
  });

  it('reads the left column, then the right, as whole paragraphs', () => {
    const paragraphs = markdown.split('\n\n');
    expect(paragraphs).toEqual([...paragraphs].filter((p) => !p.startsWith('![')));
    expect(paragraphs.slice(-4)).toEqual([...LEFT, ...RIGHT]);
  });

  it('reads the invisible text as prose, not as code', () => {
    expect(markdown).not.toContain('`');
  });
});
