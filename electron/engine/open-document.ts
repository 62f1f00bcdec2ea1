/** Opens a document by what its first bytes say it is: an image file, or else a PDF. */

import { constants } from 'node:fs';
import { open } from 'node:fs/promises';
import type { PDFDocumentProxy } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { imageFormatOf } from './image/image-format.js';
import { closePdf, openPdf } from './pdf/open-pdf.js';
import type { DocumentSource } from './document-source.js';

/**
 * The image decoders and the page renderer (@napi-rs/canvas) are loaded when an image file is
 * opened or a page is first drawn: reading a PDF's text layer needs neither.
 */
export async function openDocumentSource(file: string, password?: string): Promise<DocumentSource> {
  const format = imageFormatOf(await readHead(file));
  if (format) return (await import('./image/image-document.js')).openImageDocument(file, format);
  const { pdf, info, strictCopy } = await openPdf(file, password);
  // opened on the first page that comes out empty, kept for the next ones
  let strict: Promise<PDFDocumentProxy> | undefined;
  return {
    info,
    pdf,
    render: async (page, longSide) => (await import('./raster/page-raster.js')).renderPdfPage(pdf, page, longSide),
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
