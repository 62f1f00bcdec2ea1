/**
 * A table too wide for a page (or for Word, which takes at most 63 columns) cut into parts of
 * columns. Each part begins with the table's first column, so its rows keep their labels; a cell
 * spanning across a cut is cut there too, and its text stays in the part where it starts.
 */

import type { GridCell, TableGrid } from './table-grid.js';

export function tableParts(grid: TableGrid, maxColumns: number): TableGrid[] {
  if (grid.columns <= maxColumns) return [grid];
  const parts: TableGrid[] = [];
  const step = Math.max(1, maxColumns - 1);
  for (let start = 1; start < grid.columns; start += step) parts.push(part(grid, start, Math.min(grid.columns, start + step)));
  return parts;
}

/** Column 0 and columns [start, end), renumbered 0, 1... (each row's cells are in column order). */
function part(grid: TableGrid, start: number, end: number): TableGrid {
  const rows = grid.rows.map((row) => {
    const kept: GridCell[] = [];
    const first = row[0];
    if (first && first.column === 0) {
      kept.push({ ...first, colSpan: 1 + Math.max(0, Math.min(first.column + first.colSpan, end) - start) });
    }
    for (let index = firstReaching(row, start); index < row.length && row[index]!.column < end; index++) {
      const cell = row[index]!;
      if (cell.column === 0) continue;
      const from = Math.max(cell.column, start);
      const to = Math.min(cell.column + cell.colSpan, end);
      kept.push({ element: cell.column >= start ? cell.element : undefined, header: cell.header, column: from - start + 1, colSpan: to - from, rowSpan: cell.rowSpan });
    }
    return kept;
  });
  return { rows, columns: end - start + 1, headerRows: grid.headerRows, problems: [] };
}

/** The index of the first cell of the row that reaches column `column` or beyond. */
function firstReaching(row: readonly GridCell[], column: number): number {
  let low = 0;
  let high = row.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (row[middle]!.column + row[middle]!.colSpan <= column) low = middle + 1;
    else high = middle;
  }
  return low;
}
