/** Opens a PDF with pdf.js in Node, turning pdf.js's exceptions into failures a person can act on. */

import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { getDocument, type PDFDocumentProxy } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { isPasswordError, openWithPassword } from '../../../shared/pdf-password.js';
import type { DocumentInfo } from '../../../shared/protocol.js';
import { emptyInput, unreadableInput } from '../../../shared/input-failure.js';
import { FailureError } from '../failure-error.js';
import { passwordlessView } from './passwordless-view.js';
import './pdfjs-worker.js';

const pdfjsRoot = path.dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json'));

export interface OpenedPdf {
  pdf: PDFDocumentProxy;
  info: DocumentInfo;
  /**
   * The same document opened again with pdf.js stopping at errors. pdf.js reads a page whose content
   * it cannot parse as empty, saying so only in a warning; this copy says why.
   */
  strictCopy(): Promise<PDFDocumentProxy>;
}

export async function openPdf(file: string, password?: string): Promise<OpenedPdf> {
  const data = await readPdfBytes(file);
  // pdf.js takes ownership of the bytes it is given, so an attempt that may be followed by another gets a copy
  let opensWith: string | undefined;
  const load = async (bytes: Uint8Array, candidate: string | undefined) => {
    const loaded = await loadPdf(bytes, candidate);
    opensWith = candidate;
    return loaded;
  };
  const pdf = await openWithPassword(password, (candidate, last) => load(last ? data : data.slice(), candidate)).catch(async (error: unknown) => {
    if (password !== undefined || !isPasswordError(error)) throw describeOpenError(error, file, password);
    // asked for a password nobody gave: maybe the file needs none (see passwordless-view.ts); read again, pdf.js has the first bytes
    const view = passwordlessView(await readPdfBytes(file));
    if (!view) throw describeOpenError(error, file, password);
    return load(view.bytes, undefined).catch((retryError: unknown) => {
      throw describeOpenError(retryError, file, password);
    });
  });
  return { pdf, info: await readInfo(pdf), strictCopy: async () => loadPdf(await pdf.getData(), opensWith, true) };
}

async function loadPdf(data: Uint8Array, password: string | undefined, stopAtErrors = false): Promise<PDFDocumentProxy> {
  const task = getDocument({
    data,
    password,
    stopAtErrors,
    cMapUrl: path.join(pdfjsRoot, 'cmaps') + path.sep,
    cMapPacked: true,
    standardFontDataUrl: path.join(pdfjsRoot, 'standard_fonts') + path.sep,
    wasmUrl: path.join(pdfjsRoot, 'wasm') + path.sep,
    isEvalSupported: false,
    useSystemFonts: false,
    verbosity: 0,
  });
  try {
    return await task.promise;
  } catch (error) {
    await task.destroy().catch(() => undefined);
    throw error;
  }
}

async function readPdfBytes(file: string): Promise<Uint8Array> {
  let bytes: Buffer;
  try {
    bytes = await readFile(file);
  } catch (error) {
    const unreadable = unreadableInput(file, (error as NodeJS.ErrnoException).code ?? String(error));
    throw new FailureError(unreadable.code, unreadable.message);
  }
  if (bytes.length === 0) throw new FailureError(emptyInput(file).code, emptyInput(file).message);
  if (!looksLikePdf(bytes)) {
    throw new FailureError('not-pdf', `${file}: not a PDF (no %PDF header).`);
  }
  return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/** PDF readers accept the header anywhere in the first KiB; so do we. */
function looksLikePdf(bytes: Buffer): boolean {
  return bytes.subarray(0, 1024).includes('%PDF-');
}

function describeOpenError(error: unknown, file: string, password: string | undefined): FailureError {
  const detail = error instanceof Error ? error.message : String(error);
  if (isPasswordError(error)) {
    return password === undefined
      ? new FailureError('encrypted', `${file}: encrypted; give its password with --password.`)
      : new FailureError('wrong-password', `${file}: the password given does not open it.`);
  }
  if ((error as { name?: unknown } | null)?.name === 'InvalidPDFException') {
    return new FailureError('damaged', `${file}: damaged PDF that cannot be repaired (${detail}).`);
  }
  return new FailureError('damaged', `${file}: cannot be read as a PDF (${detail}).`);
}

async function readInfo(pdf: PDFDocumentProxy): Promise<DocumentInfo> {
  const meta = await pdf.getMetadata().catch(() => undefined);
  const fields = (meta?.info ?? {}) as Record<string, unknown>;
  const text = (value: unknown) => (typeof value === 'string' && value.trim() ? value.trim() : undefined);
  return { pageCount: pdf.numPages, title: text(fields.Title), author: text(fields.Author) };
}
