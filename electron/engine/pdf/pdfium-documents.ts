/**
 * The PDFium twin of each pdf.js document the text engine reads: opened from the same bytes with
 * the password that opened it, on the first page read. A document PDFium cannot open, or opens with
 * another page count (the two repair damaged files differently), has no twin and is read with pdf.js.
 */

import type { PDFDocumentProxy } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { openingPassword } from './open-pdf.js';
import { loadPdfium, openPdfiumDocument, type PdfiumDocument } from './pdfium-text.js';

export class PdfiumDocuments {
  private readonly twins = new WeakMap<PDFDocumentProxy, Promise<PdfiumDocument | undefined>>();

  /** `pdf`'s twin, or undefined when pdf.js is to read it. */
  of(pdf: PDFDocumentProxy): Promise<PdfiumDocument | undefined> {
    let twin = this.twins.get(pdf);
    if (!twin) this.twins.set(pdf, (twin = openTwin(pdf)));
    return twin;
  }

  /** Frees `pdf`'s twin in PDFium's heap. */
  close(pdf: PDFDocumentProxy): void {
    const twin = this.twins.get(pdf);
    this.twins.delete(pdf);
    void twin?.then((document) => document?.close());
  }
}

async function openTwin(pdf: PDFDocumentProxy): Promise<PdfiumDocument | undefined> {
  try {
    const [pdfium, bytes] = await Promise.all([loadPdfium(), pdf.getData()]);
    const document = openPdfiumDocument(pdfium, bytes, openingPassword(pdf) ?? '');
    if (document.pageCount === pdf.numPages) return document;
    document.close();
    return undefined;
  } catch {
    // No twin only costs speed: pdf.js reads the document as it did before.
    return undefined;
  }
}
