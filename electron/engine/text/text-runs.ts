/**
 * pdf.js text items and fonts -> text runs in the page frame (top-left origin, y down, reading left
 * to right). Runs that do not run along the frame's reading direction (axis labels, margin notes
 * set sideways, diagonal watermarks) are left out: laid out with the rest they would only scramble it.
 */

import { composeAccentsAcrossRuns, composeAccents } from './accents.js';
import type { FontFacts } from './font-facts.js';
import { mathFontClass, visibleExtensionSlots } from './math-glyphs.js';
import type { TextRun } from '../layout/geometry.js';
import type { Matrix } from './affine.js';
import { applyMatrix, directionQuadrant } from './page-frame.js';

/** The parts of pdf.js's `TextItem` that we read. */
export interface TextItemLike {
  str: string;
  transform: number[];
  width: number;
  fontName: string;
}

/** The parts of pdf.js's text style (`textContent.styles[fontName]`) that we read. */
export interface TextStyleLike {
  fontFamily: string;
  ascent: number;
  descent: number;
}

export interface TextContentLike {
  items: readonly (TextItemLike | { type: string })[];
  styles: Record<string, TextStyleLike>;
}

const DEFAULT_ASCENT = 0.8;
const DEFAULT_DESCENT = -0.2;

function isTextItem(item: TextItemLike | { type: string }): item is TextItemLike {
  return typeof (item as TextItemLike).str === 'string';
}

/**
 * Text as a reader would copy it: the Symbol-font bullet in the private use area becomes `•`,
 * other private-use glyphs, replacement characters and control characters are dropped.
 */
export function cleanText(text: string): string {
  return text
    .replace(/\uF0B7|\uF0A7|\uF06C/g, '•')
    .replace(/[\u0000-\u0008\u000B-\u001F\u007F\uFFFD\uE000-\uF8FF]/g, '')
    .replace(/[\t\n\r\u00A0\u2000-\u200A\u202F\u205F\u3000]/g, ' ');
}

/** The dominant reading direction in page coordinates, weighted by characters (0 right, 1 down, 2 left, 3 up). */
export function dominantQuadrant(content: TextContentLike, viewportTransform: Matrix): number {
  const weight = [0, 0, 0, 0];
  for (const item of content.items) {
    if (!isTextItem(item) || !item.str.trim()) continue;
    const [a = 1, b = 0] = item.transform;
    const dx = viewportTransform[0] * a + viewportTransform[2] * b;
    const dy = viewportTransform[1] * a + viewportTransform[3] * b;
    const q = directionQuadrant(dx, dy);
    weight[q] = (weight[q] ?? 0) + item.str.length;
  }
  let best = 0;
  for (let q = 1; q < 4; q++) if ((weight[q] ?? 0) > (weight[best] ?? 0)) best = q;
  return best;
}

/**
 * @param fromUser PDF user space to frame coordinates.
 * @param fontFacts looks up a font by pdf.js's loaded name and the style's family.
 */
export function readTextRuns(
  content: TextContentLike,
  fromUser: Matrix,
  fontFacts: (loadedName: string, fontFamily: string) => FontFacts,
): TextRun[] {
  const runs: TextRun[] = [];
  for (const item of content.items) {
    if (!isTextItem(item)) continue;
    const style = content.styles[item.fontName];
    const facts = fontFacts(item.fontName, style?.fontFamily ?? 'sans-serif');
    const text = composeAccents(cleanText(mathFontClass(facts.name) === 'extension' ? visibleExtensionSlots(item.str) : item.str));
    if (!text.trim()) continue;
    const [a = 1, b = 0, c = 0, d = 1, e = 0, f = 0] = item.transform;
    // Direction of the baseline in the frame; runs not reading left to right are set aside.
    const dx = fromUser[0] * a + fromUser[2] * b;
    const dy = fromUser[1] * a + fromUser[3] * b;
    // Skewed text (a diagonal watermark, a rotated stamp) is no part of the reading flow either.
    if (directionQuadrant(dx, dy) !== 0 || Math.abs(dy) > 0.1 * Math.abs(dx)) continue;
    const ascent = style && style.ascent > 0 ? style.ascent : DEFAULT_ASCENT;
    const descent = style && style.descent < 0 ? style.descent : DEFAULT_DESCENT;
    const fontSize = Math.hypot(c, d) || Math.hypot(a, b);
    if (!(fontSize > 0) || !Number.isFinite(fontSize)) continue;
    const runLength = Math.hypot(a, b) || 1;
    const ux = a / runLength;
    const uy = b / runLength;
    // Normal to the baseline in user space (pointing up), scaled by the font size.
    const nx = -uy * fontSize;
    const ny = ux * fontSize;
    const width = Number.isFinite(item.width) && item.width > 0 ? item.width : fontSize * 0.5 * text.length;
    const endX = e + ux * width;
    const endY = f + uy * width;
    const corners = [
      applyMatrix(fromUser, e + nx * descent, f + ny * descent),
      applyMatrix(fromUser, e + nx * ascent, f + ny * ascent),
      applyMatrix(fromUser, endX + nx * descent, endY + ny * descent),
      applyMatrix(fromUser, endX + nx * ascent, endY + ny * ascent),
    ];
    const xs = corners.map((p) => p[0]);
    const ys = corners.map((p) => p[1]);
    runs.push({
      text,
      x0: Math.min(...xs),
      y0: Math.min(...ys),
      x1: Math.max(...xs),
      y1: Math.max(...ys),
      fontSize,
      fontName: facts.name,
      bold: facts.bold,
      italic: facts.italic,
      monospace: facts.monospace,
      baseline: applyMatrix(fromUser, e, f)[1],
    });
  }
  return composeAccentsAcrossRuns(runs);
}
