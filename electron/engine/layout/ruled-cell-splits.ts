/**
 * Cells of a ruled grid that its rules alone merge but its text keeps apart. A grid ruled in part
 * leaves slots without a drawn boundary, which read as one spanning cell:
 * - rows of figures drawn in one box (a grid ruled only around its columns and under its header)
 *   hold several rows of data in each slot, one line each. Where every column of such a slot holds
 *   one line at each of the same heights, and the columns after the first hold figures on each,
 *   the lines are rows of their own. Wrapped text never qualifies: its lines are not figures, and
 *   its neighbours do not wrap into the same number of lines at the same heights. Lines of words
 *   are rows too where every column holds one on each and a column was broken by hand
 *   (unwrapped-rows.ts);
 * - a body row ruled only above and below (vertical rules drawn in the header alone) is one cell
 *   across the table. Where its text lies apart at column boundaries, and mostly as figures, the
 *   boundaries no text crosses part it into the header's columns again. A note across the table
 *   crosses them, or is words, not figures.
 */

import type { TextRun } from './geometry.js';
import { isFigures } from './table-figures.js';
import { cellOwners, slotAt, type CellSpan, type TableLayout } from './table-layout.js';
import { unwrappedRows } from './unwrapped-rows.js';


interface TextLine {
  y0: number;
  y1: number;
  /** Per column, the texts of the runs on the line centred in it. */
  texts: string[][];
  /** Where the line's text starts, and its font size. */
  x0: number;
  fontSize: number;
}

/** The rows of a group are set in at least this far (in font sizes) from the group's label. */
const GROUP_INDENT = 1.5;
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
    if (texts.length < 3 || 2 * texts.filter((text) => isFigures(text)).length < texts.length) return [cell];
    return parts.map(({ col, colSpan }) => ({ row: cell.row, col, rowSpan: 1, colSpan }));
  });
  return { ...layout, cells };
}

export function splitStackedRows(layout: TableLayout, runs: readonly TextRun[], indices: readonly number[]): TableLayout {
  const owners = cellOwners(layout);
  const columns = layout.xs.length - 1;
  // Wrapped text stops short of its column's rule by the column's padding only: no next word fits there.
  const slots = layout.xs.slice(0, -1).map((x0, col) => ({ x0, x1: layout.xs[col + 1]! }));
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
    const lines = plain && row >= layout.headerRows ? (stackedLines(runs, inRow, layout.xs) ?? handBrokenLines(runs, inRow, slots)) : undefined;
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
 * The lines of a slot row when they are stacked rows of figures: two or more lines, each with a
 * label in the first column that holds text and a figure in another, at least two such columns,
 * every column after the first holding figures only, on at least half the lines.
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
      line = { y0: run.y0, y1: run.y1, texts: Array.from({ length: columns }, () => []), x0: run.x0, fontSize: run.fontSize };
      lines.push(line);
    }
    line.y0 = Math.min(line.y0, run.y0);
    line.x0 = Math.min(line.x0, run.x0);
    line.texts[slotAt(xs, (run.x0 + run.x1) / 2)]!.push(run.text.trim());
  }
  if (lines.length < 2) return undefined;
  const used = Array.from({ length: columns }, (_, col) => lines.some((line) => line.texts[col]!.some((text) => text.length > 0)));
  if (used.filter(Boolean).length < 2) return undefined;
  const firstUsed = used.indexOf(true);
  for (let col = 0; col < columns; col++) {
    if (!used[col]) continue;
    let filled = 0;
    for (const line of lines) {
      const text = line.texts[col]!.join(' ').trim();
      // A figure column may leave a row empty (a row with nothing to report there); the labels may not.
      if (!text) {
        if (col === firstUsed) return undefined;
        continue;
      }
      filled++;
      if (col !== firstUsed && !isFigures(text)) return undefined;
    }
    if (2 * filled < lines.length) return undefined;
  }
  // Each line reports a figure, or labels a group of the lines under it (ending in a colon, or
  // with the next line set in further); a label's wrapped second line does neither.
  const reports = (line: TextLine) => line.texts.some((texts, col) => col !== firstUsed && texts.join('').trim());
  const labelsGroup = (line: TextLine, next: TextLine | undefined) =>
    line.texts[firstUsed]!.join(' ').trim().endsWith(':') || (next !== undefined && next.x0 >= line.x0 + GROUP_INDENT * line.fontSize);
  if (!lines.some(reports) || !lines.every((line, i) => reports(line) || labelsGroup(line, lines[i + 1]))) return undefined;
  return lines;
}

/** A script is set this small beside its line's text; it stands on that line whatever its height. */
const SCRIPT_SIZE = 0.85;
/** Runs whose centres lie this close (in font sizes) share a line. */
const LINE_SPREAD = 0.4;

/** The rows a slot row's lines print (unwrappedRows): every column holds text on each line, some broken by hand. */
function handBrokenLines(runs: readonly TextRun[], indices: readonly number[], slots: readonly { x0: number; x1: number }[]): TextLine[] | undefined {
  const texts = indices.map((i) => runs[i]!).filter((run) => run.text.trim());
  if (texts.length < 4) return undefined;
  const size = Math.max(...texts.map((run) => run.fontSize));
  const lines: (TextLine & { x1: number; segments: TextRun[] })[] = [];
  for (const run of texts.filter((r) => r.fontSize >= SCRIPT_SIZE * size).sort((a, b) => centre(a) - centre(b))) {
    let line = lines.at(-1);
    // Lines set solid may overlap in their boxes: a line is the runs centred within half a size of its first.
    if (!line || centre(run) - centre(line.segments[0]!) > LINE_SPREAD * run.fontSize) {
      line = { y0: run.y0, y1: run.y1, texts: [], x0: run.x0, x1: run.x1, fontSize: run.fontSize, segments: [] };
      lines.push(line);
    }
    line.y0 = Math.min(line.y0, run.y0);
    line.y1 = Math.max(line.y1, run.y1);
    line.x0 = Math.min(line.x0, run.x0);
    line.x1 = Math.max(line.x1, run.x1);
    line.segments.push(run);
  }
  if (lines.length < 2) return undefined;
  const rows = unwrappedRows(lines, slots);
  if (rows.length < 2) return undefined;
  return rows.map((group) => ({ ...group[0]!, y0: Math.min(...group.map((line) => line.y0)), y1: Math.max(...group.map((line) => line.y1)) }));
}

function centre(run: TextRun): number {
  return (run.y0 + run.y1) / 2;
}
