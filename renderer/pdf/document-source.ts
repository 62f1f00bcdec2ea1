/**
 * The pixels behind a document's pages: a pdf.js document for PDFs (its worker served from the
 * app's own origin, as the CSP requires), an image for PNG and JPEG. TIFF has no browser decoder,
 * so it has no preview; its Markdown still shows.
 */

import { getDocument, GlobalWorkerOptions, type PDFDocumentProxy } from 'pdfjs-dist';
import workerUrl from 'pdfjs-dist/build/pdf.worker.min.mjs?url';
import type { DocumentBytes } from '../../shared/app-api.js';
import { openWithPassword } from '../../shared/pdf-password.js';

GlobalWorkerOptions.workerSrc = workerUrl;

/** A page's size in PDF points. */
export interface PageSize {
  width: number;
  height: number;
}

export type DocumentSource =
  | { kind: 'pdf'; pdf: PDFDocumentProxy; firstPage: PageSize; close(): void }
  | { kind: 'image'; url: string; firstPage: PageSize; close(): void }
  | { kind: 'none'; reason: string; close(): void };

/** `password` opens an encrypted PDF: the one the person gave the engine. */
export async function openDocumentSource(bytes: DocumentBytes, password?: string): Promise<DocumentSource> {
  if (bytes.mime === 'application/pdf') return openWithPassword(password, (candidate) => openPdfSource(bytes.data, candidate));
  if (bytes.mime === 'image/tiff') return { kind: 'none', reason: 'TIFF pages have no preview here; their Markdown is beside.', close: () => undefined };
  const url = URL.createObjectURL(new Blob([bytes.data.slice()], { type: bytes.mime }));
  const size = await imageSize(url);
  // an image's pixels stand in for points: the engine reports its pages at the same size
  return { kind: 'image', url, firstPage: size, close: () => URL.revokeObjectURL(url) };
}

async function openPdfSource(data: Uint8Array, password: string | undefined): Promise<DocumentSource> {
  // the engine has the document's only copy of these bytes; pdf.js takes ownership of what it gets
  const task = getDocument({ data: data.slice(), password, isEvalSupported: false, enableXfa: false });
  try {
    const pdf = await task.promise;
    const page = await pdf.getPage(1);
    const viewport = page.getViewport({ scale: 1 });
    return { kind: 'pdf', pdf, firstPage: { width: viewport.width, height: viewport.height }, close: () => void task.destroy() };
  } catch (error) {
    void task.destroy();
    throw error;
  }
}

function imageSize(url: string): Promise<PageSize> {
  return new Promise((resolve, reject) => {
    const image = new Image();
    image.onload = () => resolve({ width: image.naturalWidth, height: image.naturalHeight });
    image.onerror = () => reject(new Error('The image could not be decoded for the preview.'));
    image.src = url;
  });
}
