/**
 * Rows of a table ruled row by row that a rule left out joins: between two rules, each line holds
 * text in every column the others use, and in one column at least the lines were broken by hand
 * (the first word of the next line would have fitted after each), so each line is a row of its
 * own. Text wrapped in every column at the same heights fills each column before it breaks; a
 * cell's text beside others of one line, or a label centred between two lines, leaves columns
 * with fewer lines.
 */

import type { Box } from './geometry.js';

interface Segment extends Box {
  text: string;
}

interface CellLine extends Box {
  segments: Segment[];
}

/** A word space, give or take, in line heights. */
const WORD_SPACE = 0.25;

/** The lines of a row between two rules, each as a row of its own where none is wrapped; else the row as it is. */
export function unwrappedRows<L extends CellLine>(row: readonly L[], columns: readonly { x0: number; x1: number }[]): L[][] {
  if (row.length < 2 || columns.length < 2) return [[...row]];
  const columnOf = (segment: Segment) => {
    const centre = (segment.x0 + segment.x1) / 2;
    return columns.reduce((best, column, i) => (distance(centre, column) < distance(centre, columns[best]!) ? i : best), 0);
  };
  const cells = row.map((line) => columns.map((_, col) => line.segments.filter((segment) => columnOf(segment) === col)));
  const used = columns.map((_, col) => cells.some((line) => line[col]!.length > 0));
  if (used.filter(Boolean).length < 2) return [[...row]];
  if (used.some((inUse, col) => inUse && cells.some((line) => line[col]!.length === 0))) return [[...row]];
  // A column whose lines each had room for the next one's first word was broken by hand, not wrapped.
  const unwrapped = (col: number) =>
    row.slice(0, -1).every((line, k) => {
      const end = Math.max(...cells[k]![col]!.map((segment) => segment.x1));
      const next = cells[k + 1]![col]!.reduce((first, segment) => (segment.x0 < first.x0 ? segment : first));
      const text = next.text.trim();
      const wordWidth = ((next.x1 - next.x0) * [...text.split(/\s+/)[0]!].length) / Math.max(1, [...text].length);
      return end + WORD_SPACE * (line.y1 - line.y0) + wordWidth <= columns[col]!.x1;
    });
  if (!columns.some((_, col) => used[col] && unwrapped(col))) return [[...row]];
  return row.map((line) => [line]);
}

function distance(x: number, column: { x0: number; x1: number }): number {
  return x < column.x0 ? column.x0 - x : x > column.x1 ? x - column.x1 : 0;
}
