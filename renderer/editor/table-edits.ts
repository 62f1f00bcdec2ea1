/**
 * What the table editor does to a grid: a cell's text, rows and columns added and removed, a pipe
 * table's header row on or off. Each returns a new table. Rows and columns go through spanning
 * cells as a spreadsheet does it: a row added inside a `rowspan` lengthens the span, a removed row
 * shortens the spans across it, and a spanning cell whose first row goes moves down with its text.
 * An HTML table's rows keep their `<thead>`/`<tbody>` group and `<tr>` tag through row edits.
 */

import type { GridCell, SourceTable } from './table-source.js';

export function withCellText(table: SourceTable, row: number, column: number, text: string): SourceTable {
  return { ...table, cells: table.cells.map((cell) => (cell.row === row && cell.column === column ? { ...cell, text } : cell)) };
}

/** The cell covering a slot of the grid (the one that starts there or spans over it). */
export function cellCovering(table: SourceTable, row: number, column: number): GridCell | undefined {
  return table.cells.find((cell) => row >= cell.row && row < cell.row + cell.rowSpan && column >= cell.column && column < cell.column + cell.colSpan);
}

/** A new empty row at index `at` (0 to `rows`). */
export function withRowInserted(table: SourceTable, at: number): SourceTable {
  const inserted = insertRow(table, at, () => false);
  if (!table.html) return inserted;
  const rows = table.html.rows;
  const above = rows[at - 1];
  const below = rows[at];
  // a new row of data cells joins the body: a row added under the last header row starts the body below it
  const beside = above && (!below || table.html.groups[above.group ?? -1]?.tag !== 'thead') ? above : below;
  const added = { group: beside?.group, open: '<tr>' };
  return { ...inserted, html: { ...table.html, rows: [...rows.slice(0, at), added, ...rows.slice(at)] } };
}

export function withRowRemoved(table: SourceTable, row: number): SourceTable {
  if (table.rows <= 1) return table;
  const removed = removeRow(table, row);
  return table.html ? { ...removed, html: { ...table.html, rows: table.html.rows.filter((_, index) => index !== row) } } : removed;
}

/** A new empty column at index `at`; its cells are headers where the cell beside them is. */
export function withColumnInserted(table: SourceTable, at: number): SourceTable {
  const beside = at > 0 ? at - 1 : 0;
  const align = [...table.align.slice(0, at), null, ...table.align.slice(at)];
  const inserted = transposed(insertRow(transposed(table), at, (row) => cellCovering(table, row, beside)?.header ?? false));
  return { ...inserted, align: table.kind === 'pipe' ? align : table.align };
}

export function withColumnRemoved(table: SourceTable, column: number): SourceTable {
  if (table.columns <= 1) return table;
  const removed = transposed(removeRow(transposed(table), column));
  return { ...removed, align: table.align.filter((_, index) => index !== column) };
}

/** A pipe table's first row as its header, or as a body row under an empty header line. */
export function withHeaderRow(table: SourceTable, headerRow: boolean): SourceTable {
  return { ...table, headerRow };
}

/** `header(column)`: whether the new cell in that column is a header cell. */
function insertRow(table: SourceTable, at: number, header: (column: number) => boolean): SourceTable {
  const cells = table.cells.map((cell) => {
    if (cell.row >= at) return { ...cell, row: cell.row + 1 };
    return cell.row + cell.rowSpan > at ? { ...cell, rowSpan: cell.rowSpan + 1 } : cell;
  });
  const moved = { ...table, rows: table.rows + 1, cells };
  const added: GridCell[] = [];
  for (let column = 0; column < table.columns; column++) {
    if (!cellCovering(moved, at, column)) added.push({ row: at, column, rowSpan: 1, colSpan: 1, header: header(column), text: '' });
  }
  return { ...moved, cells: [...cells, ...added] };
}

function removeRow(table: SourceTable, row: number): SourceTable {
  const cells = table.cells.flatMap((cell): GridCell[] => {
    if (cell.row > row) return [{ ...cell, row: cell.row - 1 }];
    if (cell.row + cell.rowSpan <= row) return [cell];
    // the row goes from under this cell: a one-row cell goes with it, a spanning one gets shorter
    return cell.rowSpan > 1 ? [{ ...cell, rowSpan: cell.rowSpan - 1 }] : [];
  });
  return { ...table, rows: table.rows - 1, cells };
}

/** Rows as columns: column operations are the row operations on the transposed grid. */
function transposed(table: SourceTable): SourceTable {
  const cells = table.cells.map((cell) => ({ ...cell, row: cell.column, column: cell.row, rowSpan: cell.colSpan, colSpan: cell.rowSpan }));
  return { ...table, rows: table.columns, columns: table.rows, cells };
}
