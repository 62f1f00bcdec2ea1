/**
 * Headings from font statistics: the body size is the size most characters are set in; a short
 * block set larger is a heading whose level is the rank of its size among the document's larger
 * sizes; a short bold line at body size, on its own, is a heading one level below those.
 */

import type { Line } from './lines.js';

export interface FontStatistics {
  /** The size most characters are set in. */
  bodySize: number;
  /** Sizes of short lines larger than the body size, largest first, near-equal sizes merged. */
  headingSizes: number[];
}

/** Larger than body by this factor, a short block is a heading. */
const LARGER = 1.12;
const MAX_HEADING_CHARS = 200;
export const MAX_HEADING_LINES = 3;
const MAX_BOLD_HEADING_CHARS = 90;

/** Rounds sizes so that 9.96 and 10.02 count as one. */
export function sizeKey(size: number): number {
  return Math.round(size * 2) / 2;
}

/** Body size and heading size ranks from character counts per size and sizes seen on short lines. */
export function fontStatistics(charsBySize: ReadonlyMap<number, number>, shortLineSizes: Iterable<number>): FontStatistics {
  let bodySize = 0;
  let most = -1;
  for (const [size, chars] of charsBySize) {
    if (chars > most || (chars === most && size < bodySize)) {
      most = chars;
      bodySize = size;
    }
  }
  const larger = [...new Set(shortLineSizes)].filter((s) => s >= bodySize * LARGER).sort((a, b) => b - a);
  const headingSizes: number[] = [];
  for (const size of larger) {
    const last = headingSizes[headingSizes.length - 1];
    if (last === undefined || size < last * 0.96) headingSizes.push(size);
  }
  return { bodySize, headingSizes };
}

/**
 * What the document's numbered headings have said so far: the level of its top-level numbered
 * sections ("2 Methods"), so that "2.3 Sampling" is one level below them wherever it is set.
 */
export interface Outline {
  topNumberedLevel?: number;
}

/** "2.3 Methods" -> 2; "Methods" -> undefined. Years and quantities ("2023 results") are no numbering. */
export function numberingDepth(text: string): number | undefined {
  const match = /^(\d{1,2}(?:\.\d{1,2}){0,4})\.?\s+\p{L}/u.exec(text);
  return match ? match[1]!.split('.').length : undefined;
}

/** Math operators: a line holding one between spaces is a formula, not a title. */
const FORMULA = /\s[=<>≤≥≈≠±×÷∈∉⊂⊆∑∏∫√→⇒]\s|[∑∏∫√]/u;
/** A bold line at body size with more words than this is a sentence set bold, not a heading. */
const MAX_BOLD_HEADING_WORDS = 8;

export interface HeadingFacts {
  text: string;
  lines: readonly Line[];
  /** Share of the block's characters in bold, 0-1. */
  boldShare: number;
}

/** The heading level (1-6) of a block, or undefined when it is not a heading. */
export function headingLevel(block: HeadingFacts, stats: FontStatistics, outline: Outline = {}): number | undefined {
  const level = fontLevel(block, stats);
  if (level === undefined) return undefined;
  const depth = numberingDepth(block.text);
  if (depth === undefined) return level;
  if (depth === 1) {
    outline.topNumberedLevel = level;
    return level;
  }
  return Math.min(6, outline.topNumberedLevel === undefined ? level : outline.topNumberedLevel + depth - 1);
}

function fontLevel(block: HeadingFacts, stats: FontStatistics): number | undefined {
  const { text, lines } = block;
  if (lines.length === 0 || lines.length > MAX_HEADING_LINES || text.length > MAX_HEADING_CHARS) return undefined;
  if (!/\p{L}/u.test(text) || text.replace(/[^\p{L}]/gu, '').length < 2) return undefined;
  if (FORMULA.test(text)) return undefined;
  // A line of names (authors, affiliations) is set large but is no heading.
  if ((text.match(/,/g)?.length ?? 0) >= 3) return undefined;
  const size = sizeKey(Math.max(...lines.map((l) => l.fontSize)));
  if (stats.bodySize > 0 && size >= stats.bodySize * LARGER) {
    const rank = stats.headingSizes.findIndex((s) => size >= s * 0.96);
    return Math.min(6, (rank === -1 ? stats.headingSizes.length : rank) + 1);
  }
  const boldHeading =
    lines.length === 1 &&
    block.boldShare >= 0.9 &&
    size >= stats.bodySize * 0.95 &&
    text.length <= MAX_BOLD_HEADING_CHARS &&
    text.split(/\s+/).length <= MAX_BOLD_HEADING_WORDS &&
    !/[.,;:]$/.test(text);
  if (boldHeading) return Math.min(6, stats.headingSizes.length + 1);
  return undefined;
}
