/**
 * A table's skeleton before its text: column and row boundaries, and the cells laid over them
 * (a cell may cover several grid slots when it spans).
 */

export interface CellSpan {
  row: number;
  col: number;
  rowSpan: number;
  colSpan: number;
}

export interface TableLayout {
  /** Column boundaries, left to right (one more than the number of columns). */
  xs: number[];
  /** Row boundaries, top to bottom (one more than the number of rows). */
  ys: number[];
  /** Every slot is covered by exactly one cell, listed row by row, left to right. */
  cells: CellSpan[];
  headerRows: number;
}

export function columnCount(layout: TableLayout): number {
  return layout.xs.length - 1;
}

export function rowCount(layout: TableLayout): number {
  return layout.ys.length - 1;
}

/** For each slot, the index in `layout.cells` of the cell covering it. */
export function cellOwners(layout: TableLayout): number[][] {
  const owners = Array.from({ length: rowCount(layout) }, () => new Array<number>(columnCount(layout)).fill(-1));
  layout.cells.forEach((cell, index) => {
    for (let r = cell.row; r < cell.row + cell.rowSpan; r++) {
      for (let c = cell.col; c < cell.col + cell.colSpan; c++) owners[r]![c] = index;
    }
  });
  return owners;
}

/** The slot index of `value` between sorted `boundaries`, clamped to the first and last slot. */
export function slotAt(boundaries: readonly number[], value: number): number {
  let low = 0;
  let high = boundaries.length - 2;
  while (low < high) {
    const mid = (low + high + 1) >> 1;
    if (boundaries[mid]! <= value) low = mid;
    else high = mid - 1;
  }
  return Math.max(0, low);
}

/** One cell per slot: the layout of a table whose cells never span. */
export function plainCells(rows: number, cols: number): CellSpan[] {
  const cells: CellSpan[] = [];
  for (let row = 0; row < rows; row++) {
    for (let col = 0; col < cols; col++) cells.push({ row, col, rowSpan: 1, colSpan: 1 });
  }
  return cells;
}
