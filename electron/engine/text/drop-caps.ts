/**
 * Drop caps: a paragraph's first letter set several lines tall beside its first lines. Left as a
 * run of its own it shares a row with two or three lines and joins them into one ("W inter ...
 * thefirst"); it belongs at the start of the topmost line beside it. A math font's big glyph (the
 * extension font's display integral is its slot `Z`) beside its limits is no drop cap.
 */

import type { TextRun } from '../layout/geometry.js';
import { isMathOnlyFont, mathFontClass } from './math-glyphs.js';

/** At least this many times the size of the text beside it. */
const MIN_SCALE = 2;

export function attachDropCaps(runs: readonly TextRun[]): TextRun[] {
  const result = [...runs];
  for (const cap of runs) {
    if (!/^\p{Lu}$/u.test(cap.text.trim()) || isMathOnlyFont(mathFontClass(cap.fontName))) continue;
    let first: TextRun | undefined;
    for (const run of result) {
      if (run === cap || run.fontSize * MIN_SCALE > cap.fontSize) continue;
      const centre = (run.y0 + run.y1) / 2;
      const beside = run.x0 >= cap.x1 - 0.1 * cap.fontSize && run.x0 <= cap.x1 + 2 * run.fontSize;
      if (!beside || centre < cap.y0 || centre > cap.y1) continue;
      if (!first || run.y0 < first.y0 || (run.y0 === first.y0 && run.x0 < first.x0)) first = run;
    }
    if (!first || !/^\p{Ll}/u.test(first.text)) continue;
    result[result.indexOf(first)] = { ...first, text: cap.text.trim() + first.text, x0: cap.x0 };
    result.splice(result.indexOf(cap), 1);
  }
  return result;
}
