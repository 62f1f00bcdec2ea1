/**
 * A ruled header row drawn as a grid of its own above a ruled body: its rules do not touch the
 * body's (a double rule between them), and it draws fewer columns (a heading over the label
 * column and a column of units beside it). Its column boundaries are some of the body's: each
 * heading spans the body columns between its boundaries.
 */

import type { TableCell, TableGrid } from '../../../shared/table-markdown.js';
import type { Box } from './geometry.js';

/** Boundaries this close (points) are one; a header this close above the body (in its heights) heads it. */
const SAME_BOUNDARY = 3;
const MAX_GAP_ROWS = 1.5;

export interface GridPart {
  box: Box;
  grid: TableGrid;
  xs: readonly number[];
}

/**
 * The header row's grid over the body's columns followed by the body's rows, all of them data,
 * or undefined when the row does not head the body: not right above it, or a boundary of its own
 * that the body does not draw.
 */
export function headedGrid(header: GridPart, body: GridPart): TableGrid | undefined {
  if (header.grid.rows.length !== 1) return undefined;
  const height = header.box.y1 - header.box.y0;
  const gap = body.box.y0 - header.box.y1;
  if (gap < -SAME_BOUNDARY || gap > MAX_GAP_ROWS * height) return undefined;
  const map = header.xs.map((x) => body.xs.findIndex((bx) => Math.abs(bx - x) <= SAME_BOUNDARY));
  if (map.some((i) => i < 0) || map[0] !== 0 || map[map.length - 1] !== body.xs.length - 1) return undefined;
  let col = 0;
  const row: TableCell[] = header.grid.rows[0]!.map((cell) => {
    const colSpan = map[col + cell.colSpan]! - map[col]!;
    col += cell.colSpan;
    return { ...cell, colSpan };
  });
  return { rows: [row, ...body.grid.rows], headerRows: 1 };
}
