/**
 * A PDF's text read with PDFium compiled to WebAssembly (`@embedpdf/pdfium`): every character's
 * code, origin, advance, matrix and font, one pass over the page. It reads text in about half the
 * CPU time pdf.js's text content takes on real papers (docs/text-engine-speed.md). The module is
 * loaded once per process; each document lives in PDFium's heap until `close`.
 */

import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { init, type WrappedPdfiumModule } from '@embedpdf/pdfium';
import { OBJECT_SCRATCH_BYTES, readPageObjects, type ObjectExports, type ObjectHeap } from './pdfium-drawing.js';
import { LINK_SCRATCH_BYTES, readPageLinks, type LinkExports } from './pdfium-links.js';
import { blankFieldReader, type BlankFieldReader } from './pdfium-form-fields.js';
import { overlaidText } from '../text/link-text.js';
import { IMAGE_SCRATCH_BYTES, readImagePixels, type ImageExports, type ImageLimits, type ImagePixels } from './pdfium-images.js';
import { charItems, composeAccentChars, type CharTextContent, type PageChar } from '../text/char-items.js';
import { readFontFacts, type FontFacts } from '../text/font-facts.js';
import { isTexCopyright, texSlotText, texVariantByWidth } from '../text/tex-encodings.js';
import type { TextStyleLike } from '../text/text-runs.js';
import { writtenNumber, type PageGeometry } from './page-geometry.js';

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
const PAGES_PER_REOPEN = 100;
/** Different letters seen, of one advance, before a font without the fixed-pitch flag counts as monospace. */
const MONOSPACE_EVIDENCE = 3;
const SAME_WIDTH = 0.01;
const MONOSPACE_SHARE = 0.85;
const WIDTH_SAMPLES = 200;
const PROPORTIONAL_SCRIPT = /[\p{Script=Latin}\p{Script=Greek}\p{Script=Cyrillic}]/u;

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
interface PdfiumHeap extends ObjectHeap {
  HEAPU8: Uint8Array;
  HEAPF64: Float64Array;
  wasmExports: { malloc(size: number): number; free(pointer: number): void };
}

function heapOf(pdfium: WrappedPdfiumModule): PdfiumHeap {
  return pdfium.pdfium as unknown as PdfiumHeap;
}

/**
 * The WebAssembly functions read once per character, called directly: the wrapper's `ccall` for
 * each of them was a tenth of the engine's time on real papers. All take and give numbers.
 */
interface CharExports extends ObjectExports, LinkExports {
  FPDF_LoadPage(doc: number, index: number): number;
  FPDF_ClosePage(page: number): void;
  FPDF_GetPageBoundingBox(page: number, rect: number): number;
  FPDFPage_GetRotation(page: number): number;
  FPDFText_LoadPage(page: number): number;
  FPDFText_ClosePage(textPage: number): void;
  FPDFText_CountChars(textPage: number): number;
  FPDFText_GetUnicode(textPage: number, index: number): number;
  FPDFText_IsGenerated(textPage: number, index: number): number;
  FPDFText_IsHyphen(textPage: number, index: number): number;
  FPDFText_HasUnicodeMapError(textPage: number, index: number): number;
  FPDFText_GetTextObject(textPage: number, index: number): number;
  FPDFTextObj_GetFont(textObject: number): number;
  FPDFText_GetFontSize(textPage: number, index: number): number;
  FPDFText_GetMatrix(textPage: number, index: number, matrix: number): number;
  FPDFText_GetCharOrigin(textPage: number, index: number, x: number, y: number): number;
  FPDFText_GetLooseCharBox(textPage: number, index: number, rect: number): number;
  FPDFPage_GetAnnotCount(page: number): number;
  FPDFPage_GetAnnot(page: number, index: number): number;
  FPDFPage_CloseAnnot(annot: number): void;
  FPDFAnnot_GetSubtype(annot: number): number;
  EPDFAnnot_GetObjectNumber(annot: number): number;
  FPDFAnnot_GetAP(annot: number, mode: number, buffer: number, length: number): number;
  FPDFAnnot_GetRect(annot: number, rect: number): number;
  FPDFPage_Flatten(page: number, usage: number): number;
}

function charExports(pdfium: WrappedPdfiumModule): CharExports {
  return pdfium.pdfium.wasmExports as unknown as CharExports;
}

let loading: Promise<WrappedPdfiumModule> | undefined;

