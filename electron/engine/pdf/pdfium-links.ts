/**
 * A page's web links read with PDFium: each link annotation whose action opens a URI, with its
 * rectangle in page space. pdf.js's `getAnnotations` gives the same, but it also reads the page's
 * whole text content (fonts converted, every glyph placed) for the text each link overlays: on a
 * real paper with hyperlinks that was most of the engine's time. The overlaid text is taken from
 * PDFium's own characters instead (link-text.ts).
 */

import type { ObjectHeap } from './pdfium-drawing.js';

export interface LinkExports {
  FPDFLink_Enumerate(page: number, startPos: number, link: number): number;
  FPDFLink_GetAnnotRect(link: number, rect: number): number;
  FPDFLink_GetAction(link: number): number;
  FPDFAction_GetType(action: number): number;
  FPDFAction_GetURIPath(doc: number, action: number, buffer: number, length: number): number;
}

export interface LinkHeap extends ObjectHeap {
  HEAPU8: Uint8Array;
}

/** A link annotation that opens a URI: its address as the file gives it, and its rectangle [x0, y0, x1, y1]. */
export interface PageLink {
  url: string;
  rect: [number, number, number, number];
}

/** PDFACTION_URI in fpdf_doc.h. */
const URI_ACTION = 3;
/**
 * A page with more web links than this is hostile; the rest are not read (each link's overlaid
 * text is a pass over the page's characters, and placing them a pass over its runs).
 */
const MAX_LINKS = 1000;
/** Scratch bytes: the enumeration's position and link (2 ints), a rectangle (4 floats), an address. */
export const LINK_SCRATCH_BYTES = 8 + 16 + 2048;

export function readPageLinks(api: LinkExports, heap: LinkHeap, doc: number, page: number, scratch: number): PageLink[] {
  const links: PageLink[] = [];
  const position = scratch;
  const linkAt = scratch + 4;
  const rectAt = scratch + 8;
  const urlAt = scratch + 24;
  const urlRoom = LINK_SCRATCH_BYTES - 24;
  heap.HEAP32[position >> 2] = 0;
  while (links.length < MAX_LINKS && api.FPDFLink_Enumerate(page, position, linkAt)) {
    const link = heap.HEAP32[linkAt >> 2] ?? 0;
    const action = link ? api.FPDFLink_GetAction(link) : 0;
    if (!action || api.FPDFAction_GetType(action) !== URI_ACTION) continue;
    const length = api.FPDFAction_GetURIPath(doc, action, urlAt, urlRoom);
    // The length counts the closing NUL; an address longer than the room is no link worth keeping.
    if (length <= 1 || length > urlRoom) continue;
    const url = absoluteUrl(String.fromCharCode(...heap.HEAPU8.subarray(urlAt, urlAt + length - 1)));
    if (!url) continue;
    if (!api.FPDFLink_GetAnnotRect(link, rectAt)) continue;
    const f = heap.HEAPF32;
    const [left = 0, top = 0, right = 0, bottom = 0] = [f[rectAt >> 2], f[(rectAt >> 2) + 1], f[(rectAt >> 2) + 2], f[(rectAt >> 2) + 3]];
    const rect: PageLink['rect'] = [Math.min(left, right), Math.min(top, bottom), Math.max(left, right), Math.max(top, bottom)];
    if (rect.every(Number.isFinite)) links.push({ url, rect });
  }
  return links;
}

/** The address as pdf.js gives a link's `url`: parsed and written back, `www.` taken as http; undefined when it does not parse. */
function absoluteUrl(raw: string): string | undefined {
  const trimmed = raw.trim();
  try {
    return new URL(/^www\./i.test(trimmed) ? `http://${trimmed}` : trimmed).href;
  } catch {
    return undefined;
  }
}
