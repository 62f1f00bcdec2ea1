/**
 * Line numbers printed in a page's side margin (LaTeX's lineno, review copies, legal pleadings): a
 * column of bare numbers, aligned on one edge, counting up down the page, set smaller than the body
 * and wholly outside the text block beside it. They number the printed lines, never say anything.
 */

import { dominantFontSize, type Line } from './lines.js';
import { lineText } from './inline-markdown.js';

/** Fewer numbers than this are a short list or a table's few rows, not a page's line count. */
const MIN_NUMBERS = 5;
/** Numbers of one column share their left or right edge within this (points). */
const EDGE_TOLERANCE = 2;
/** Line numbers are set at most this share of the body size. */
const SMALLER = 0.9;
/** Numbering every line or every fifth or tenth; a larger usual step is not a count of lines. */
const MAX_STEP = 10;

const BARE_NUMBER = /^\d{1,5}$/;

/**
 * The lines that are margin line numbers. A column counts when its numbers increase down the page,
 * and no other line of the page reaches into the margin the column stands in (left of the text
 * block, or right of it). The body size is the other lines': on a short last page the numbers
 * down its whole margin can outnumber the characters of its text.
 */
export function marginLineNumbers(lines: readonly Line[]): Set<Line> {
  const bare = lines.filter((line) => BARE_NUMBER.test(lineText(line).trim()));
  const found = new Set<Line>();
  if (bare.length < MIN_NUMBERS) return found;
  const bareSet = new Set(bare);
  const bodySize = dominantFontSize(lines.filter((line) => !bareSet.has(line)).flatMap((line) => line.runs));
  const numbers = bare.filter((line) => line.fontSize <= bodySize * SMALLER);
  if (numbers.length < MIN_NUMBERS) return found;
  for (const column of [...alignedColumns(numbers, (l) => l.x1), ...alignedColumns(numbers, (l) => l.x0)]) {
    if (column.some((line) => found.has(line)) || !counts(column)) continue;
    const members = new Set(column);
    const others = lines.filter((line) => !members.has(line) && !found.has(line));
    if (others.length === 0) continue;
    const left = Math.max(...column.map((l) => l.x1));
    const right = Math.min(...column.map((l) => l.x0));
    const inLeftMargin = others.every((line) => line.x0 > left);
    const inRightMargin = others.every((line) => line.x1 < right);
    if (inLeftMargin || inRightMargin) for (const line of column) found.add(line);
  }
  return found;
}

/** Groups of at least MIN_NUMBERS lines sharing an edge (`edge` of each), top to bottom. */
function alignedColumns(numbers: readonly Line[], edge: (line: Line) => number): Line[][] {
  const sorted = [...numbers].sort((a, b) => edge(a) - edge(b));
  const columns: Line[][] = [];
  let current: Line[] = [];
  for (const line of sorted) {
    if (current.length > 0 && edge(line) - edge(current[0]!) > EDGE_TOLERANCE) {
      columns.push(current);
      current = [];
    }
    current.push(line);
  }
  columns.push(current);
  return columns.filter((column) => column.length >= MIN_NUMBERS).map((column) => column.sort((a, b) => a.y0 - b.y0));
}

/** The numbers rise strictly down the column, by steps no larger than a line count's. */
function counts(column: readonly Line[]): boolean {
  const values = column.map((line) => Number(lineText(line).trim()));
  for (let i = 1; i < values.length; i++) {
    const step = values[i]! - values[i - 1]!;
    if (step <= 0 || step > MAX_STEP) return false;
  }
  return true;
}
