// Placeholder until drawing extraction lands (being written now).
import type { PageViewport, PDFPageProxy } from 'pdfjs-dist/legacy/build/pdf.mjs';
import type { ImagePlacement, Rule } from './geometry.js';

export type OperatorList = Awaited<ReturnType<PDFPageProxy['getOperatorList']>>;

export function readDrawing(_ops: OperatorList, _viewport: PageViewport): { rules: Rule[]; images: ImagePlacement[] } {
  return { rules: [], images: [] };
}
