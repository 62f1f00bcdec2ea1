/**
 * A PDF's text read with PDFium compiled to WebAssembly (`@embedpdf/pdfium`): every character's
 * code, origin, advance, matrix and font, one pass over the page. It reads text in about half the
 * CPU time pdf.js's text content takes on real papers (docs/text-engine-speed.md). The module is
 * loaded once per process; each document lives in PDFium's heap until `close`.
 */

import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { init, type WrappedPdfiumModule } from '@embedpdf/pdfium';
import { charItems, type CharTextContent, type PageChar } from '../text/char-items.js';
import { readFontFacts, type FontFacts } from '../text/font-facts.js';
import type { TextStyleLike } from '../text/text-runs.js';

/** FPDF_GetLastError's codes that mean a password is missing or wrong. */
const PASSWORD_ERROR = 4;
/** FPDFFont_GetFlags bits (PDF 32000 table 121). */
const FIXED_PITCH = 1;
const SERIF = 2;
const DEFAULT_ASCENT = 0.8;
const DEFAULT_DESCENT = -0.2;
/** Size given to FPDFFont_GetAscent so the answer reads as a fraction of the em. */
const METRIC_SIZE = 1000;
const FONT_NAME_BYTES = 256;

export class PdfiumOpenError extends Error {
  constructor(message: string, readonly passwordError: boolean) {
    super(message);
    this.name = 'PdfiumOpenError';
  }
}

/**
 * The module's memory views (exported by this build, not in its typings). Read through the module
 * on every use: a heap that grows replaces them.
 */
interface PdfiumHeap {
  HEAPU8: Uint8Array;
  HEAPF32: Float32Array;
  HEAPF64: Float64Array;
  UTF8ToString(pointer: number, maxBytes?: number): string;
  wasmExports: { malloc(size: number): number; free(pointer: number): void };
}

function heapOf(pdfium: WrappedPdfiumModule): PdfiumHeap {
  return pdfium.pdfium as unknown as PdfiumHeap;
}

let loading: Promise<WrappedPdfiumModule> | undefined;

/** PDFium's module, compiled and initialised on first use. */
export function loadPdfium(): Promise<WrappedPdfiumModule> {
  loading ??= (async () => {
    const wasm = await readFile(createRequire(import.meta.url).resolve('@embedpdf/pdfium/pdfium.wasm'));
    const module = await init({ wasmBinary: new Uint8Array(wasm.buffer, wasm.byteOffset, wasm.byteLength) } as Parameters<typeof init>[0]);
    module.PDFiumExt_Init();
    return module;
  })();
  loading.catch(() => {
    loading = undefined;
  });
  return loading;
}

export interface PdfiumDocument {
  readonly pageCount: number;
  /** Page `pageNumber` (from 1): its characters as pdf.js-like text items with their fonts. */
  readText(pageNumber: number): CharTextContent;
  /** Frees the document and its bytes in PDFium's heap; the document cannot be read after. */
  close(): void;
}

/**
 * Opens `bytes` (copied into PDFium's heap) with `password`. Throws `PdfiumOpenError` when PDFium
 * cannot open it (its heap is full, the file is beyond repair, the password does not open it).
 */
export function openPdfiumDocument(pdfium: WrappedPdfiumModule, bytes: Uint8Array, password = ''): PdfiumDocument {
  const heap = heapOf(pdfium);
  const data = heap.wasmExports.malloc(bytes.length);
  if (!data) throw new PdfiumOpenError(`PDFium has no room for a ${bytes.length}-byte file`, false);
  heap.HEAPU8.set(bytes, data);
  const doc = pdfium.FPDF_LoadMemDocument(data, bytes.length, password);
  if (!doc) {
    const code = pdfium.FPDF_GetLastError();
    heap.wasmExports.free(data);
    throw new PdfiumOpenError(`PDFium cannot open the file (error ${code})`, code === PASSWORD_ERROR);
  }
  let open = true;
  return {
    pageCount: pdfium.FPDF_GetPageCount(doc),
    readText(pageNumber) {
      if (!open) throw new Error('PDFium document read after it was closed');
      return readPageText(pdfium, doc, pageNumber);
    },
    close() {
      if (!open) return;
      open = false;
      pdfium.FPDF_CloseDocument(doc);
      heap.wasmExports.free(data);
    },
  };
}

