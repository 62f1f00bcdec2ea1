/**
 * The band lines (running-text signatures) of the pages read so far, per document, shared by the
 * text and lite engines: a page compares its top and bottom lines with its neighbours' whichever
 * engine read them, so a text page between scans finds the header OCR read on them. A few hundred
 * bytes a page.
 */

import type { BandLine } from './running-text.js';

/** Pages kept per document: a long document's every page, and a page converted again finds its neighbours. */
const MAX_PAGES = 2000;

/** Documents are told apart by the object each engine holds of it (its `PdfDocument`). */
export class DocumentBandLines {
  private readonly documents = new WeakMap<object, Map<number, BandLine[]>>();

  get(pdf: object, page: number): BandLine[] | undefined {
    return this.documents.get(pdf)?.get(page);
  }

  set(pdf: object, page: number, lines: BandLine[]): void {
    let pages = this.documents.get(pdf);
    if (!pages) this.documents.set(pdf, (pages = new Map()));
    pages.delete(page);
    pages.set(page, lines);
    if (pages.size > MAX_PAGES) pages.delete(pages.keys().next().value!);
  }

  forget(pdf: object): void {
    this.documents.delete(pdf);
  }
}
