/**
 * Builds the PDFs of Folio's own benchmark set (test/bench-set/) from their sources: each PDF a test
 * file names is made from `sources/<stem>.html` printed by Chromium, or is the checked-in
 * `sources/tex/<stem>.pdf` that pdflatex made (CI has no TeX). Stems starting `scan-` are printed,
 * rendered at a scanner's 200 dpi and degraded (skew, blur, noise) into an image-only PDF; `hand-`
 * stems (handwriting-like notes) become image-only PDFs without the scanner's defects. Written to
 * `<part>/pdfs/` (ignored by git), again only when the source or this builder is newer.
 */

import { copyFile, mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createCanvas, ImageData } from '@napi-rs/canvas';
import { PDFDocument } from 'pdf-lib';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { encodeCanvas } from '../../electron/core/canvas-encoding.js';
import { renderPage } from '../../electron/engine/raster/page-raster.js';
import { launchPdfPrinter, type PdfPrinter } from '../../test/fixtures/print-pdf.js';
import { degrade, type GreyImage, type ScanDefects } from '../../test/scans/degrade.js';
import { REPO_ROOT } from './bench-set.js';

export const BENCH_SET_DIR = path.join(REPO_ROOT, 'test/bench-set');
/** One part, all tuned on (the held-out set is the real-document benchmark's, tools/bench/real-docs/). */
export const BENCH_SET_PARTS = ['tune'] as const;

const SOURCES = path.join(BENCH_SET_DIR, 'sources');
/** The builder's source, not its compiled copy: every build rewrites that. */
const BUILDER = path.join(REPO_ROOT, 'tools/bench/bench-set-build.ts');
const SCAN: ScanDefects = { skewDegrees: 0.6, blurPasses: 1, noise: 6, seed: 1 };
const PHOTO: ScanDefects = { skewDegrees: 0, blurPasses: 1, noise: 3, seed: 1 };

/** Makes whatever PDF of the set is missing or older than its source; returns the PDFs made. */
export async function buildBenchSet(): Promise<string[]> {
  const made: string[] = [];
  let printer: PdfPrinter | undefined;
  const scratch = await mkdtemp(path.join(os.tmpdir(), 'folio-bench-set-'));
  try {
    for (const part of BENCH_SET_PARTS) {
      const partDir = path.join(BENCH_SET_DIR, part);
      for (const pdf of await pdfsNamed(partDir)) {
        const out = path.join(partDir, 'pdfs', pdf);
        const stem = path.basename(pdf, '.pdf');
        const latex = path.join(SOURCES, 'tex', `${stem}.pdf`);
        const html = path.join(SOURCES, `${stem}.html`);
        const source = (await mtime(latex)) > 0 ? latex : html;
        if ((await mtime(source)) === 0) throw new Error(`${part}: ${pdf} has no source; add ${html} or ${latex}.`);
        if ((await mtime(out)) >= Math.max(await mtime(source), await mtime(BUILDER))) continue;
        await mkdir(path.dirname(out), { recursive: true });
        if (source === latex) {
          await copyFile(latex, out);
        } else {
          printer ??= await launchPdfPrinter();
          const printed = path.join(scratch, `${stem}.pdf`);
          await printer.printFile(html, printed);
          if (stem.startsWith('scan-')) await writeFile(out, await imageOnlyPdf(printed, 200, SCAN));
          else if (stem.startsWith('hand-')) await writeFile(out, await imageOnlyPdf(printed, 150, PHOTO));
          else await copyFile(printed, out);
        }
        made.push(`${part}/${pdf}`);
      }
    }
  } finally {
    await printer?.close();
    await rm(scratch, { recursive: true, force: true });
  }
  return made;
}

/** Every `pdf` the part's test files name. */
async function pdfsNamed(partDir: string): Promise<string[]> {
  const names = new Set<string>();
  for (const file of (await readdir(partDir)).filter((f) => f.endsWith('.jsonl'))) {
    for (const line of (await readFile(path.join(partDir, file), 'utf8')).split('\n')) {
      if (line.trim()) names.add((JSON.parse(line) as { pdf: string }).pdf);
    }
  }
  return [...names].sort();
}

async function mtime(file: string): Promise<number> {
  return stat(file).then((s) => s.mtimeMs, () => 0);
}

/** Each page rendered at `dpi`, degraded, JPEG-compressed and placed alone on a page of the same size: no text layer. */
async function imageOnlyPdf(source: string, dpi: number, defects: ScanDefects): Promise<Uint8Array> {
  const pdf = await getDocument({ data: new Uint8Array(await readFile(source)), verbosity: 0 }).promise;
  try {
    const out = await PDFDocument.create();
    for (let n = 1; n <= pdf.numPages; n++) {
      const page = await pdf.getPage(n);
      const { width, height } = page.getViewport({ scale: 1 });
      const grey = degrade(await renderPage(page, (Math.max(width, height) * dpi) / 72), { ...defects, seed: defects.seed + n });
      out.addPage([width, height]).drawImage(await out.embedJpg(await jpeg(grey)), { x: 0, y: 0, width, height });
    }
    return await out.save();
  } finally {
    await pdf.destroy();
  }
}

async function jpeg(image: GreyImage): Promise<Buffer> {
  const rgba = new Uint8ClampedArray(image.width * image.height * 4);
  for (let i = 0; i < image.data.length; i++) {
    rgba.fill(image.data[i]!, 4 * i, 4 * i + 3);
    rgba[4 * i + 3] = 255;
  }
  const canvas = createCanvas(image.width, image.height);
  canvas.getContext('2d').putImageData(new ImageData(rgba, image.width, image.height), 0, 0);
  return encodeCanvas(canvas, 'jpeg', 85);
}
