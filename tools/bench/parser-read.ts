/**
 * How fast each PDF parser reads what the text engine needs, without Folio's layout: pdf.js as the
 * engine opens it (text content alone, and with the operator list the engine reads drawings from),
 * PDFium compiled to WebAssembly (`@embedpdf/pdfium`: every character's code, box, font size and
 * font; every page object's type and bounds, path segments), and `pdftotext -layout`. Rounds
 * alternate the readers; per document the least CPU and the least wall time are kept.
 *
 *   npm install --prefix /tmp/pdfium @embedpdf/pdfium@2.15.1     # not a dependency of Folio
 *   node dist/tools/bench/parser-read.js --pdfium /tmp/pdfium/node_modules/@embedpdf/pdfium [--rounds 3] FILE...
 *
 * Without --pdfium only pdf.js and pdftotext are measured. A benchmark prints; it asserts nothing.
 */

import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { AnnotationMode } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { closePdf, openPdf } from '../../electron/engine/pdf/open-pdf.js';
import { pdftotextCpuMs } from './pdftotext-run.js';

const run = promisify(execFile);

/** The few PDFium functions read here (the package's own types are not a dependency of Folio). */
interface Pdfium {
  pdfium: { _malloc(size: number): number; _free(pointer: number): void; HEAPU8: Uint8Array };
  PDFiumExt_Init(): void;
  FPDF_LoadMemDocument(data: number, size: number, password: string): number;
  FPDF_GetPageCount(doc: number): number;
  FPDF_LoadPage(doc: number, index: number): number;
  FPDF_ClosePage(page: number): void;
  FPDF_CloseDocument(doc: number): void;
  FPDFText_LoadPage(page: number): number;
  FPDFText_ClosePage(text: number): void;
  FPDFText_CountChars(text: number): number;
  FPDFText_GetUnicode(text: number, index: number): number;
  FPDFText_GetCharBox(text: number, index: number, left: number, right: number, bottom: number, top: number): boolean;
  FPDFText_GetFontSize(text: number, index: number): number;
  FPDFText_GetTextObject(text: number, index: number): number;
  FPDFText_GetFontInfo(text: number, index: number, buffer: number, length: number, flags: number): number;
  FPDFText_GetMatrix(text: number, index: number, matrix: number): boolean;
  FPDFPage_CountObjects(page: number): number;
  FPDFPage_GetObject(page: number, index: number): number;
  FPDFPageObj_GetType(object: number): number;
  FPDFPageObj_GetBounds(object: number, left: number, bottom: number, right: number, top: number): boolean;
  FPDFPageObj_GetStrokeWidth(object: number, width: number): boolean;
  FPDFPath_CountSegments(path: number): number;
  FPDFPath_GetPathSegment(path: number, index: number): number;
  FPDFPath_GetDrawMode(path: number, fillMode: number, stroke: number): boolean;
  FPDFPathSegment_GetPoint(segment: number, x: number, y: number): boolean;
  FPDFPathSegment_GetType(segment: number): number;
}

const PATH_OBJECT = 2;
const IMAGE_OBJECT = 3;
const FORM_OBJECT = 5;

type Reader = (file: string) => Promise<number>;

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const option = (name: string) => {
    const at = args.indexOf(name);
    return at < 0 ? undefined : args.splice(at, 2)[1];
  };
  const pdfiumModule = option('--pdfium');
  const rounds = Number(option('--rounds') ?? 3);
  if (args.length === 0) throw new Error('Give the PDFs to read: parser-read.js [--pdfium DIR] [--rounds N] FILE...');
  const pages = new Map<string, number>();
  for (const file of args) pages.set(file, await pageCount(file));

  const readers = new Map<string, Reader>([
    ['pdf.js text content', (file) => readWithPdfjs(file, false)],
    ['pdf.js text + operator list', (file) => readWithPdfjs(file, true)],
  ]);
  if (pdfiumModule) {
    const pdfium = await loadPdfium(pdfiumModule);
    readers.set('PDFium chars + objects', async (file) => readWithPdfium(pdfium, file));
  }
  readers.set('pdftotext -layout', async (file) => {
    await run('pdftotext', ['-layout', '-q', file, '-'], { maxBuffer: 256 * 1024 * 1024 });
    return 0;
  });

  const best = new Map<string, Map<string, { wallMs: number; cpuMs: number }>>();
  for (let round = 0; round <= rounds; round++) {
    for (const [name, read] of readers) {
      for (const file of args) {
        const cpu = process.cpuUsage();
        const started = performance.now();
        await read(file);
        const wallMs = performance.now() - started;
        const used = process.cpuUsage(cpu);
        // pdftotext's CPU is its own process's, read in a pass of its own
        const cpuMs = name === 'pdftotext -layout' ? await pdftotextCpuMs(file) : (used.user + used.system) / 1000;
        if (round === 0) continue; // warm-up: JIT, WebAssembly compilation, file cache
        const byFile = best.get(name) ?? new Map<string, { wallMs: number; cpuMs: number }>();
        const prior = byFile.get(file);
        byFile.set(file, { wallMs: Math.min(wallMs, prior?.wallMs ?? Infinity), cpuMs: Math.min(cpuMs, prior?.cpuMs ?? Infinity) });
        best.set(name, byFile);
      }
    }
  }

  const totalPages = [...pages.values()].reduce((a, b) => a + b, 0);
  const perPage = (name: string, key: 'wallMs' | 'cpuMs') => [...best.get(name)!.values()].reduce((n, t) => n + t[key], 0) / totalPages;
  const reference = { wall: perPage('pdftotext -layout', 'wallMs'), cpu: perPage('pdftotext -layout', 'cpuMs') };
  console.log(`${args.length} documents, ${totalPages} pages; least of ${rounds} rounds after a warm-up\n`);
  console.log(row('reader', 'wall ms/p', 'x pdftotext', 'CPU ms/p', 'x pdftotext'));
  for (const name of readers.keys()) {
    const wall = perPage(name, 'wallMs');
    const cpu = perPage(name, 'cpuMs');
    console.log(row(name, wall.toFixed(2), `${(wall / reference.wall).toFixed(2)}x`, cpu.toFixed(2), `${(cpu / reference.cpu).toFixed(2)}x`));
  }
}

