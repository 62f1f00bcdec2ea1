/**
 * An HTML table laid out on its grid of rows and columns, as a browser places it: each cell at the
 * first column its row has free, rows below a `rowspan` shifted past it. Word and LaTeX need every
 * row to fill the same columns, so short rows are padded with empty cells, and a span that runs off
 * the table is cut to fit and reported.
 */

import type { Element, Root } from 'hast';
import { isElement } from './markdown-tree.js';

export interface GridCell {
  /** A `td` or `th`; undefined for padding added to a short row. */
  element: Element | undefined;
  header: boolean;
  column: number;
  colSpan: number;
  rowSpan: number;
}

export interface TableGrid {
  /** The cells that start in each row, left to right. */
  rows: GridCell[][];
  columns: number;
  /** Leading rows that head the table (a `thead`, or rows of `th` only). */
  headerRows: number;
  /** What was cut to fit, said for a reader. */
  problems: string[];
}

/** The HTML limits; anything larger is not a table a page holds. */
const MAX_COLSPAN = 1000;
const MAX_ROWSPAN = 65534;

export function tableGrid(table: Element): TableGrid {
  const rows = tableRows(table);
  const problems: string[] = [];
  const placed: GridCell[][] = [];
  const covered: boolean[][] = rows.map(() => []);
  // Columns are set by where cells start: a span reaching past every row's last cell overflows.
  let columns = 0;
  rows.forEach(({ cells }, r) => {
    let column = 0;
    const row: GridCell[] = [];
    for (const cell of cells) {
      while (covered[r]![column]) column++;
      const rowSpan = spanOf(cell, 'rowSpan', MAX_ROWSPAN);
      const colSpan = spanOf(cell, 'colSpan', MAX_COLSPAN);
      row.push({ element: cell, header: cell.tagName === 'th', column, colSpan, rowSpan });
      columns = Math.max(columns, column + 1);
      column += colSpan;
    }
    placed.push(row);
    // mark what this row's cells cover, rows below included
    for (const cell of row) {
      const lastRow = Math.min(r + cell.rowSpan, rows.length);
      if (r + cell.rowSpan > rows.length) {
        problems.push(`a cell in row ${r + 1} spans ${cell.rowSpan} rows but only ${rows.length - r} remain`);
        cell.rowSpan = lastRow - r;
      }
      for (let below = r; below < lastRow; below++) {
        for (let c = cell.column; c < cell.column + cell.colSpan; c++) covered[below]![c] = true;
      }
    }
  });
  for (const [r, row] of placed.entries()) {
    for (const cell of row) {
      if (cell.column + cell.colSpan <= columns) continue;
      problems.push(`a cell in row ${r + 1} spans ${cell.colSpan} columns but the table has ${columns - cell.column} from there`);
      cell.colSpan = columns - cell.column;
    }
  }
  // free slots are re-found after cutting spans, since a cut span frees the slots it no longer covers
  const occupied = placed.map(() => new Array<boolean>(columns).fill(false));
  placed.forEach((row, r) => {
    for (const cell of row) {
      for (let below = r; below < r + cell.rowSpan; below++) {
        for (let c = cell.column; c < cell.column + cell.colSpan; c++) occupied[below]![c] = true;
      }
    }
  });
  placed.forEach((row, r) => {
    for (let c = 0; c < columns; c++) {
      if (!occupied[r]![c]) row.push({ element: undefined, header: false, column: c, colSpan: 1, rowSpan: 1 });
    }
    row.sort((a, b) => a.column - b.column);
  });
  return { rows: placed, columns, headerRows: headerRowCount(rows, placed), problems };
}

function spanOf(cell: Element, name: 'rowSpan' | 'colSpan', max: number): number {
  const value = Number(cell.properties[name] ?? 1);
  return Number.isInteger(value) && value >= 1 ? Math.min(value, max) : 1;
}

export interface SourceRow {
  element: Element;
  /** Its `td` and `th` cells, left to right. */
  cells: Element[];
  inHead: boolean;
}

/** The `tr` rows of a table, through its row groups but not into tables nested in its cells. */
export function tableRows(table: Element): SourceRow[] {
  const rows: SourceRow[] = [];
  const visit = (element: Element, inHead: boolean) => {
    for (const child of element.children) {
      if (!isElement(child)) continue;
      if (child.tagName === 'tr') {
        rows.push({ element: child, cells: child.children.filter((cell): cell is Element => isElement(cell, 'td') || isElement(cell, 'th')), inHead });
      } else if (['thead', 'tbody', 'tfoot'].includes(child.tagName)) {
        visit(child, child.tagName === 'thead');
      }
    }
  };
  visit(table, false);
  return rows;
}

function headerRowCount(rows: readonly SourceRow[], placed: readonly GridCell[][]): number {
  let count = 0;
  while (count < rows.length && (rows[count]!.inHead || (rows[count]!.cells.length > 0 && rows[count]!.cells.every((cell) => cell.tagName === 'th')))) count++;
  // a table that is all header has no body to repeat it over
  return count === placed.length ? 0 : count;
}

/** Every `<table>` element, outer before the ones nested in its cells; an unclosed one runs to the end, as the parser closes it. */
export function tablesIn(node: Root | Element): Element[] {
  const tables: Element[] = [];
  for (const child of node.children) {
    if (child.type !== 'element') continue;
    if (child.tagName === 'table') tables.push(child);
    tables.push(...tablesIn(child));
  }
  return tables;
}
