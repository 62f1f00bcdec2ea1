/**
 * Rows of a table ruled row by row that a rule left out joins: between two rules, each line holds
 * text in every column the others use, and a row ends after a line where one column at least was
 * broken by hand (the first word of its next line would have fitted after it). Text wrapped in
 * every column fills each before it breaks; a cell's text beside others of one line, or a label
 * centred between two lines, leaves columns with fewer lines, and the lines stay one row.
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

/** The lines of a row between two rules parted into the rows they print; the row as it is where they print one. */
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
  // Where a column's line had room for the next one's first word, it was broken by hand: a row ends there.
  const roomy = (col: number, k: number) => {
    const end = Math.max(...cells[k]![col]!.map((segment) => segment.x1));
    const next = cells[k + 1]![col]!.reduce((first, segment) => (segment.x0 < first.x0 ? segment : first));
    const text = next.text.trim();
    const wordWidth = ((next.x1 - next.x0) * [...text.split(/\s+/)[0]!].length) / Math.max(1, [...text].length);
    return end + WORD_SPACE * (row[k]!.y1 - row[k]!.y0) + wordWidth <= columns[col]!.x1;
  };
  const rows: L[][] = [[row[0]!]];
  for (let k = 0; k + 1 < row.length; k++) {
    if (columns.some((_, col) => used[col] && roomy(col, k))) rows.push([]);
    rows[rows.length - 1]!.push(row[k + 1]!);
  }
  return rows;
}

function distance(x: number, column: { x0: number; x1: number }): number {
  return x < column.x0 ? column.x0 - x : x > column.x1 ? x - column.x1 : 0;
}
