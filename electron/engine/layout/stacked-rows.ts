/**
 * Rows of figures that a ruled table draws in one box: a grid ruled only around its columns (and
 * under its header) holds several rows of data in each slot, one line each. Where every column of
 * such a slot holds one line at each of the same heights, and the columns after the first hold
 * figures on each, the lines are rows of their own. Wrapped text never qualifies: its lines are not
 * figures, and its neighbours do not wrap into the same number of lines at the same heights.
 */

import type { TextRun } from './geometry.js';
import { cellOwners, slotAt, type CellSpan, type TableLayout } from './table-layout.js';

/** One figure as a table prints it: digits, maybe signed, grouped, bracketed, a percentage, or a dash for none. */
const FIGURE = /^(?:[(\-−+]?[$€£¥₹]?\d[\d.,\s]*%?\)?|[-–—]|n\/?a)$/iu;

interface TextLine {
  y0: number;
  y1: number;
  /** Per column, the texts of the runs on the line centred in it. */
  texts: string[][];
}

export function splitStackedRows(layout: TableLayout, runs: readonly TextRun[], indices: readonly number[]): TableLayout {
  const owners = cellOwners(layout);
  const columns = layout.xs.length - 1;
  const ys: number[] = [layout.ys[0]!];
  const cells: CellSpan[] = [];
  for (let row = 0; row < layout.ys.length - 1; row++) {
    const bottom = layout.ys[row + 1]!;
    const inRow = indices.filter((i) => {
      const centre = (runs[i]!.y0 + runs[i]!.y1) / 2;
      return slotAt(layout.ys, centre) === row;
    });
    // Only rows of plain cells are split: a cell spanning rows keeps its slots (shifted down only).
    const plain = owners[row]!.every((owner) => {
      const cell = layout.cells[owner];
      return cell !== undefined && cell.rowSpan === 1 && cell.colSpan === 1;
    });
    const lines = plain && row >= layout.headerRows ? stackedLines(runs, inRow, layout.xs) : undefined;
    const at = ys.length - 1;
    if (!lines) {
      ys.push(bottom);
      for (const cell of layout.cells) if (cell.row === row) cells.push({ ...cell, row: at });
      continue;
    }
    lines.slice(1).forEach((line, i) => ys.push((lines[i]!.y1 + line.y0) / 2));
    ys.push(bottom);
    lines.forEach((_, k) => {
      for (let col = 0; col < columns; col++) cells.push({ row: at + k, col, rowSpan: 1, colSpan: 1 });
    });
  }
  return { xs: layout.xs, ys, cells, headerRows: layout.headerRows };
}

/**
 * The lines of a slot row when they are stacked rows of figures: two or more lines, each column
 * that holds text holding one piece on every line, at least two such columns, and every column
 * after the first holding figures only.
 */
function stackedLines(runs: readonly TextRun[], indices: readonly number[], xs: readonly number[]): TextLine[] | undefined {
  if (indices.length < 4) return undefined;
  const sorted = [...indices].sort((a, b) => centre(runs[a]!) - centre(runs[b]!));
  const columns = xs.length - 1;
  const lines: TextLine[] = [];
  for (const index of sorted) {
    const run = runs[index]!;
    let line = lines.at(-1);
    if (!line || centre(run) > line.y1) {
      line = { y0: run.y0, y1: run.y1, texts: Array.from({ length: columns }, () => []) };
      lines.push(line);
    }
    line.y0 = Math.min(line.y0, run.y0);
    line.texts[slotAt(xs, (run.x0 + run.x1) / 2)]!.push(run.text.trim());
  }
  if (lines.length < 2) return undefined;
  const used = Array.from({ length: columns }, (_, col) => lines.some((line) => line.texts[col]!.some((text) => text.length > 0)));
  if (used.filter(Boolean).length < 2) return undefined;
  const firstUsed = used.indexOf(true);
  for (let col = 0; col < columns; col++) {
    if (!used[col]) continue;
    for (const line of lines) {
      const text = line.texts[col]!.join(' ').trim();
      if (!text) return undefined;
      if (col !== firstUsed && !FIGURE.test(text)) return undefined;
    }
  }
  return lines;
}

function centre(run: TextRun): number {
  return (run.y0 + run.y1) / 2;
}
