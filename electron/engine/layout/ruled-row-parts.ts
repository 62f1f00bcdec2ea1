/**
 * Body cells that a ruled grid merges down several rows only because their column draws no rules
 * between rows (a label column beside figures ruled row by row): where the cell's lines each sit
 * inside one of the rows it covers, one line a row, on two rows or more, each line is its row's
 * cell. A label spanning rows crosses a row boundary (centred across them) or keeps to one row.
 */

import type { TextRun } from './geometry.js';
import { slotAt, type CellSpan, type TableLayout } from './table-layout.js';

/** A line may overhang its row's boundary by this share of its height (glyph boxes are generous). */
const OVERHANG = 0.25;

export function partSpannedRows(layout: TableLayout, runs: readonly TextRun[], indices: readonly number[]): TableLayout {
  let changed = false;
  const cells = layout.cells.flatMap((cell): CellSpan[] => {
    if (cell.rowSpan < 2 || cell.row < layout.headerRows) return [cell];
    const left = layout.xs[cell.col]!;
    const right = layout.xs[cell.col + cell.colSpan]!;
    const inside = indices
      .map((i) => runs[i]!)
      .filter((run) => {
        const x = (run.x0 + run.x1) / 2;
        const row = slotAt(layout.ys, (run.y0 + run.y1) / 2);
        return run.text.trim() && x >= left && x <= right && row >= cell.row && row < cell.row + cell.rowSpan;
      });
    const rowsHeld = new Map<number, TextRun[]>();
    for (const run of inside) {
      const row = slotAt(layout.ys, (run.y0 + run.y1) / 2);
      const slack = OVERHANG * (run.y1 - run.y0);
      if (run.y0 < layout.ys[row]! - slack || run.y1 > layout.ys[row + 1]! + slack) return [cell];
      rowsHeld.set(row, [...(rowsHeld.get(row) ?? []), run]);
    }
    if (rowsHeld.size < 2 || [...rowsHeld.values()].some((held) => !oneLine(held))) return [cell];
    changed = true;
    return Array.from({ length: cell.rowSpan }, (_, k) => ({ ...cell, row: cell.row + k, rowSpan: 1 }));
  });
  return changed ? { ...layout, cells: cells.sort((a, b) => a.row - b.row || a.col - b.col) } : layout;
}

/** Runs that all share one line: each overlaps the first in height by most of its own. */
function oneLine(held: readonly TextRun[]): boolean {
  const first = held[0]!;
  return held.every((run) => Math.min(run.y1, first.y1) - Math.max(run.y0, first.y0) >= 0.5 * Math.min(run.y1 - run.y0, first.y1 - first.y0));
}
