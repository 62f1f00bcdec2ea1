/**
 * Cells of a ruled grid that its rules alone merge but its text keeps apart. A grid ruled in part
 * leaves slots without a drawn boundary, which read as one spanning cell:
 * - rows of figures drawn in one box (a grid ruled only around its columns and under its header)
 *   hold several rows of data in each slot, one line each. Where every column of such a slot holds
 *   one line at each of the same heights, and the columns after the first hold figures on each,
 *   the lines are rows of their own. Wrapped text never qualifies: its lines are not figures, and
 *   its neighbours do not wrap into the same number of lines at the same heights;
 * - a body row ruled only above and below (vertical rules drawn in the header alone) is one cell
 *   across the table. Where its text lies apart at column boundaries, and mostly as figures, the
 *   boundaries no text crosses part it into the header's columns again. A note across the table
 *   crosses them, or is words, not figures;
 * - a grid ruled between its rows but not between some columns (a rule after the first column
 *   only) holds several columns in one slot. Where a strip at least an em wide runs down the slot
 *   with no text across it, and text lies on both sides of it in two rows or more, it is a gutter
 *   between two columns. Prose in a cell runs across any such strip.
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

/** Rows with text on both sides of a strip that make it a gutter. */
const MIN_GUTTER_ROWS = 2;

export function splitRuledColumns(layout: TableLayout, runs: readonly TextRun[], indices: readonly number[]): TableLayout {
  const texts = indices.filter((i) => runs[i]!.text.trim().length > 0);
  const cuts: number[] = [];
  for (let col = 0; col < layout.xs.length - 1; col++) {
    const left = layout.xs[col]!;
    const right = layout.xs[col + 1]!;
    const inSlot = texts.map((i) => runs[i]!).filter((run) => slotAt(layout.xs, (run.x0 + run.x1) / 2) === col);
    if (inSlot.length < 4) continue;
    const em = median(inSlot.map((run) => run.fontSize));
    const spans = inSlot.map((run) => [Math.max(left, run.x0), Math.min(right, run.x1)] as const).sort((a, b) => a[0] - b[0]);
    let reach = spans[0]![1];
    for (const [x0, x1] of spans.slice(1)) {
      if (x0 - reach >= em && rowsBeside(inSlot, layout.ys, reach, x0) >= MIN_GUTTER_ROWS) cuts.push((reach + x0) / 2);
      reach = Math.max(reach, x1);
    }
  }
  if (cuts.length === 0) return layout;
  const xs = [...layout.xs, ...cuts].sort((a, b) => a - b);
  const slotOf = (x: number) => xs.indexOf(x);
  const cells = layout.cells.flatMap((cell) => {
    const first = slotOf(layout.xs[cell.col]!);
    const last = slotOf(layout.xs[cell.col + cell.colSpan]!);
    if (cell.colSpan > 1) return [{ ...cell, col: first, colSpan: last - first }];
    return Array.from({ length: last - first }, (_, k) => ({ ...cell, col: first + k, colSpan: 1 }));
  });
  return { ...layout, xs, cells };
}

/** A bullet or dash set apart before an item's text in a cell: part of the item, not a column. */
const ITEM_MARK = /^[•◦▪▫■□●○‣⁃∙·➢➤►▸✓✔\-–—*]$/u;

/** How many rows hold text ending left of `from` (not a lone item mark) and text starting right of `to`. */
function rowsBeside(runs: readonly TextRun[], ys: readonly number[], from: number, to: number): number {
  const left = new Set(runs.filter((run) => run.x1 <= from && !ITEM_MARK.test(run.text.trim())).map((run) => slotAt(ys, centre(run))));
  const right = new Set(runs.filter((run) => run.x0 >= to).map((run) => slotAt(ys, centre(run))));
  return [...left].filter((row) => right.has(row)).length;
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

/** A boundary is crossed by text reaching this far (points) past it. */
const CROSSING = 1;

export function splitUnruledSpans(layout: TableLayout, runs: readonly TextRun[], indices: readonly number[]): TableLayout {
  const cells = layout.cells.flatMap((cell) => {
    if (cell.colSpan < 2 || cell.rowSpan !== 1 || cell.row < layout.headerRows) return [cell];
    const left = layout.xs[cell.col]!;
    const right = layout.xs[cell.col + cell.colSpan]!;
    const inside = indices
      .map((i) => runs[i]!)
      .filter((run) => slotAt(layout.ys, centre(run)) === cell.row && (run.x0 + run.x1) / 2 >= left && (run.x0 + run.x1) / 2 <= right && run.text.trim());
    const cuts = [cell.col];
    for (let col = cell.col + 1; col < cell.col + cell.colSpan; col++) {
      const x = layout.xs[col]!;
      if (!inside.some((run) => run.x0 < x - CROSSING && run.x1 > x + CROSSING)) cuts.push(col);
    }
    cuts.push(cell.col + cell.colSpan);
    const parts = cuts.slice(0, -1).map((col, k) => ({ col, colSpan: cuts[k + 1]! - col }));
    const texts = parts
      .map(({ col, colSpan }) =>
        inside
          .filter((run) => slotAt(layout.xs, (run.x0 + run.x1) / 2) >= col && slotAt(layout.xs, (run.x0 + run.x1) / 2) < col + colSpan)
          .map((run) => run.text.trim())
          .join(' '),
      )
      .filter((text) => text.length > 0);
    if (texts.length < 3 || 2 * texts.filter((text) => FIGURE.test(text)).length < texts.length) return [cell];
    return parts.map(({ col, colSpan }) => ({ row: cell.row, col, rowSpan: 1, colSpan }));
  });
  return { ...layout, cells };
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
