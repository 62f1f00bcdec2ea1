/** Opens a document by what its first bytes say it is: an image file, or else a PDF. */

import { open } from 'node:fs/promises';
import type { PDFDocumentProxy } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { imageFormatOf } from './image/image-format.js';
import { openImageDocument } from './image/image-document.js';
import { closePdf, openPdf } from './pdf/open-pdf.js';
import { renderPdfPage } from './raster/page-raster.js';
import type { DocumentSource } from './document-source.js';

export async function openDocumentSource(file: string, password?: string): Promise<DocumentSource> {
  const format = imageFormatOf(await readHead(file));
  if (format) return openImageDocument(file, format);
  const { pdf, info, strictCopy } = await openPdf(file, password);
  // opened on the first page that comes out empty, kept for the next ones
  let strict: Promise<PDFDocumentProxy> | undefined;
  return {
    info,
    pdf,
    render: (page, longSide) => renderPdfPage(pdf, page, longSide),
    contentError: async (page) => {
      strict ??= strictCopy();
      try {
        await (await (await strict).getPage(page)).getTextContent();
        return undefined;
      } catch (error) {
        return error instanceof Error ? error.message : String(error);
      }
    },
    close: async () => {
      await closePdf(pdf);
      await strict?.then((copy) => copy.destroy()).catch(() => undefined);
    },
  };
}

/** The first bytes, or none when the file cannot be read: then opening it as a PDF says why. */
async function readHead(file: string): Promise<Uint8Array> {
  try {
    const handle = await open(file, 'r');
    try {
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
