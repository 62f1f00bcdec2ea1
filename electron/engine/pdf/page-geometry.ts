/**
 * A page's visible area and turn as pdf.js decides them, from what PDFium reads, so that a document
 * PDFium reads alone lays out on the same frame as with pdf.js (docs/text-engine-speed.md).
 */

/** The page's view box in PDF user space, [x0, y0, x1, y1] normalised, and its turn in degrees (0, 90, 180, 270). */
export interface PageGeometry {
  view: [number, number, number, number];
  rotate: number;
}

/** What pdf.js's `page.getViewport({ scale: 1 })` gives for this geometry (pdf.js's PageViewport, at a user unit of 1). */
export function viewportOf({ view, rotate }: PageGeometry): { transform: number[]; width: number; height: number } {
  const centerX = (view[2] + view[0]) / 2;
  const centerY = (view[3] + view[1]) / 2;
  const [a, b, c, d] = rotate === 90 ? [0, 1, 1, 0] : rotate === 180 ? [-1, 0, 0, 1] : rotate === 270 ? [0, -1, -1, 0] : [1, 0, 0, -1];
  const turned = a === 0;
  const offsetX = turned ? Math.abs(centerY - view[1]) : Math.abs(centerX - view[0]);
  const offsetY = turned ? Math.abs(centerX - view[0]) : Math.abs(centerY - view[1]);
  const width = turned ? view[3] - view[1] : view[2] - view[0];
  const height = turned ? view[2] - view[0] : view[3] - view[1];
  return { transform: [a, b, c, d, offsetX - a * centerX - c * centerY, offsetY - b * centerX - d * centerY], width, height };
}

/**
 * The number a PDF wrote, from PDFium's 32-bit float of it: the shortest decimal that reads back as
 * that float (PDFs write coordinates with a few digits; pdf.js keeps them as 64-bit numbers).
 */
export function writtenNumber(float32: number): number {
  for (let digits = 1; digits <= 9; digits++) {
    const written = Number(float32.toPrecision(digits));
    if (Math.fround(written) === float32) return written;
  }
  return float32;
}
