/** The text under a link, from a page's characters (PDFium's reading; pdf.js computes its own). */

import type { PageChar } from './char-items.js';

/** How far above its baseline (font sizes) a glyph's middle is taken to be. */
const GLYPH_MIDDLE = 0.3;

/**
 * The text a link's rectangle [x0, y0, x1, y1] overlays, as pdf.js gives a link's `overlaidText`:
 * the characters whose middle lies inside it, in order, with the spaces between
 * neighbours that both are.
 */
export function overlaidText(chars: readonly PageChar[], rect: readonly [number, number, number, number]): string {
  const [x0, y0, x1, y1] = rect;
  let text = '';
  let gap = '';
  let inside = false;
  for (const char of chars) {
    if (char.generated) {
      if (inside && /\s/.test(char.text)) gap = ' ';
      continue;
    }
    const run = Math.hypot(char.a, char.b) || 1;
    const size = Math.hypot(char.c, char.d) || run;
    const mx = char.x + (char.a / run) * (char.advance / 2) + (char.c / size) * GLYPH_MIDDLE * size;
    const my = char.y + (char.b / run) * (char.advance / 2) + (char.d / size) * GLYPH_MIDDLE * size;
    // As pdf.js's intersector: spaces only between glyphs that are both inside.
    const isInside = mx >= x0 && mx <= x1 && my >= y0 && my <= y1;
    if (isInside) text += (inside ? gap : '') + char.text;
    inside = isInside;
    gap = '';
  }
  return text.trim();
}
