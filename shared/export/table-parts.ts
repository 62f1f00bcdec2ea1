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
  for (let start = 1; start < grid.columns; start += step) parts.push(columnsOf(grid, [0, ...range(start, Math.min(grid.columns, start + step))]));
  return parts;
}

function range(start: number, end: number): number[] {
  return Array.from({ length: end - start }, (_, index) => start + index);
}

/** The grid restricted to `columns` (ascending), renumbered from 0. */
function columnsOf(grid: TableGrid, columns: readonly number[]): TableGrid {
  const position = new Map(columns.map((column, index) => [column, index]));
  const rows = grid.rows.map((row) => {
    const kept: GridCell[] = [];
    for (const cell of row) {
      const inside = range(cell.column, cell.column + cell.colSpan).filter((column) => position.has(column));
      if (inside.length === 0) continue;
      // a span over a cut keeps the columns it covers on this side, as far as they run on
      let span = 1;
      while (span < inside.length && position.get(inside[span]!) === position.get(inside[0]!)! + span) span++;
      const starts = position.has(cell.column);
      kept.push({ element: starts ? cell.element : undefined, header: cell.header, column: position.get(inside[0]!)!, colSpan: span, rowSpan: cell.rowSpan });
    }
    return kept;
  });
  return { rows, columns: columns.length, headerRows: grid.headerRows, problems: [] };
}