function readPageText(pdfium: WrappedPdfiumModule, doc: number, pageNumber: number): CharTextContent {
  const heap = heapOf(pdfium);
  const page = pdfium.FPDF_LoadPage(doc, pageNumber - 1);
  if (!page) throw new Error(`PDFium cannot load page ${pageNumber}`);
  const textPage = pdfium.FPDFText_LoadPage(page);
  // 6 floats of matrix or 4 of box, then 2 doubles of origin, then a font name.
  const scratch = heap.wasmExports.malloc(64 + FONT_NAME_BYTES);
  try {
    if (!textPage) throw new Error(`PDFium cannot read the text of page ${pageNumber}`);
    const fontKeys = new Map<number, string>();
    const styles: Record<string, TextStyleLike> = {};
    const fonts = new Map<string, FontFacts>();
    const chars: PageChar[] = [];
    const count = pdfium.FPDFText_CountChars(textPage);
    for (let index = 0; index < count; index++) {
      const code = pdfium.FPDFText_GetUnicode(textPage, index);
      const generated = pdfium.FPDFText_IsGenerated(textPage, index) === 1;
      // PDFium marks a hyphen that ends a line (its word goes on) as U+0002; pdf.js gives it as `-`.
      const text = code === 2 && pdfium.FPDFText_IsHyphen(textPage, index) === 1 ? '-' : charText(code);
      if (generated || text === '\r' || text === '\n') {
        chars.push({ text, generated: true, font: '', a: 0, b: 0, c: 0, d: 0, x: 0, y: 0, advance: 0 });
        continue;
      }
      const textObject = pdfium.FPDFText_GetTextObject(textPage, index);
      const fontHandle = textObject ? pdfium.FPDFTextObj_GetFont(textObject) : 0;
      let font = fontKeys.get(fontHandle);
      if (font === undefined) {
        font = `pdfium-font-${fontKeys.size}`;
        fontKeys.set(fontHandle, font);
        const described = describeFont(pdfium, fontHandle, scratch);
        styles[font] = described.style;
        fonts.set(font, described.facts);
      }
      const size = pdfium.FPDFText_GetFontSize(textPage, index);
      pdfium.FPDFText_GetMatrix(textPage, index, scratch);
      const m = heap.HEAPF32.subarray(scratch >> 2, (scratch >> 2) + 6);
      const a = size * (m[0] ?? 1);
      const b = size * (m[1] ?? 0);
      const c = size * (m[2] ?? 0);
      const d = size * (m[3] ?? 1);
      pdfium.FPDFText_GetCharOrigin(textPage, index, scratch + 32, scratch + 40);
      const x = heap.HEAPF64[(scratch + 32) >> 3] ?? 0;
      const y = heap.HEAPF64[(scratch + 40) >> 3] ?? 0;
      // The loose box spans the advance (FS_RECTF: left, top, right, bottom); its far corner along the baseline ends it.
      pdfium.FPDFText_GetLooseCharBox(textPage, index, scratch);
      const box = heap.HEAPF32.subarray(scratch >> 2, (scratch >> 2) + 4);
      const run = Math.hypot(a, b) || 1;
      const ux = a / run;
      const uy = b / run;
      let advance = 0;
      for (const bx of [box[0] ?? x, box[2] ?? x]) for (const by of [box[1] ?? y, box[3] ?? y]) advance = Math.max(advance, (bx - x) * ux + (by - y) * uy);
      chars.push({ text, generated: false, font, a, b, c, d, x, y, advance });
    }
    return charItems(chars, styles, fonts);
  } finally {
    heap.wasmExports.free(scratch);
    if (textPage) pdfium.FPDFText_ClosePage(textPage);
    pdfium.FPDF_ClosePage(page);
  }
}

/** A character as pdf.js would give it: ligatures split (its NFKC of them), unmapped codes as U+FFFD. */
function charText(code: number): string {
  if (code === 0 || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) return '\uFFFD';
  const text = String.fromCodePoint(code);
  return code >= 0xfb00 && code <= 0xfb06 ? text.normalize('NFKC') : text;
}

function describeFont(pdfium: WrappedPdfiumModule, font: number, scratch: number): { style: TextStyleLike; facts: FontFacts } {
  if (!font) return { style: { fontFamily: 'sans-serif', ascent: DEFAULT_ASCENT, descent: DEFAULT_DESCENT }, facts: readFontFacts(undefined, 'sans-serif') };
  const heap = heapOf(pdfium);
  const nameAt = scratch + 64;
  const length = pdfium.FPDFFont_GetBaseFontName(font, nameAt, FONT_NAME_BYTES);
  const name = length > 1 ? heap.UTF8ToString(nameAt, Math.min(length, FONT_NAME_BYTES) - 1) : '';
  const flags = pdfium.FPDFFont_GetFlags(font);
  const fontFamily = flags > 0 && flags & FIXED_PITCH ? 'monospace' : flags > 0 && flags & SERIF ? 'serif' : 'sans-serif';
  const ascent = pdfium.FPDFFont_GetAscent(font, METRIC_SIZE, scratch) ? (heap.HEAPF32[scratch >> 2] ?? 0) / METRIC_SIZE : 0;
  const descent = pdfium.FPDFFont_GetDescent(font, METRIC_SIZE, scratch) ? (heap.HEAPF32[scratch >> 2] ?? 0) / METRIC_SIZE : 0;
  // Bold and italic by name, as pdf.js decides them: PDFium's weight falls back to a guess from
  // the stem width, and the descriptor's flags are often missing or wrong in embedded subsets.
  const facts = readFontFacts({ name: name || undefined, isMonospace: flags > 0 && (flags & FIXED_PITCH) !== 0 }, fontFamily);
  return {
    style: { fontFamily, ascent: ascent > 0 && ascent < 2 ? ascent : DEFAULT_ASCENT, descent: descent < 0 && descent > -1 ? descent : DEFAULT_DESCENT },
    facts,
  };
}
