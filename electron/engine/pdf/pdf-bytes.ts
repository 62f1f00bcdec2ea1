/**
 * A PDF file's bytes, read with the size bound and the refusals every reader of it shares (empty,
 * unreadable, no `%PDF` header). Apart from pdf.js's opener so that a document PDFium reads alone
 * never loads pdf.js.
 */

import { emptyInput, unreadableInput } from '../../../shared/input-failure.js';
import { MAX_DOCUMENT_BYTES, readBoundedFile, UnfitFileError } from '../../core/bounded-file.js';
import { FailureError } from '../../core/failure-error.js';

export async function readPdfBytes(file: string): Promise<Uint8Array> {
  let bytes: Buffer;
  try {
    bytes = await readBoundedFile(file, MAX_DOCUMENT_BYTES, 'document');
  } catch (error) {
    if (error instanceof UnfitFileError) throw new FailureError('not-pdf', error.message);
    const unreadable = unreadableInput(file, (error as NodeJS.ErrnoException).code ?? String(error));
    throw new FailureError(unreadable.code, unreadable.message);
  }
  if (bytes.length === 0) throw new FailureError(emptyInput(file).code, emptyInput(file).message);
  if (!looksLikePdf(bytes)) {
    // opened as a PDF only once its first bytes named no image format (open-document.ts)
    throw new FailureError('not-pdf', `${file}: neither a PDF (no %PDF header) nor a page image (PNG, JPEG, TIFF, WebP, GIF, BMP).`);
  }
  return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/** PDF readers accept the header anywhere in the first KiB; so do we. */
function looksLikePdf(bytes: Buffer): boolean {
  return bytes.subarray(0, 1024).includes('%PDF-');
}