async function readWithPdfjs(file: string, operatorList: boolean): Promise<number> {
  const { pdf } = await openPdf(file);
  let items = 0;
  try {
    for (let n = 1; n <= pdf.numPages; n++) {
      const page = await pdf.getPage(n);
      if (operatorList) await page.getOperatorList({ annotationMode: AnnotationMode.DISABLE });
      items += (await page.getTextContent()).items.length;
      page.cleanup();
    }
  } finally {
    await closePdf(pdf);
  }
  return items;
}

async function loadPdfium(moduleDir: string): Promise<Pdfium> {
  const { init } = (await import(path.resolve(moduleDir, 'dist/index.js'))) as { init(options: { wasmBinary: Uint8Array }): Promise<Pdfium> };
  const pdfium = await init({ wasmBinary: await readFile(path.resolve(moduleDir, 'dist/pdfium.wasm')) });
  pdfium.PDFiumExt_Init();
  return pdfium;
}

/** Everything the text engine reads from a page: characters with boxes, sizes and fonts; paths and images with bounds. */
async function readWithPdfium(m: Pdfium, file: string): Promise<number> {
  const bytes = await readFile(file);
  const heap = m.pdfium;
  const data = heap._malloc(bytes.length);
  const scratch = heap._malloc(64);
  const fontName = heap._malloc(512);
  heap.HEAPU8.set(bytes, data);
  let read = 0;
  const doc = m.FPDF_LoadMemDocument(data, bytes.length, '');
  try {
    if (!doc) return 0;
    for (let n = 0; n < m.FPDF_GetPageCount(doc); n++) {
      const page = m.FPDF_LoadPage(doc, n);
      const text = m.FPDFText_LoadPage(page);
      let textObject = 0;
      for (let c = 0, count = m.FPDFText_CountChars(text); c < count; c++) {
        read += m.FPDFText_GetUnicode(text, c);
        m.FPDFText_GetCharBox(text, c, scratch, scratch + 8, scratch + 16, scratch + 24);
        read += m.FPDFText_GetFontSize(text, c);
        const object = m.FPDFText_GetTextObject(text, c);
        if (object !== textObject) {
          textObject = object;
          m.FPDFText_GetFontInfo(text, c, fontName, 512, scratch + 32);
          m.FPDFText_GetMatrix(text, c, scratch);
        }
      }
      for (let o = 0, count = m.FPDFPage_CountObjects(page); o < count; o++) {
        const object = m.FPDFPage_GetObject(page, o);
        const type = m.FPDFPageObj_GetType(object);
        if (type === PATH_OBJECT || type === IMAGE_OBJECT || type === FORM_OBJECT) m.FPDFPageObj_GetBounds(object, scratch, scratch + 4, scratch + 8, scratch + 12);
        if (type !== PATH_OBJECT) continue;
        m.FPDFPageObj_GetStrokeWidth(object, scratch);
        m.FPDFPath_GetDrawMode(object, scratch, scratch + 4);
        for (let s = 0, segments = m.FPDFPath_CountSegments(object); s < segments; s++) {
          const segment = m.FPDFPath_GetPathSegment(object, s);
          m.FPDFPathSegment_GetPoint(segment, scratch, scratch + 4);
          read += m.FPDFPathSegment_GetType(segment);
        }
      }
      m.FPDFText_ClosePage(text);
      m.FPDF_ClosePage(page);
    }
  } finally {
    if (doc) m.FPDF_CloseDocument(doc);
    heap._free(data);
    heap._free(scratch);
    heap._free(fontName);
  }
  return read;
}

async function pageCount(file: string): Promise<number> {
  const { stdout } = await run('pdfinfo', [file]);
  const match = /^Pages:\s+(\d+)/m.exec(stdout);
  if (!match) throw new Error(`${file}: pdfinfo reports no page count.`);
  return Number(match[1]);
}

function row(...cells: string[]): string {
  return cells.map((c, i) => (i === 0 ? c.padEnd(30) : c.padStart(12))).join(' ');
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : String(error));
  process.exitCode = 1;
});
