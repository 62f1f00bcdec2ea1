/**
 * Synthetic runs for the layout modules' unit tests: text set in a 10pt font whose glyphs are all
 * half an em wide, so a test can place words by character counts.
 */

import type { TextRun } from './geometry.js';
import { makeLine, type Line } from './lines.js';

export interface RunStyle {
  size?: number;
  bold?: boolean;
  italic?: boolean;
  monospace?: boolean;
  link?: string;
}

export function textRun(text: string, x0: number, y0: number, style: RunStyle = {}): TextRun {
  const size = style.size ?? 10;
  const run: TextRun = {
    text,
    x0,
    y0,
    x1: x0 + text.length * size * 0.5,
    y1: y0 + size,
    fontSize: size,
    fontName: style.monospace ? 'Courier' : style.bold ? 'Times-Bold' : 'Times-Roman',
    bold: style.bold ?? false,
    italic: style.italic ?? false,
    monospace: style.monospace ?? false,
  };
  if (style.link) run.link = style.link;
  return run;
}

/** Runs written one after another on one baseline, separated by a space's width. */
export function lineOf(x0: number, y0: number, ...parts: (string | [string, RunStyle])[]): Line {
  const runs: TextRun[] = [];
  let x = x0;
  for (const part of parts) {
    const [text, style] = typeof part === 'string' ? [part, {}] : part;
    const run = textRun(text, x, y0, style);
    runs.push(run);
    x = run.x1 + (style.size ?? 10) * 0.25;
  }
  return makeLine(runs);
}
