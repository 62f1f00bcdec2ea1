// Placeholder until drawing extraction lands (being written now).
import type { PDFOperatorList, PageViewport } from 'pdfjs-dist/legacy/build/pdf.mjs';
import type { ImagePlacement, Rule } from './geometry.js';

export function readDrawing(_ops: PDFOperatorList, _viewport: PageViewport): { rules: Rule[]; images: ImagePlacement[] } {
  return { rules: [], images: [] };
}
