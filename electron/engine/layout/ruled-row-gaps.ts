/**
 * Rows of a ruled grid that its rules draw as one: a group ruled off as a whole ("Stationary:"
 * over "Major" and "Area", each with a wrapped definition and examples beside it) holds several
 * rows apart from each other by blank space, each starting with its own label in the first
 * column. Blank space across the whole row, with a label at the start of every part, parts it.
 * A cell's second paragraph beside an empty label cell stays in its row.
 */

import type { TextRun } from './geometry.js';
import { cellOwners, slotAt, type CellSpan, type TableLayout } from './table-layout.js';

/** Blank space this tall (in the row's usual line heights) between lines parts rows. */
const BLANK_LINES = 0.8;

interface Band {
  y0: number;
  y1: number;
  labelled: boolean;
}

export function splitBlankBands(layout: TableLayout, runs: readonly TextRun[], indices: readonly number[]): TableLayout {
  const owners = cellOwners(layout);
  const columns = layout.xs.length - 1;
  const ys: number[] = [layout.ys[0]!];
  const cells: CellSpan[] = [];
  let changed = false;
  for (let row = 0; row < layout.ys.length - 1; row++) {
    const plain = owners[row]!.every((owner) => {
      const cell = layout.cells[owner];
      return cell !== undefined && cell.rowSpan === 1 && cell.colSpan === 1;
    });
    const inRow = indices.map((i) => runs[i]!).filter((run) => run.text.trim() && slotAt(layout.ys, (run.y0 + run.y1) / 2) === row);
    const bands = plain && row >= layout.headerRows ? blankBands(inRow, layout.xs) : [];
    const at = ys.length - 1;
    if (bands.length < 2 || !bands.every((band) => band.labelled)) {
      ys.push(layout.ys[row + 1]!);
      for (const cell of layout.cells) if (cell.row === row) cells.push({ ...cell, row: at });
      continue;
    }
    changed = true;
    bands.slice(1).forEach((band, i) => ys.push((bands[i]!.y1 + band.y0) / 2));
    ys.push(layout.ys[row + 1]!);
    bands.forEach((_, k) => {
      for (let col = 0; col < columns; col++) cells.push({ row: at + k, col, rowSpan: 1, colSpan: 1 });
    });
  }
  return changed ? { xs: layout.xs, ys, cells, headerRows: layout.headerRows } : layout;
}

/** The row's text as bands apart by blank space across the row, each with whether its first column holds text. */
function blankBands(inRow: readonly TextRun[], xs: readonly number[]): Band[] {
  if (inRow.length < 2) return [];
  const heights = inRow.map((run) => run.y1 - run.y0).sort((a, b) => a - b);
  const blank = BLANK_LINES * heights[heights.length >> 1]!;
  const firstColumn = Math.min(...inRow.map((run) => slotAt(xs, (run.x0 + run.x1) / 2)));
  const bands: Band[] = [];
  for (const run of [...inRow].sort((a, b) => a.y0 - b.y0)) {
    const band = bands.at(-1);
    const labels = slotAt(xs, (run.x0 + run.x1) / 2) === firstColumn;
    if (band && run.y0 - band.y1 < blank) {
      band.y1 = Math.max(band.y1, run.y1);
      // The label starts its band: text of the first column further down is a wrapped label.
      band.labelled ||= labels && run.y0 - band.y0 < blank;
    } else bands.push({ y0: run.y0, y1: run.y1, labelled: labels });
  }
  return bands;
}
