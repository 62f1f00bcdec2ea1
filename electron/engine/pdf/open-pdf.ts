/**
 * Opens a PDF with pdf.js in Node, turning pdf.js's exceptions into failures a person can act on.
 *
 * The document engines read is opened without glyph outlines: with `disableFontFace` (pdf.js's
 * default in Node) its worker compiles every glyph drawn into a path and posts it to this thread,
 * work only a canvas renderer uses; it was a sixth of the text engine's CPU time on real papers
 * (docs/text-engine-speed.md). Pages to render come from a twin opened with outlines on first use
 * (`pageToRender`), from the same bytes.
 */

import { createRequire } from 'node:module';
import path from 'node:path';
import { getDocument, type PDFDocumentProxy, type PDFPageProxy } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { isPasswordError, openWithPassword } from '../../../shared/pdf-password.js';
import type { DocumentInfo } from '../../../shared/protocol.js';
import { FailureError } from '../../core/failure-error.js';
import { passwordlessView } from '../../core/passwordless-view.js';
import { readPdfBytes } from './pdf-bytes.js';
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

/**
 * What pdf.js's font loader needs of a document when glyph outlines are off: somewhere to put a
 * `@font-face` rule. Nothing here renders with those rules; they are dropped.
 */
const NO_FONT_FACES = {
  createElement: () => ({ sheet: { cssRules: [], insertRule: () => 0 }, remove: () => undefined }),
  documentElement: { getElementsByTagName: () => [{ append: () => undefined }] },
} as unknown as Document;

/** Per document read without outlines: the password that opened it and, once asked for, its renderable twin. */
const renderTwins = new WeakMap<PDFDocumentProxy, { password: string | undefined; twin?: Promise<PDFDocumentProxy> }>();

export async function openPdf(file: string, password?: string): Promise<OpenedPdf> {
  return openPdfData(await readPdfBytes(file), file, password);
}

/**
 * Opens `data`, the bytes of `file`, as `openPdf` does. pdf.js takes the bytes over; the file is read
 * again where a second look at them is needed.
 */
export async function openPdfData(data: Uint8Array, file: string, password?: string): Promise<OpenedPdf> {
  // pdf.js takes ownership of the bytes it is given, so an attempt that may be followed by another gets a copy
  let opensWith: string | undefined;
  const load = async (bytes: Uint8Array, candidate: string | undefined) => {
    const loaded = await loadDocument(bytes, candidate, false);
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
  renderTwins.set(pdf, { password: opensWith });
  return { pdf, info: await readInfo(pdf), strictCopy: async () => loadDocument(await pdf.getData(), opensWith, false, true) };
}

/**
 * Page `pageNumber` of `pdf` as a canvas renders it, with glyph outlines: from a twin of `pdf`
 * opened from its bytes the first time a page is rendered, or from `pdf` itself when it was not
 * opened by `openPdf`.
 */
export async function pageToRender(pdf: PDFDocumentProxy, pageNumber: number): Promise<PDFPageProxy> {
  const entry = renderTwins.get(pdf);
  if (!entry) return pdf.getPage(pageNumber);
  entry.twin ??= pdf.getData().then((bytes) => loadDocument(bytes, entry.password, true));
  return (await entry.twin).getPage(pageNumber);
}

/** The password that opened `pdf` (undefined for none, or when `openPdf` did not open it). */
export function openingPassword(pdf: PDFDocumentProxy): string | undefined {
  return renderTwins.get(pdf)?.password;
}

/** Destroys `pdf` and its renderable twin, if one was opened. */
export async function closePdf(pdf: PDFDocumentProxy): Promise<void> {
  const twin = renderTwins.get(pdf)?.twin;
  renderTwins.delete(pdf);
  await Promise.all([pdf.destroy(), twin?.then((document) => document.destroy(), () => undefined)]);
}

async function loadDocument(data: Uint8Array, password: string | undefined, glyphOutlines: boolean, stopAtErrors = false): Promise<PDFDocumentProxy> {
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
    disableFontFace: glyphOutlines,
    ...(glyphOutlines ? {} : { ownerDocument: NO_FONT_FACES }),
    verbosity: 0,
  });
  try {
    return await task.promise;
  } catch (error) {
    await task.destroy().catch(() => undefined);
    throw error;
  }
}

function describeOpenError(error: unknown, file: string, password: string | undefined): FailureError {
  const detail = error instanceof Error ? error.message : String(error);
  if (isPasswordError(error)) {
    return password === undefined
      ? new FailureError('encrypted', `${file}: encrypted`, 'password')
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
