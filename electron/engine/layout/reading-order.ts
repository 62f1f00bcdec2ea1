/**
 * Reading order by recursive cuts along whitespace (XY-cut), made robust for columns: the page is
 * cut into horizontal strips, consecutive strips that share a vertical gutter are grouped, and each
 * group with a gutter is split into columns read left to right. A full-width title or figure above,
 * between or below the columns stops a group, so columns are never interleaved with each other.
 */

import type { Box } from './geometry.js';

interface Interval {
  x0: number;
  x1: number;
}

interface Group<T extends Box> {
  elements: T[];
  covered: Interval[];
  y0: number;
  y1: number;
}

/** Gutters narrower than this many ems are word or cell spacing, not columns. */
const GUTTER_EM = 0.8;
/** A gutter in something about one line tall must be this wide to count (a page header's left and right parts). */
const SINGLE_LINE_GUTTER_EM = 3;
const MAX_DEPTH = 12;
/**
 * Columns of prose are wide and filled with long lines; narrow columns of short pieces are the
 * columns of a table or a form, read row by row instead.
 */
const SHORT_PIECE_EM = 6;
const NARROW_COLUMN_EM = 12;

function mergeIntervals(intervals: Interval[]): Interval[] {
  const sorted = [...intervals].sort((a, b) => a.x0 - b.x0);
  const merged: Interval[] = [];
  for (const interval of sorted) {
    const last = merged[merged.length - 1];
    if (last && interval.x0 <= last.x1) last.x1 = Math.max(last.x1, interval.x1);
    else merged.push({ ...interval });
  }
  return merged;
}

/** Interior gaps of the covered x-ranges at least `minWidth` wide, as their midpoints. */
function gutters(covered: readonly Interval[], minWidth: number): number[] {
  const result: number[] = [];
  for (let i = 1; i < covered.length; i++) {
    const gap = covered[i]!.x0 - covered[i - 1]!.x1;
    if (gap >= minWidth) result.push((covered[i]!.x0 + covered[i - 1]!.x1) / 2);
  }
  return result;
}

/** The gutters a group is split at: a group about one line tall needs a wide one (a header's two ends). */
function columnCuts<T extends Box>(group: Group<T>, em: number): number[] {
  const singleLine = group.y1 - group.y0 < 2.5 * em;
  return gutters(group.covered, (singleLine ? SINGLE_LINE_GUTTER_EM : GUTTER_EM) * em);
}

function horizontalStrips<T extends Box>(elements: readonly T[], em: number): Group<T>[] {
  const sorted = [...elements].sort((a, b) => a.y0 - b.y0 || a.x0 - b.x0);
  const strips: Group<T>[] = [];
  let current: Group<T> | undefined;
  for (const element of sorted) {
    // Touching ascenders and descenders of consecutive lines do not join them into one strip.
    if (!current || element.y0 > current.y1 - 0.15 * em) {
      current = { elements: [], covered: [], y0: element.y0, y1: element.y1 };
      strips.push(current);
    }
    current.elements.push(element);
    current.y1 = Math.max(current.y1, element.y1);
  }
  for (const strip of strips) {
    strip.covered = mergeIntervals(strip.elements.map((e) => ({ x0: e.x0, x1: e.x1 })));
  }
  return strips;
}

function mergeGroups<T extends Box>(into: Group<T>, other: Group<T>): void {
  into.elements.push(...other.elements);
  into.covered = mergeIntervals([...into.covered, ...other.covered]);
  into.y1 = Math.max(into.y1, other.y1);
}

/**
 * Consecutive strips that keep a common gutter form a group; strips without any form plain
 * groups. A one-line group whose only gaps are word-sized is plain too (a justified line with a
 * wide space), so that it does not cut a paragraph in three.
 */
function groupStrips<T extends Box>(strips: readonly Group<T>[], em: number): Group<T>[] {
  const minGutter = GUTTER_EM * em;
  const groups: Group<T>[] = [];
  let current: Group<T> | undefined;
  for (const strip of strips) {
    if (!current) {
      current = { ...strip, elements: [...strip.elements] };
      continue;
    }
    const joined = gutters(mergeIntervals([...current.covered, ...strip.covered]), minGutter).length > 0;
    const bothPlain = gutters(current.covered, minGutter).length === 0 && gutters(strip.covered, minGutter).length === 0;
    if (joined || bothPlain) {
      mergeGroups(current, strip);
    } else {
      groups.push(current);
      current = { ...strip, elements: [...strip.elements] };
    }
  }
  if (current) groups.push(current);
  const merged: Group<T>[] = [];
  for (const group of groups) {
    const last = merged[merged.length - 1];
    if (last && columnCuts(last, em).length === 0 && columnCuts(group, em).length === 0) mergeGroups(last, group);
    else merged.push(group);
  }
  return merged;
}

function medianWidth(elements: readonly Box[]): number {
  const widths = elements.map((e) => e.x1 - e.x0).sort((a, b) => a - b);
  return widths[Math.floor(widths.length / 2)] ?? 0;
}

/**
 * Columns have text beside each other; blocks that only alternate sides (a letter's sender and
 * recipient addresses) share no strip and are read top to bottom.
 */
function sideBySide<T extends Box>(group: Group<T>, cut: number, em: number): boolean {
  const strips = horizontalStrips(group.elements, em);
  const needed = strips.length < 4 ? 1 : 2;
  let shared = 0;
  for (const strip of strips) {
    const left = strip.elements.some((e) => e.x1 <= cut);
    const right = strip.elements.some((e) => e.x0 >= cut);
    if (left && right && ++shared >= needed) return true;
  }
  return false;
}

function tabular<T extends Box>(group: Group<T>, cuts: readonly number[], em: number): boolean {
  const first = group.covered[0];
  const last = group.covered[group.covered.length - 1];
  if (!first || !last) return false;
  const meanColumn = (last.x1 - first.x0) / (cuts.length + 1);
  return meanColumn < NARROW_COLUMN_EM * em && medianWidth(group.elements) < SHORT_PIECE_EM * em;
}

function centreX(box: Box): number {
  return (box.x0 + box.x1) / 2;
}

function cut<T extends Box>(elements: readonly T[], em: number, depth: number, leaves: T[][]): void {
  if (elements.length <= 1 || depth > MAX_DEPTH) {
    if (elements.length > 0) leaves.push([...elements]);
    return;
  }
  for (const group of groupStrips(horizontalStrips(elements, em), em)) {
    const cuts = columnCuts(group, em).filter((x) => sideBySide(group, x, em));
    if (cuts.length === 0 || tabular(group, cuts, em)) {
      leaves.push(group.elements);
      continue;
    }
    const columns: T[][] = cuts.map(() => []);
    columns.push([]);
    for (const element of group.elements) {
      const index = cuts.findIndex((x) => centreX(element) < x);
      columns[index === -1 ? cuts.length : index]!.push(element);
    }
    for (const column of columns) cut(column, em, depth + 1, leaves);
  }
}

/**
 * Splits elements into leaves (columns or full-width stretches) in reading order.
 * @param em the body text size, which scales what counts as a gutter.
 */
export function readingOrder<T extends Box>(elements: readonly T[], em: number): T[][] {
  const leaves: T[][] = [];
  cut(elements, Math.max(em, 1), 0, leaves);
  return leaves;
}
