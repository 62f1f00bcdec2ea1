/**
 * The page as the text engine sees it: text runs and ruling lines in PDF points, origin at the
 * page's top-left, y growing downwards (pdf.js's bottom-left coordinates are flipped once, on
 * extraction).
 */

export interface Box {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

/** A stretch of text in one font on one baseline, as pdf.js reports it (one text item). */
export interface TextRun extends Box {
  text: string;
  /** Height of the font's em square on the page, in points. */
  fontSize: number;
  /** The font's PostScript name without its subset prefix, e.g. `Times-Bold`. */
  fontName: string;
  bold: boolean;
  italic: boolean;
  monospace: boolean;
  /** URL of a link annotation covering the run, if any. */
  link?: string;
  /** Frame y of the baseline, where the text layer gives it (not OCR): what places math scripts. */
  baseline?: number;
  /** Inline math read from the run's glyphs, as LaTeX (written `$...$`); `text` keeps the characters as they read. */
  latex?: string;
}

/** A stroked line or a thin filled rectangle, horizontal or vertical: what tables are drawn with. */
export interface Rule extends Box {
  orientation: 'horizontal' | 'vertical';
}

/** An image painted on the page. */
export interface ImagePlacement extends Box {
  /** pdf.js object id, used to fetch the pixels when images are extracted. */
  objectId: string;
}

export interface PageGeometry {
  width: number;
  height: number;
  runs: TextRun[];
  rules: Rule[];
  images: ImagePlacement[];
}

export function boxWidth(box: Box): number {
  return box.x1 - box.x0;
}

export function boxHeight(box: Box): number {
  return box.y1 - box.y0;
}

export function unionBox(boxes: readonly Box[]): Box {
  let x0 = Infinity;
  let y0 = Infinity;
  let x1 = -Infinity;
  let y1 = -Infinity;
  for (const b of boxes) {
    x0 = Math.min(x0, b.x0);
    y0 = Math.min(y0, b.y0);
    x1 = Math.max(x1, b.x1);
    y1 = Math.max(y1, b.y1);
  }
  return { x0, y0, x1, y1 };
}

/** Overlap of two intervals divided by the shorter one's length (0 when disjoint). */
export function overlapRatio(a0: number, a1: number, b0: number, b1: number): number {
  const overlap = Math.min(a1, b1) - Math.max(a0, b0);
  const shorter = Math.min(a1 - a0, b1 - b0);
  return overlap <= 0 || shorter <= 0 ? 0 : overlap / shorter;
}