/** PDFium's module, compiled and initialised on first use. */
export function loadPdfium(): Promise<WrappedPdfiumModule> {
  loading ??= (async () => {
    // read with fs and handed over as bytes, so PDFium never looks the file up itself: Electron's
    // fs.readFile reads it from inside the packaged app's asar, and it needs no asarUnpack
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
  /**
   * Whether the file's cross-reference table was read as written. PDFium rebuilds a broken one, as
   * pdf.js does, but the two may then find different objects (pages) in the file.
   */
  readonly crossReferenceValid: boolean;
  /** The document information entry `key` (Title, Author), as text; empty when there is none. */
  metaText(key: string): string;
  /** Page `pageNumber` (from 1): its characters as pdf.js-like text items with their fonts, and its drawing. */
  readText(pageNumber: number): CharTextContent;
  /**
   * The pixels of images `readText` found on page `pageNumber`, by their object ids; images too
   * large or undecodable are left out. Throws when PDFium cannot load the page.
   */
  readImages(pageNumber: number, objectIds: readonly string[], limits: ImageLimits): Map<string, ImagePixels>;
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
  let doc = pdfium.FPDF_LoadMemDocument(data, bytes.length, password);
  if (!doc) {
    const code = pdfium.FPDF_GetLastError();
    heap.wasmExports.free(data);
    throw new PdfiumOpenError(`PDFium cannot open the file (error ${code})`, code === PASSWORD_ERROR);
  }
  let open = true;
  let pagesRead = 0;
  const fields = blankFieldReader(pdfium, data, bytes.length, password);
  return {
    pageCount: pdfium.FPDF_GetPageCount(doc),
    crossReferenceValid: pdfium.FPDF_DocumentHasValidCrossReferenceTable(doc),
    metaText(key) {
      if (!open) throw new Error('PDFium document read after it was closed');
      // UTF-16LE with its terminator; the first call gives the size
      const size = pdfium.FPDF_GetMetaText(doc, key, 0, 0);
      if (size <= 2) return '';
      const buffer = heap.wasmExports.malloc(size);
      try {
        pdfium.FPDF_GetMetaText(doc, key, buffer, size);
        return Buffer.from(heap.HEAPU8.subarray(buffer, buffer + size - 2)).toString('utf16le');
      } finally {
        heap.wasmExports.free(buffer);
      }
    },
    readText(pageNumber) {
      if (!open) throw new Error('PDFium document read after it was closed');
      // PDFium keeps every object it parsed until the document closes (about 100 KiB a page of a
      // long report); opening it again from the same bytes now and then keeps its heap flat.
      if (++pagesRead % PAGES_PER_REOPEN === 0) {
        const again = pdfium.FPDF_LoadMemDocument(data, bytes.length, password);
        if (again) {
          pdfium.FPDF_CloseDocument(doc);
          doc = again;
        }
      }
      return readPageText(pdfium, doc, pageNumber, fields);
    },
    readImages(pageNumber, objectIds, limits) {
      if (!open) throw new Error('PDFium document read after it was closed');
      const api = pdfium.pdfium.wasmExports as unknown as ImageExports & CharExports;
      const page = api.FPDF_LoadPage(doc, pageNumber - 1);
      if (!page) throw new Error(`PDFium cannot load page ${pageNumber}`);
      const scratch = heap.wasmExports.malloc(IMAGE_SCRATCH_BYTES);
      try {
        return readImagePixels(api, heap, doc, page, objectIds, limits, scratch);
      } finally {
        heap.wasmExports.free(scratch);
        api.FPDF_ClosePage(page);
      }
    },
    close() {
      if (!open) return;
      open = false;
      fields.close();
      pdfium.FPDF_CloseDocument(doc);
      heap.wasmExports.free(data);
    },
  };
}

/** FPDF_ANNOT_WIDGET (fpdf_annot.h): a form field. */
const WIDGET_ANNOTATION = 20;
/** FPDF_ANNOT_FREETEXT, FPDF_ANNOT_STAMP and FPDF_ANNOT_WIDGET (fpdf_annot.h): the annotations whose appearance shows text. */
const TEXT_ANNOTATIONS = new Set([3, 13, WIDGET_ANNOTATION]);
/** FPDFPage_Flatten's usage for what the page shows on screen, and its answer when it merged something (fpdf_flatten.h). */
const FLAT_NORMALDISPLAY = 0;
const FLATTEN_SUCCESS = 1;

/** FPDF_ANNOT_APPEARANCEMODE_NORMAL; an appearance read back as this many bytes (UTF-16 NUL) is none. */
const NORMAL_APPEARANCE = 0;
const NO_APPEARANCE_BYTES = 2;

/**
 * The page's annotations that show text: whether some draw it with their own appearance (merged
 * into the page to be read), and the rectangles [x0, y0, x1, y1] of those that have none, which a
 * reader draws from their values (unpainted-annotations.ts).
 */
function textAnnotations(
  api: CharExports,
  heap: PdfiumHeap,
  page: number,
  scratch: number,
  blankTextFields: (objectNumbers: readonly number[]) => ReadonlySet<number>,
): { painted: boolean; unpainted: [number, number, number, number][] } {
  let painted = false;
  const unpainted: { rect: [number, number, number, number]; widget: number }[] = [];
  const count = api.FPDFPage_GetAnnotCount(page);
  for (let index = 0; index < count; index++) {
    const annot = api.FPDFPage_GetAnnot(page, index);
    if (!annot) continue;
    const subtype = api.FPDFAnnot_GetSubtype(annot);
    if (TEXT_ANNOTATIONS.has(subtype)) {
      if (api.FPDFAnnot_GetAP(annot, NORMAL_APPEARANCE, 0, 0) > NO_APPEARANCE_BYTES) painted = true;
      else if (api.FPDFAnnot_GetRect(annot, scratch)) {
        const f = heap.HEAPF32;
        const [left = 0, top = 0, right = 0, bottom = 0] = [f[scratch >> 2], f[(scratch >> 2) + 1], f[(scratch >> 2) + 2], f[(scratch >> 2) + 3]];
        const rect: [number, number, number, number] = [Math.min(left, right), Math.min(top, bottom), Math.max(left, right), Math.max(top, bottom)];
        if (rect.every(Number.isFinite)) unpainted.push({ rect, widget: subtype === WIDGET_ANNOTATION ? api.EPDFAnnot_GetObjectNumber(annot) : 0 });
      }
    }
    api.FPDFPage_CloseAnnot(annot);
  }
  // A text field with no value draws nothing, and needs no reader to draw it (pdfium-form-fields.ts).
  const widgets = unpainted.map(({ widget }) => widget).filter((objectNumber) => objectNumber > 0);
  const blank = widgets.length > 0 ? blankTextFields(widgets) : new Set<number>();
  return { painted, unpainted: unpainted.filter(({ widget }) => !blank.has(widget)).map(({ rect }) => rect) };
}

function readPageText(pdfium: WrappedPdfiumModule, doc: number, pageNumber: number, fields: BlankFieldReader): CharTextContent {
  const heap = heapOf(pdfium);
  const api = charExports(pdfium);
  let page = api.FPDF_LoadPage(doc, pageNumber - 1);
  if (!page) throw new Error(`PDFium cannot load page ${pageNumber}`);
  // 6 floats of matrix or 4 of box, then 2 doubles of origin, then a font name.
  const scratch = heap.wasmExports.malloc(Math.max(64, OBJECT_SCRATCH_BYTES, LINK_SCRATCH_BYTES) + FONT_NAME_BYTES);
  let textPage = 0;
  try {
    // Form fields' values, text boxes and stamps are drawn by their annotations' appearances, not
    // by the page: merged into the page, they are read with its text, in place, as pdftotext reads
    // them. The links are read first: merging takes the annotations it draws off the page.
    const annotations = textAnnotations(api, heap, page, scratch, (objectNumbers) => fields.blankTextFields(pageNumber - 1, objectNumbers));
    const links = annotations.painted ? readPageLinks(api, heap, doc, page, scratch) : undefined;
    if (links && api.FPDFPage_Flatten(page, FLAT_NORMALDISPLAY) === FLATTEN_SUCCESS) {
      // The page object parsed before merging still has the old contents.
      api.FPDF_ClosePage(page);
      page = api.FPDF_LoadPage(doc, pageNumber - 1);
      if (!page) throw new Error(`PDFium cannot load page ${pageNumber}`);
    }
    const geometry = pageGeometry(api, heap, page, scratch);
    textPage = api.FPDFText_LoadPage(page);
    if (!textPage) throw new Error(`PDFium cannot read the text of page ${pageNumber}`);
    const fontKeys = new Map<number, string>();
    const widths = new Map<string, FontWidths>();
    const styles: Record<string, TextStyleLike> = {};
    const fonts = new Map<string, FontFacts>();
    const chars: PageChar[] = [];
    let hasUnmapped = false;
    const embedded = new Set<string>();
    const count = api.FPDFText_CountChars(textPage);
    // A text object's characters share its font and size (PDFium reads both off the object), so a
    // run of characters from one object reads them once. Not the matrix: a space PDFium puts in for
    // a wide kerning gap belongs to the object but has a matrix of its own.
    let lastObject = 0;
    let font = '';
    let size = 1;
    for (let index = 0; index < count; index++) {
      let code = api.FPDFText_GetUnicode(textPage, index);
      // PDFium gives a character beyond the Basic Multilingual Plane (LuaTeX's math italic `𝜀`) as
      // its two UTF-16 units, each a char of its own with the glyph's box: one character here.
      if (isHighSurrogate(code) && index + 1 < count) {
        const low = api.FPDFText_GetUnicode(textPage, index + 1);
        if (isLowSurrogate(low)) code = 0x10000 + ((code - 0xd800) << 10) + (low - 0xdc00);
      }
      const charIndex = index;
      if (code > 0xffff) index++;
      const generated = api.FPDFText_IsGenerated(textPage, charIndex) === 1;
      // PDFium marks a hyphen that ends a line (its word goes on) as U+0002; pdf.js gives it as `-`.
      let text = code === 2 && api.FPDFText_IsHyphen(textPage, charIndex) === 1 ? '-' : charText(code);
      // A glyph PDFium found no Unicode for comes as its code: a TeX symbol font's angle bracket as
      // `h`, its copyright circle as 13, which is no line break.
      let unmapped = !generated && api.FPDFText_HasUnicodeMapError(textPage, charIndex) === 1;
      if (generated || (!unmapped && (text === '\r' || text === '\n'))) {
        chars.push({ text, generated: true, font: '', a: 0, b: 0, c: 0, d: 0, x: 0, y: 0, advance: 0 });
        continue;
      }
      const textObject = api.FPDFText_GetTextObject(textPage, charIndex);
      if (!textObject || textObject !== lastObject) {
        lastObject = textObject;
        const fontHandle = textObject ? api.FPDFTextObj_GetFont(textObject) : 0;
        const known = fontKeys.get(fontHandle);
        if (known === undefined) {
          font = `pdfium-font-${fontKeys.size}`;
          fontKeys.set(fontHandle, font);
          const described = describeFont(pdfium, fontHandle, scratch);
          styles[font] = described.style;
          fonts.set(font, described.facts);
          if (fontHandle && pdfium.FPDFFont_GetIsEmbedded(fontHandle) === 1) embedded.add(font);
        } else font = known;
        size = api.FPDFText_GetFontSize(textPage, charIndex);
      }
      const slotText = unmapped ? texSlotText(fonts.get(font)?.name ?? '', code) : undefined;
      if (slotText) {
        text = slotText;
        unmapped = false;
      }
      api.FPDFText_GetMatrix(textPage, charIndex, scratch);
      const floats = heap.HEAPF32;
      const at = scratch >> 2;
      const a = size * (floats[at] ?? 1);
      const b = size * (floats[at + 1] ?? 0);
      const c = size * (floats[at + 2] ?? 0);
      const d = size * (floats[at + 3] ?? 1);
      api.FPDFText_GetCharOrigin(textPage, charIndex, scratch + 32, scratch + 40);
      const x = heap.HEAPF64[(scratch + 32) >> 3] ?? 0;
      const y = heap.HEAPF64[(scratch + 40) >> 3] ?? 0;
      // The loose box spans the advance (FS_RECTF: left, top, right, bottom); its far corner along the baseline ends it.
      api.FPDFText_GetLooseCharBox(textPage, charIndex, scratch);
      const run = Math.hypot(a, b) || 1;
      const ux = a / run;
      const uy = b / run;
      const boxFloats = heap.HEAPF32;
      const left = (boxFloats[at] ?? x) - x;
      const top = (boxFloats[at + 1] ?? y) - y;
      const right = (boxFloats[at + 2] ?? x) - x;
      const bottom = (boxFloats[at + 3] ?? y) - y;
      const advance = Math.max(0, left * ux + top * uy, left * ux + bottom * uy, right * ux + top * uy, right * ux + bottom * uy);
      if (text === 'φ' || text === 'ϕ' || text === 'ε' || text === 'ϵ') text = texVariantByWidth(fonts.get(font)?.name ?? '', text, advance / run);
      const char: PageChar = { text, generated: false, font, a, b, c, d, x, y, advance };
      if (unmapped) char.unmapped = true;
      // TeX draws its copyright sign as a `c` and a big circle over each other, in either order.
      const previous = chars.at(-1);
      if (previous && isTexCopyright(char, previous)) chars.splice(-1, 1, { ...char, text: '©' });
      else if (previous && isTexCopyright(previous, char)) chars.splice(-1, 1, { ...previous, text: '©' });
      else chars.push(char);
      // A font the file does not embed names its glyphs by a standard encoding, which pdf.js knows
      // no better (a table of a standard font's codes); only embedded fonts send the page to pdf.js.
      hasUnmapped ||= unmapped && embedded.has(font);
      noteWidth(widths, font, text, advance / run);
    }
    for (const [font, seen] of widths) {
      const facts = fonts.get(font);
      if (facts && !facts.monospace && isMonospaced(seen)) fonts.set(font, readFontFacts({ name: facts.name, isMonospace: true }, 'monospace'));
    }
    const pageLinks = links ?? readPageLinks(api, heap, doc, page, scratch);
    // A link's text as the items will read it: accents composed with their letters.
    const linkChars = pageLinks.length > 0 ? composeAccentChars(chars) : chars;
    const linkAnnotations = pageLinks.map(({ url, rect }) => ({ subtype: 'Link', url, rect, overlaidText: overlaidText(linkChars, rect) }));
    return { ...charItems(chars, styles, fonts), drawing: readPageObjects(api, heap, page, scratch), links: linkAnnotations, ...(annotations.unpainted.length > 0 && { unpaintedAnnotations: annotations.unpainted }), ...(hasUnmapped && { chars }), ...(geometry && { geometry }) };
  } finally {
    heap.wasmExports.free(scratch);
    if (textPage) api.FPDFText_ClosePage(textPage);
    if (page) api.FPDF_ClosePage(page);
  }
}

/**
 * The page's view box and turn as pdf.js decides them. PDFium's page box is pdf.js's view: the crop
 * box within the media box, either left out where empty or invalid, the media box then Letter size,
 * all inherited from the page tree. Where the two boxes do not meet pdf.js takes the media box and
 * PDFium an empty box: undefined, and pdf.js's page gives the view.
 */
function pageGeometry(api: CharExports, heap: PdfiumHeap, page: number, scratch: number): PageGeometry | undefined {
  // FS_RECTF: left, top, right, bottom
  if (!api.FPDF_GetPageBoundingBox(page, scratch)) return undefined;
  const at = scratch >> 2;
  const [left = 0, top = 0, right = 0, bottom = 0] = [heap.HEAPF32[at], heap.HEAPF32[at + 1], heap.HEAPF32[at + 2], heap.HEAPF32[at + 3]];
  const view: PageGeometry['view'] = [writtenNumber(Math.min(left, right)), writtenNumber(Math.min(top, bottom)), writtenNumber(Math.max(left, right)), writtenNumber(Math.max(top, bottom))];
  if (!(view[2] - view[0] > 0 && view[3] - view[1] > 0)) return undefined;
  const quarterTurns = api.FPDFPage_GetRotation(page);
  return quarterTurns >= 0 && quarterTurns <= 3 ? { view, rotate: quarterTurns * 90 } : undefined;
}

/** The advances (in ems) of the first glyphs a font draws on a page. */
interface FontWidths {
  ems: number[];
  /** Different letters among them. */
  letters: Set<string>;
}

function noteWidth(widths: Map<string, FontWidths>, font: string, text: string, em: number): void {
  if (!(em > 0) || !text.trim()) return;
  let seen = widths.get(font);
  if (!seen) widths.set(font, (seen = { ems: [], letters: new Set() }));
  if (seen.ems.length < WIDTH_SAMPLES) seen.ems.push(em);
  if (seen.letters.size < MONOSPACE_EVIDENCE && PROPORTIONAL_SCRIPT.test(text)) seen.letters.add(text);
}

/**
 * pdf.js calls a font monospace when all its widths are equal; PDFium gives no widths array, so the
 * glyphs the page draws stand in: a few different letters among them (digits are tabular in most
 * fonts, and one capital may match them; Chinese, Japanese and Korean are set full width in any
 * font, so only scripts with letters of many widths count), nearly all one advance. The advance is read from the glyph's loose box,
 * which a glyph wider than its advance (a bold `m`) overshoots, so the narrowest stands for it.
 */
function isMonospaced(seen: FontWidths): boolean {
  if (seen.letters.size < MONOSPACE_EVIDENCE) return false;
  const narrowest = Math.min(...seen.ems);
  const equal = seen.ems.filter((em) => em - narrowest <= SAME_WIDTH * narrowest).length;
  return equal >= MONOSPACE_SHARE * seen.ems.length;
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
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
  // PostScript names are ASCII by rule; whatever bytes a broken file has are read one to a character.
  const name = length > 1 ? String.fromCharCode(...heap.HEAPU8.subarray(nameAt, nameAt + Math.min(length, FONT_NAME_BYTES) - 1)) : '';
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
