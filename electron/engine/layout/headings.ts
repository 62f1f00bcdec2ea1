/**
 * Headings from font statistics: the body size is the size most characters are set in; a short
 * block set larger is a heading whose level is the rank of its size among the document's larger
 * sizes; a short bold line at body size, on its own, is a heading one level below those. A block
 * that reads as prose (a sentence of many words, lines that run to the column's edge and wrap) is
 * no heading unless it is set as large as a title: on a page of footnote-size references, the body
 * size is the references', and a paragraph of ordinary text is larger than that but no heading.
 */

import type { Line } from './lines.js';

export interface FontStatistics {
  /** The size most characters are set in. */
  bodySize: number;
  /** Sizes of short lines larger than the body size, largest first, near-equal sizes merged. */
  headingSizes: number[];
  /**
   * Sizes larger than the body size that carry a large share of the text (body text beside a
   * page of smaller references or footnotes): text, not headings, is set in them.
   */
  textSizes?: number[];
}

/** Larger than body by this factor, a short block is a heading. */
const LARGER = 1.12;
const MAX_HEADING_CHARS = 200;
export const MAX_HEADING_LINES = 3;
const MAX_BOLD_HEADING_CHARS = 90;
/**
 * A larger size with at least this share of the body size's characters, and more than two of the
 * longest headings could hold (a short page's title can have a third of its characters), is a
 * second text size.
 */
const TEXT_SIZE_SHARE = 0.3;
const TEXT_SIZE_MIN_CHARS = 2 * MAX_HEADING_CHARS;
/** Set this much larger than the body, a block is a title whatever it reads like. */
const TITLE = 1.5;

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
  const textSizes = [...charsBySize]
    .filter(([size, chars]) => size >= bodySize * LARGER && chars >= most * TEXT_SIZE_SHARE && chars > TEXT_SIZE_MIN_CHARS)
    .map(([size]) => size)
    .sort((a, b) => b - a);
  const larger = [...new Set(shortLineSizes)]
    .filter((s) => s >= bodySize * LARGER && !isTextSize(s, textSizes))
    .sort((a, b) => b - a);
  const headingSizes: number[] = [];
  for (const size of larger) {
    const last = headingSizes[headingSizes.length - 1];
    if (last === undefined || size < last * 0.96) headingSizes.push(size);
  }
  return { bodySize, headingSizes, ...(textSizes.length > 0 && { textSizes }) };
}

function isTextSize(size: number, textSizes: readonly number[] | undefined): boolean {
  return textSizes?.some((t) => Math.abs(size - t) <= 0.04 * t) ?? false;
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
  /** A line before the last runs to the column's right edge and the next goes on at its left: wrapped prose. */
  wraps?: boolean;
}

/** Ends as a sentence does: a full stop or exclamation mark, perhaps inside a closing quote or bracket. */
const SENTENCE_END = /[.!]["'”’)\]]*$/u;
/** A sentence of this many words, ended with a full stop, is prose at any size below a title's. */
const SENTENCE_WORDS = 6;
/** ... in bold, of this many; */
const BOLD_SENTENCE_WORDS = 10;
/** ... and of this many, prose even at a title's size. */
const LONG_SENTENCE_WORDS = 12;

/** Reads as prose rather than as a title: a sentence of many words, or wrapped lines of plain text. */
function readsAsProse(block: HeadingFacts, title: boolean): boolean {
  const words = block.text.replace(/^\d{1,2}(?:\.\d{1,2}){0,4}\.?\s+/u, '').split(/\s+/).filter(Boolean).length;
  if (SENTENCE_END.test(block.text)) {
    if (words >= LONG_SENTENCE_WORDS) return true;
    if (!title && words >= (block.boldShare >= 0.9 ? BOLD_SENTENCE_WORDS : SENTENCE_WORDS)) return true;
  }
  return !title && block.wraps === true && block.boldShare < 0.9;
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

/** Pieces of a line this far apart (in ems) are cells of a row or a form, not words of a title... */
const CELL_APART_EM = 2;
/** ...unless what stands before the gap is a heading's number ("1.", "§2", "A.3", "Chapter 4"). */
const NUMBER_BEFORE_TITLE = /^(?:§\s*)?(?:(?:Chapter|Section|Part|Appendix)\s+)?(?:\d{1,2}|[A-Z]|[IVXL]{1,5})(?:\.\d{1,2}){0,4}\.?$/u;

/** A line whose text stands in pieces far apart: a table's row ("Item ... Cost") or a page's foot. */
function setApartInCells(line: Line): boolean {
  const runs = [...line.runs].filter((run) => run.text.trim()).sort((a, b) => a.x0 - b.x0);
  for (let i = 1; i < runs.length; i++) {
    if (runs[i]!.x0 - runs[i - 1]!.x1 < CELL_APART_EM * line.fontSize) continue;
    const before = runs.slice(0, i).map((run) => run.text).join('').trim();
    if (!NUMBER_BEFORE_TITLE.test(before)) return true;
  }
  return false;
}

function fontLevel(block: HeadingFacts, stats: FontStatistics): number | undefined {
  const { text, lines } = block;
  if (lines.length === 0 || lines.length > MAX_HEADING_LINES || text.length > MAX_HEADING_CHARS) return undefined;
  if (!/\p{L}/u.test(text) || text.replace(/[^\p{L}]/gu, '').length < 2) return undefined;
  if (FORMULA.test(text) || lines.some(setApartInCells)) return undefined;
  // A line of names (authors, affiliations) is set large but is no heading.
  if ((text.match(/,/g)?.length ?? 0) >= 3) return undefined;
  const size = sizeKey(Math.max(...lines.map((l) => l.fontSize)));
  if (readsAsProse(block, stats.bodySize > 0 && size >= stats.bodySize * TITLE)) return undefined;
  if (stats.bodySize > 0 && size >= stats.bodySize * LARGER && !isTextSize(size, stats.textSizes)) {
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
