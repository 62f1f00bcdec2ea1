/**
 * Which of a page's text fields without an appearance hold no value. A reader draws such a field
 * from its value (unpainted-annotations.ts, with pdf.js's annotation data); a field with none draws
 * nothing, so its page needs no second reader: a batch whose only such fields are empty never loads
 * pdf.js (about a tenth of a command's CPU over the text benchmark's 96 pages).
 *
 * Read from a twin of the document opened from the same bytes: PDFium's form environment may write
 * appearances into the document it is given, and the text must be read from the file as it is.
 */

import type { WrappedPdfiumModule } from '@embedpdf/pdfium';

/** FPDF_FORMFIELD_TEXTFIELD (fpdf_formfill.h). */
const TEXT_FIELD = 6;
/** A value read back as this many bytes (UTF-16 NUL) is empty. */
const NO_VALUE_BYTES = 2;

interface FormExports {
  FPDF_LoadPage(doc: number, index: number): number;
  FPDF_ClosePage(page: number): void;
  FPDF_CloseDocument(doc: number): void;
  FPDFPage_CloseAnnot(annot: number): void;
  PDFiumExt_OpenFormFillInfo(): number;
  PDFiumExt_CloseFormFillInfo(info: number): void;
  PDFiumExt_InitFormFillEnvironment(doc: number, info: number): number;
  PDFiumExt_ExitFormFillEnvironment(form: number): void;
  EPDFPage_GetAnnotByObjectNumber(page: number, objectNumber: number): number;
  FPDFAnnot_GetFormFieldType(form: number, annot: number): number;
  FPDFAnnot_GetFormFieldValue(form: number, annot: number, buffer: number, length: number): number;
  malloc(size: number): number;
  free(pointer: number): void;
}

export interface BlankFieldReader {
  /**
   * Of the annotations with these object numbers on page `pageIndex` (from 0), those that are text
   * fields whose value (inherited from their field, as readers take it) is empty or white space.
   * Anything PDFium cannot tell (not a field of the form, a direct object, no twin) is left out.
   */
  blankTextFields(pageIndex: number, objectNumbers: readonly number[]): Set<number>;
  close(): void;
}

interface FormTwin {
  doc: number;
  info: number;
  form: number;
}

/** A reader over the document whose bytes lie at `data` in PDFium's heap; the twin opens on first use. */
export function blankFieldReader(pdfium: WrappedPdfiumModule, data: number, size: number, password: string): BlankFieldReader {
  const api = pdfium.pdfium.wasmExports as unknown as FormExports;
  let twin: FormTwin | undefined;
  let unavailable = false;
  const open = (): FormTwin | undefined => {
    if (twin || unavailable) return twin;
    const doc = pdfium.FPDF_LoadMemDocument(data, size, password);
    const info = doc ? api.PDFiumExt_OpenFormFillInfo() : 0;
    const form = info ? api.PDFiumExt_InitFormFillEnvironment(doc, info) : 0;
    if (!form) {
      if (info) api.PDFiumExt_CloseFormFillInfo(info);
      if (doc) api.FPDF_CloseDocument(doc);
      unavailable = true;
      return undefined;
    }
    twin = { doc, info, form };
    return twin;
  };
  return {
    blankTextFields(pageIndex, objectNumbers) {
      const blank = new Set<number>();
      const opened = objectNumbers.some((n) => n > 0) ? open() : undefined;
      if (!opened) return blank;
      const page = api.FPDF_LoadPage(opened.doc, pageIndex);
      if (!page) return blank;
      try {
        for (const objectNumber of objectNumbers) {
          if (objectNumber <= 0) continue;
          const annot = api.EPDFPage_GetAnnotByObjectNumber(page, objectNumber);
          if (!annot) continue;
          if (api.FPDFAnnot_GetFormFieldType(opened.form, annot) === TEXT_FIELD && isBlank(pdfium, api, opened.form, annot)) blank.add(objectNumber);
          api.FPDFPage_CloseAnnot(annot);
        }
      } finally {
        api.FPDF_ClosePage(page);
      }
      return blank;
    },
    close() {
      if (!twin) return;
      api.PDFiumExt_ExitFormFillEnvironment(twin.form);
      api.PDFiumExt_CloseFormFillInfo(twin.info);
      api.FPDF_CloseDocument(twin.doc);
      twin = undefined;
    },
  };
}

/** Whether the field's value is empty or white space: every line a reader would draw of it is blank. */
function isBlank(pdfium: WrappedPdfiumModule, api: FormExports, form: number, annot: number): boolean {
  const length = api.FPDFAnnot_GetFormFieldValue(form, annot, 0, 0);
  if (length <= NO_VALUE_BYTES) return true;
  const buffer = api.malloc(length);
  if (!buffer) return false;
  try {
    api.FPDFAnnot_GetFormFieldValue(form, annot, buffer, length);
    const heap = (pdfium.pdfium as unknown as { HEAPU8: Uint8Array }).HEAPU8;
    return Buffer.from(heap.subarray(buffer, buffer + length - NO_VALUE_BYTES)).toString('utf16le').trim() === '';
  } finally {
    api.free(buffer);
  }
}
