/**
 * Whether a PDF page's text layer is worth reading: how much text it has, how much of it is drawn
 * invisible (render mode 3, what scanners lay over the image), how much maps to no real character,
 * and, for an invisible layer, how much of it reads as words. The router sends pages whose layer
 * fails these to OCR.
 */

import { AnnotationMode, OPS, type PDFPageProxy } from 'pdfjs-dist/legacy/build/pdf.mjs';
import type { CharTextContent } from './text/char-items.js';
import { drawingFromObjects, type PageObjects } from './text/drawing.js';
import { readDrawing } from './text/operator-drawing.js';
import type { TextContentLike } from './text/text-runs.js';

export interface TextLayerFacts {
  /** Non-space characters in the text layer. */
  chars: number;
  /** Share of text-showing operations drawn invisible (render modes 3 and 7). */
  invisibleShare: number;
  /** Share of characters that map to nothing readable (U+FFFD, private use, control characters). */
  unmappedShare: number;
  /** Share of word-like tokens that look like words of a language (see `plausibleShare`). */
  plausibleShare: number;
  /** Share of the page's area that images cover (their boxes summed, at most 1). */
  imageShare: number;
  /** Paths filled or stroked: many with little text is text drawn as vector art. */
  pathPaints: number;
  /**
   * Annotations (form fields, stamps): drawn over the page, so a page with them is not blank.
   * Counted only on a page with no text (0 where there is text): pdf.js reads a page's whole text
   * content for its links' overlaid text when asked for its annotations.
   */
  annotations: number;
}

/** What a page draws besides text, as the router weighs it. */
export interface DrawnFacts {
  imageShare: number;
  pathPaints: number;
  annotations: number;
}

const PATH_PAINTS = new Set<number>([OPS.fill, OPS.eoFill, OPS.stroke, OPS.closeStroke, OPS.fillStroke, OPS.eoFillStroke, OPS.closeFillStroke, OPS.closeEOFillStroke]);

const INVISIBLE_MODES = new Set([3, 7]);
const UNMAPPED = /[\u0000-\u0008\u000e-\u001f\ufffd\ue000-\uf8ff]/gu;

/** `readTextContent`: where the page's text content comes from (the text engine keeps what it read). */
export async function probeTextLayer(
  page: PDFPageProxy,
  readTextContent: () => Promise<TextContentLike> = async () => (await page.getTextContent()) as TextContentLike,
): Promise<TextLayerFacts> {
  const read = await readTextContent();
  // Read with PDFium, the content comes with the page's objects: no operator list to parse.
  const objects = (read as Partial<CharTextContent>).drawing;
  if (objects) return factsFromObjects(page, read, objects);
  // The same parameters as the text engine's read, so pdf.js serves that one from its cache.
  const ops = await page.getOperatorList({ annotationMode: AnnotationMode.DISABLE });
  let mode = 0;
  let shown = 0;
  let invisible = 0;
  let pathPaints = 0;
  ops.fnArray.forEach((fn, i) => {
    if (PATH_PAINTS.has(fn)) pathPaints++;
    // pdf.js folds the painting operator into constructPath as its first argument.
    else if (fn === OPS.constructPath && PATH_PAINTS.has(Number((ops.argsArray[i] as unknown[])[0]))) pathPaints++;
    if (fn === OPS.setTextRenderingMode) mode = Number((ops.argsArray[i] as number[])[0]);
    else if (fn === OPS.showText || fn === OPS.showSpacedText || fn === OPS.nextLineShowText || fn === OPS.nextLineSetSpacingShowText) {
      shown++;
      if (INVISIBLE_MODES.has(mode)) invisible++;
    }
  });
  const text = read.items.map((item) => ('str' in item ? item.str : '')).join(' ');
  const viewport = page.getViewport({ scale: 1 });
  const area = viewport.width * viewport.height;
  const imageArea = readDrawing(ops, viewport).images.reduce((sum, image) => sum + (image.x1 - image.x0) * (image.y1 - image.y0), 0);
  return textFacts(text, shown === 0 ? 0 : invisible / shown, { imageShare: area > 0 ? Math.min(1, imageArea / area) : 0, pathPaints, annotations: await annotationsOfTextless(page, text) });
}

async function factsFromObjects(page: PDFPageProxy, content: TextContentLike, objects: PageObjects): Promise<TextLayerFacts> {
  const text = content.items.map((item) => ('str' in item ? item.str : '')).join(' ');
  const viewport = page.getViewport({ scale: 1 });
  const area = viewport.width * viewport.height;
  const imageArea = drawingFromObjects([], objects.images, viewport).images.reduce((sum, image) => sum + (image.x1 - image.x0) * (image.y1 - image.y0), 0);
  const invisibleShare = objects.textShows === 0 ? 0 : objects.invisibleTextShows / objects.textShows;
  return textFacts(text, invisibleShare, { imageShare: area > 0 ? Math.min(1, imageArea / area) : 0, pathPaints: objects.pathPaints, annotations: await annotationsOfTextless(page, text) });
}

/** The page's annotations, counted only where it has no text: only a textless page may be blank. */
async function annotationsOfTextless(page: PDFPageProxy, text: string): Promise<number> {
  if (/\S/.test(text)) return 0;
  return (await page.getAnnotations().catch(() => [])).length;
}

export function textFacts(text: string, invisibleShare: number, drawn: DrawnFacts = { imageShare: 0, pathPaints: 0, annotations: 0 }): TextLayerFacts {
  const visible = text.replace(/\s+/g, '');
  const unmapped = visible.match(UNMAPPED)?.length ?? 0;
  return {
    chars: visible.length,
    invisibleShare,
    unmappedShare: visible.length === 0 ? 0 : unmapped / visible.length,
    plausibleShare: plausibleShare(text),
    ...drawn,
  };
}

const CJK = /[\u3040-\u30ff\u3400-\u9fff\uf900-\ufaff\uac00-\ud7af]/u;

/**
 * Tokens that read as words: letters only, with a vowel when longer than three, not mixing case
 * inside (`tHe`), and not letters run into digits (`c0unt`); numbers and CJK text count as read.
 * Real text scores above 0.85; a scanner's garbled layer far below.
 */
export function plausibleShare(text: string): number {
  const tokens = text
    .split(/\s+/)
    .map((t) => t.replace(/^[("'“‘[]+|[)"'”’\].,;:!?]+$/gu, ''))
    .filter((t) => t.length > 0);
  if (tokens.length === 0) return 1;
  const good = tokens.filter((token) => {
    if (CJK.test(token)) return true;
    if (/^[+-]?[\d.,%/:-]+$/u.test(token)) return true;
    if (!/^[\p{L}'’-]+$/u.test(token)) return false;
    if (/\p{Ll}\p{Lu}/u.test(token)) return false;
    return token.length <= 3 || /[aeiouyàâäéèêëîïôöùûüÿæœ]/iu.test(token);
  });
  return good.length / tokens.length;
}
