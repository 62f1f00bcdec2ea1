/**
 * A PDF document as the engines hold it: pdf.js's, or one PDFium opened on its own whose pdf.js
 * document is opened from the same bytes only when something asks for it. The text engine reads a
 * page's characters, drawing, links and geometry with PDFium alone, so a batch of such documents
 * never loads pdf.js, its worker module and @napi-rs/canvas (docs/text-engine-speed.md); the
 * renderer, the other engines, pdf.js's fallbacks and `auto`'s probe ask for pdf.js's document.
 */

import type { PDFDocumentProxy, PDFPageProxy } from 'pdfjs-dist/legacy/build/pdf.mjs';
import type { PdfiumDocument } from './pdfium-text.js';

/** pdf.js's document as `open-pdf.ts` opened it, with the strict copy it keeps for damaged pages. */
export interface PdfjsOpened {
  pdf: PDFDocumentProxy;
  strictCopy(): Promise<PDFDocumentProxy>;
}

export class PdfiumFirstDocument {
  private pdfjsOpened?: Promise<PdfjsOpened>;

  /** `openPdfjs` opens the same file with pdf.js, as it would have been opened without PDFium. */
  constructor(
    readonly pdfium: PdfiumDocument,
    private readonly openPdfjs: () => Promise<PdfjsOpened>,
  ) {}

  get numPages(): number {
    return this.pdfium.pageCount;
  }

  /** pdf.js's document, opened on the first call. */
  opened(): Promise<PdfjsOpened> {
    this.pdfjsOpened ??= this.openPdfjs();
    return this.pdfjsOpened;
  }

  async getPage(pageNumber: number): Promise<PDFPageProxy> {
    return (await (await this.opened()).pdf).getPage(pageNumber);
  }

  /** pdf.js's caches, when pdf.js was opened. */
  async cleanup(keepLoadedFonts?: boolean): Promise<void> {
    if (this.pdfjsOpened) await (await this.pdfjsOpened).pdf.cleanup(keepLoadedFonts);
  }

  /** Whether pdf.js's document was asked for. */
  get pdfjsLoaded(): boolean {
    return this.pdfjsOpened !== undefined;
  }
}

export type PdfDocument = PDFDocumentProxy | PdfiumFirstDocument;

/** pdf.js's document for `pdf`, opened now if PDFium read it alone until now. */
export async function pdfjsDocument(pdf: PdfDocument): Promise<PDFDocumentProxy> {
  return pdf instanceof PdfiumFirstDocument ? (await pdf.opened()).pdf : pdf;
}
