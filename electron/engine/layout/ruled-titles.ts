/**
 * A title boxed in as a grid's first row: one cell across every column ("Exhibit 9" over the
 * table's name) above the row that heads the columns. It names the table rather than heading a
 * column, so the row under it heads the columns too: both are header rows.
 */

import type { RuledLayout } from './ruled-tables.js';

/** A grid's first row is read as a title only when at least this many rows lie under it. */
const MIN_ROWS_UNDER = 2;

export function withTitleRow(layout: RuledLayout): RuledLayout {
  const rows = layout.ys.length - 1;
  const columns = layout.xs.length - 1;
  const first = layout.cells.filter((cell) => cell.row === 0);
  if (rows < 1 + MIN_ROWS_UNDER || columns < 2 || first.length !== 1 || first[0]!.colSpan !== columns || first[0]!.rowSpan !== 1) return layout;
  return { ...layout, headerRows: Math.max(layout.headerRows, 2) };
}
