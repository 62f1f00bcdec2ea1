/** Opens a document by what its first bytes say it is: an image file, or else a PDF. */

import { constants } from 'node:fs';
import { open } from 'node:fs/promises';
import type { PDFDocumentProxy } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { passwordCandidates } from '../../shared/pdf-password.js';
import type { DocumentInfo } from '../../shared/protocol.js';
import { imageFormatOf } from './image/image-format.js';
import { readPdfBytes } from './pdf/pdf-bytes.js';
import { PdfiumFirstDocument, type PdfDocument, type PdfjsOpened } from './pdf/pdf-document.js';
import { loadPdfium, openPdfiumDocument, type PdfiumDocument } from './pdf/pdfium-text.js';
import type { DocumentSource } from './document-source.js';

/**
 * The image decoders and the page renderer (@napi-rs/canvas) are loaded when an image file is
 * opened or a page is first drawn: reading a PDF's text layer needs neither. A PDF is opened with
 * PDFium, and pdf.js only when something needs it (pdf/pdf-document.ts); a file PDFium cannot open,
 * or whose cross-reference table it had to rebuild, is opened with pdf.js as before, which says why
 * it cannot be read or gives the page count.
 */
export async function openDocumentSource(file: string, password?: string): Promise<DocumentSource> {
  const format = imageFormatOf(await readHead(file));
  if (format) return (await import('./image/image-document.js')).openImageDocument(file, format);
  const data = await readPdfBytes(file);
  const openPdfjs = async (): Promise<PdfjsOpened & { info: DocumentInfo }> => (await import('./pdf/open-pdf.js')).openPdfData(data, file, password);
  const pdfium = await openWithPdfium(data, password);
  if (pdfium) {
    const document = new PdfiumFirstDocument(pdfium, openPdfjs);
    return pdfSource(document, pdfiumInfo(pdfium), () => document.opened());
  }
  const opened = await openPdfjs();
  return pdfSource(opened.pdf, opened.info, async () => opened);
}

/**
 * `data` opened with PDFium, or undefined where pdf.js is to open it: PDFium cannot (damaged, a
 * password missing or wrong: pdf.js says which), had to rebuild the cross-reference table, finds no
 * page, or the file may scale its pages (/UserUnit, which pdf.js applies and PDFium ignores).
 */
async function openWithPdfium(data: Uint8Array, password: string | undefined): Promise<PdfiumDocument | undefined> {
  if (Buffer.from(data.buffer, data.byteOffset, data.byteLength).indexOf('/UserUnit') !== -1) return undefined;
  const pdfium = await loadPdfium().catch(() => undefined);
  if (!pdfium) return undefined;
  for (const candidate of password === undefined ? [''] : passwordCandidates(password)) {
    let document: PdfiumDocument;
    try {
      document = openPdfiumDocument(pdfium, data, candidate);
    } catch {
      continue;
    }
    if (document.crossReferenceValid && document.pageCount > 0) return document;
    document.close();
    return undefined;
  }
  return undefined;
}

function pdfiumInfo(document: PdfiumDocument): DocumentInfo {
  const text = (value: string) => value.trim() || undefined;
  return { pageCount: document.pageCount, title: text(document.metaText('Title')), author: text(document.metaText('Author')) };
}

/** `pdfjs`: pdf.js's document, opened when first asked for where PDFium opened `pdf`. */
function pdfSource(pdf: PdfDocument, info: DocumentInfo, pdfjs: () => Promise<PdfjsOpened>): DocumentSource {
  // opened on the first page that comes out empty, kept for the next ones
  let strict: Promise<PDFDocumentProxy> | undefined;
  return {
    info,
    pdf,
    render: async (page, longSide) => (await import('./raster/page-raster.js')).renderPdfPage((await pdfjs()).pdf, page, longSide),
    contentError: async (page) => {
      strict ??= pdfjs().then((opened) => opened.strictCopy());
      try {
        await (await (await strict).getPage(page)).getTextContent();
        return undefined;
      } catch (error) {
        return error instanceof Error ? error.message : String(error);
      }
    },
    close: async () => {
      if (!(pdf instanceof PdfiumFirstDocument) || pdf.pdfjsLoaded) {
        const { closePdf } = await import('./pdf/open-pdf.js');
        await pdfjs().then((opened) => closePdf(opened.pdf), () => undefined);
      }
      await strict?.then((copy) => copy.destroy()).catch(() => undefined);
      if (pdf instanceof PdfiumFirstDocument) pdf.pdfium.close();
    },
  };
}

/** The first bytes, or none when the file cannot be read: then opening it as a PDF says why. */
async function readHead(file: string): Promise<Uint8Array> {
  try {
    // not blocking on a FIFO; a file that is no regular file is refused by name when opened as a PDF
    const handle = await open(file, constants.O_RDONLY | constants.O_NONBLOCK);
    try {
      if (!(await handle.stat()).isFile()) return new Uint8Array(0);
      const head = new Uint8Array(16);
      const { bytesRead } = await handle.read(head, 0, head.length, 0);
      return head.subarray(0, bytesRead);
    } finally {
      await handle.close();
    }
  } catch {
    return new Uint8Array(0);
  }
}
