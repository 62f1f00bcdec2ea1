/**
 * The PDFium document each document the text engine reads is read with: the one PDFium opened it
 * with (pdf-document.ts), or for a document pdf.js opened, a twin opened from the same bytes with the
 * password that opened it, on the first page read. A document PDFium cannot open, or opens with
 * another page count (the two repair damaged files differently), has no twin and is read with pdf.js.
 */

import type { PDFDocumentProxy } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { PdfiumFirstDocument, type PdfDocument } from './pdf-document.js';
import { loadPdfium, openPdfiumDocument, type PdfiumDocument } from './pdfium-text.js';

export class PdfiumDocuments {
  private readonly twins = new WeakMap<PDFDocumentProxy, Promise<PdfiumDocument | undefined>>();

  /** `pdf`'s PDFium document, or undefined when pdf.js is to read it. */
  of(pdf: PdfDocument): Promise<PdfiumDocument | undefined> {
    if (pdf instanceof PdfiumFirstDocument) return Promise.resolve(pdf.pdfium);
    let twin = this.twins.get(pdf);
    if (!twin) this.twins.set(pdf, (twin = openTwin(pdf)));
    return twin;
  }

  /** Frees `pdf`'s twin in PDFium's heap (a document PDFium opened is closed with it). */
  close(pdf: PdfDocument): void {
    if (pdf instanceof PdfiumFirstDocument) return;
    const twin = this.twins.get(pdf);
    this.twins.delete(pdf);
    void twin?.then((document) => document?.close());
  }
}

async function openTwin(pdf: PDFDocumentProxy): Promise<PdfiumDocument | undefined> {
  try {
    const [pdfium, bytes, { openingPassword }] = await Promise.all([loadPdfium(), pdf.getData(), import('./open-pdf.js')]);
    const document = openPdfiumDocument(pdfium, bytes, openingPassword(pdf) ?? '');
    if (document.pageCount === pdf.numPages) return document;
    document.close();
    return undefined;
  } catch {
    // No twin only costs speed: pdf.js reads the document as it did before.
    return undefined;
  }
}
