/**
 * What the engine remembers about a page it has read, for its neighbours: signatures of the lines
 * in its top and bottom bands (running headers) and its font size statistics (body size, heading
 * sizes). Small on purpose: a few hundred bytes per page.
 */

import type { TextRun } from './geometry.js';
import { sizeKey } from './headings.js';
import { lineText } from './inline-markdown.js';
import type { Line } from './lines.js';
import { bandOf, contentExtent, toBandLine, type BandLine } from './running-text.js';

export interface PageSummary {
  bandLines: BandLine[];
  charsBySize: Map<number, number>;
  /** Sizes of lines short enough to be headings. */
  shortLineSizes: Set<number>;
}

const SHORT_LINE_CHARS = 120;

export function summarisePage(runs: readonly TextRun[], fragments: readonly Line[], pageHeight: number): PageSummary {
  const charsBySize = new Map<number, number>();
  for (const run of runs) {
    const size = sizeKey(run.fontSize);
    charsBySize.set(size, (charsBySize.get(size) ?? 0) + run.text.trim().length);
  }
  const bandLines: BandLine[] = [];
  const shortLineSizes = new Set<number>();
  const content = contentExtent(fragments);
  for (const fragment of fragments) {
    const band = bandOf(fragment, pageHeight, content);
    const text = band || fragment.runs.length < 8 ? lineText(fragment) : '';
    if (band) bandLines.push(toBandLine(text, fragment, band));
    if (text && text.length <= SHORT_LINE_CHARS) shortLineSizes.add(sizeKey(fragment.fontSize));
  }
  return { bandLines, charsBySize, shortLineSizes };
}
