/**
 * Annotations that show text but carry no appearance of their own: a text box with only its
 * `/Contents`, the fields of a form that asks the reader to draw them (`/NeedAppearances`). A
 * reader draws them from their values, as pdftotext does; here they become text items at the top
 * left of their rectangles, read with the page's own text. The values come from pdf.js's
 * annotation data; which annotations lack an appearance, from PDFium (pdfium-text.ts).
 */

import type { TextContentLike, TextItemLike } from './text-runs.js';

/** The parts of pdf.js's annotation data read here. */
export interface AnnotationDataLike {
  subtype?: string;
  rect?: number[];
  /** A text box's lines (from its `/Contents` when it has no appearance). */
  textContent?: string[] | null;
  fieldType?: string;
  fieldValue?: unknown;
  password?: boolean;
  options?: { exportValue?: unknown; displayValue?: unknown }[];
  defaultAppearanceData?: { fontSize?: number };
}

type Rect = readonly [number, number, number, number];

const FONT = 'unpainted-annotation';
/** Inside the rectangle's edge, points, as viewers draw a field's text. */
const PADDING = 2;
const LINE_PITCH = 1.2;
/** A field whose font size is automatic (0) is drawn at most this large. */
const AUTO_SIZE_MAX = 12;
/** Two readers' rectangles of one annotation agree within this, points, each edge. */
const SAME_RECT = 1;

/** Text items for the annotations of `annotations` whose rectangles are among `unpainted`. */
export function unpaintedAnnotationText(annotations: readonly AnnotationDataLike[], unpainted: readonly Rect[]): TextContentLike {
  const items: TextItemLike[] = [];
  for (const annotation of annotations) {
    const rect = normalised(annotation.rect);
    if (!rect || !unpainted.some((other) => sameRect(rect, other))) continue;
    const lines = shownLines(annotation);
    if (lines.length === 0) continue;
    const [x0, , x1, y1] = rect;
    const given = annotation.defaultAppearanceData?.fontSize ?? 0;
    const size = given > 0 ? given : Math.max(1, Math.min(AUTO_SIZE_MAX, (rect[3] - rect[1] - 2 * PADDING) / (LINE_PITCH * lines.length)));
    lines.forEach((line, i) => {
      const baseline = y1 - PADDING - size * (0.8 + LINE_PITCH * i);
      // pdf.js's width of the text is unknown here; half an em a character, kept inside the rectangle
      const width = Math.max(size, Math.min(line.length * size * 0.5, x1 - x0 - 2 * PADDING));
      items.push({ str: line, transform: [size, 0, 0, size, x0 + PADDING, baseline], width, fontName: FONT });
    });
  }
  return { items, styles: { [FONT]: { fontFamily: 'sans-serif', ascent: 0.8, descent: -0.2 } } };
}

/** What a reader draws in the annotation: a text box's lines, a text field's value, a choice field's chosen options. */
function shownLines(annotation: AnnotationDataLike): string[] {
  let text: string[] = [];
  if (annotation.subtype === 'FreeText') text = annotation.textContent ?? [];
  else if (annotation.fieldType === 'Tx' && !annotation.password && typeof annotation.fieldValue === 'string') text = annotation.fieldValue.split(/\r\n?|\n/);
  else if (annotation.fieldType === 'Ch') {
    const chosen = Array.isArray(annotation.fieldValue) ? annotation.fieldValue : [annotation.fieldValue];
    text = chosen.filter((value): value is string => typeof value === 'string').map((value) => displayed(annotation, value));
  }
  return text.map((line) => line.trim()).filter((line) => line.length > 0);
}

/** A choice's text as the list shows it, where the field stores another value for it. */
function displayed(annotation: AnnotationDataLike, value: string): string {
  const option = annotation.options?.find((o) => o.exportValue === value);
  return typeof option?.displayValue === 'string' ? option.displayValue : value;
}

function normalised(rect: readonly number[] | undefined): Rect | undefined {
  if (!rect || rect.length !== 4 || !rect.every(Number.isFinite)) return undefined;
  const [a, b, c, d] = rect as [number, number, number, number];
  return [Math.min(a, c), Math.min(b, d), Math.max(a, c), Math.max(b, d)];
}

function sameRect(a: Rect, b: Rect): boolean {
  return a.every((value, i) => Math.abs(value - b[i]!) <= SAME_RECT);
}
