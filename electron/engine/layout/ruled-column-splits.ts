/**
 * Columns of a ruled grid that its rules leave undivided: a report may rule only the label column
 * off from the rest, or draw a box around several columns of figures, so one ruled column holds
 * several printed ones. Where the body's figures in such a column keep to separate x ranges, apart
 * on the same lines, the gaps between them part the column again. A heading over those columns
 * spans them; headings set under it, one over each printed column, become cells of their own.
 * Columns of words part too under a heading row whose headings keep to the parts, one over each.
 * Wrapped words never qualify: lines of text fill their cell's width, leaving no gap down the column.
 */

import type { TextRun } from './geometry.js';
import { isFigure } from './table-figures.js';
import { slotAt, type CellSpan, type TableLayout } from './table-layout.js';

/** A gap this wide (in font sizes) between pieces of text parts two printed columns. */
const COLUMN_GAP = 1;
/** At least this many lines, and this share of the column's lines, print text on both sides of a gap. */
const MIN_LINES_APART = 2;
const MIN_SHARE_APART = 0.3;

interface Piece {
  x0: number;
  x1: number;
  y: number;
  text: string;
  fontSize: number;
}

export function splitAlignedColumns(layout: TableLayout, runs: readonly TextRun[], indices: readonly number[]): TableLayout {
  const columns = layout.xs.length - 1;
  const bodyTop = layout.ys[layout.headerRows] ?? Infinity;
  const cutsOf: number[][] = [];
  for (let col = 0; col < columns; col++) {
    const inColumn = indices
      .map((i) => runs[i]!)
      .filter((run) => run.text.trim() && slotAt(layout.xs, (run.x0 + run.x1) / 2) === col)
      .map((run) => ({ x0: run.x0, x1: run.x1, y: (run.y0 + run.y1) / 2, text: run.text.trim(), fontSize: run.fontSize }));
    cutsOf.push(columnCuts(inColumn.filter((piece) => piece.y >= bodyTop), inColumn.filter((piece) => piece.y < bodyTop)));
  }
  if (cutsOf.every((cuts) => cuts.length === 0)) return layout;
  return partedColumns(headingsParted(layout, runs, indices, cutsOf), runs, indices, cutsOf);
}

function partedColumns(layout: TableLayout, runs: readonly TextRun[], indices: readonly number[], cutsOf: readonly number[][]): TableLayout {
  const columns = layout.xs.length - 1;
  // Old column c becomes new columns first[c] .. first[c + 1] - 1.
  const first: number[] = [0];
  cutsOf.forEach((cuts, col) => first.push(first[col]! + cuts.length + 1));
  const xs = layout.xs.flatMap((x, col) => (col < columns ? [x, ...cutsOf[col]!] : [x]));
  const headerRowTexts = (cell: CellSpan) =>
    indices.map((i) => runs[i]!).filter((run) => run.text.trim() && slotAt(layout.ys, (run.y0 + run.y1) / 2) === cell.row && run.x0 < layout.xs[cell.col + cell.colSpan]! && run.x1 > layout.xs[cell.col]!);
  const cells = layout.cells.flatMap((cell): CellSpan[] => {
    const start = first[cell.col]!;
    const end = first[cell.col + cell.colSpan]!;
    const widened = { ...cell, col: start, colSpan: end - start };
    if (end - start === cell.colSpan) return [widened];
    // Body cells, and heading cells whose every word keeps to one new column, are parted; a heading across them spans them.
    const parted = cell.row >= layout.headerRows || !headerRowTexts(cell).some((run) => xs.slice(start + 1, end).some((x) => run.x0 < x && run.x1 > x));
    if (!parted || (cell.row < layout.headerRows && cell.rowSpan !== 1)) return [widened];
    return Array.from({ length: end - start }, (_, k) => ({ row: cell.row, col: start + k, rowSpan: cell.rowSpan, colSpan: 1 }));
  });
  return { xs, ys: layout.ys, cells, headerRows: layout.headerRows };
}

/**
 * A heading cell over a column that is parted, holding a heading across the printed columns above
 * headings each over one of them ("U.S. population" over "Proportion" and "Total"), is two rows:
 * the heading across, then the headings under it. Its neighbours in the row span both.
 */
function headingsParted(layout: TableLayout, runs: readonly TextRun[], indices: readonly number[], cutsOf: readonly number[][]): TableLayout {
  let result = layout;
  for (let row = layout.headerRows - 1; row >= 0; row--) {
    const at = splitHeight(result, row, runs, indices, cutsOf);
    if (at === undefined) continue;
    const ys = [...result.ys.slice(0, row + 1), at, ...result.ys.slice(row + 1)];
    const cells = result.cells.flatMap((cell): CellSpan[] => {
      if (cell.row > row) return [{ ...cell, row: cell.row + 1 }];
      if (cell.row + cell.rowSpan <= row) return [cell];
      if (cell.row === row && cell.rowSpan === 1 && cell.colSpan === 1 && cutsOf[cell.col]!.length > 0 && splitHeightOf(result, cell, runs, indices, cutsOf) !== undefined) {
        return [cell, { ...cell, row: row + 1 }];
      }
      return [{ ...cell, rowSpan: cell.rowSpan + 1 }];
    });
    result = { xs: result.xs, ys, cells: cells.sort((a, b) => a.row - b.row || a.col - b.col), headerRows: result.headerRows + 1 };
  }
  return result;
}

/** Where the row's first cell over a parted column splits into a heading across and headings under it. */
function splitHeight(layout: TableLayout, row: number, runs: readonly TextRun[], indices: readonly number[], cutsOf: readonly number[][]): number | undefined {
  for (const cell of layout.cells) {
    if (cell.row !== row || cell.rowSpan !== 1 || cell.colSpan !== 1 || cutsOf[cell.col]!.length === 0) continue;
    const at = splitHeightOf(layout, cell, runs, indices, cutsOf);
    if (at !== undefined) return at;
  }
  return undefined;
}

function splitHeightOf(layout: TableLayout, cell: CellSpan, runs: readonly TextRun[], indices: readonly number[], cutsOf: readonly number[][]): number | undefined {
  const cuts = cutsOf[cell.col]!;
  const inCell = indices
    .map((i) => runs[i]!)
    .filter((run) => run.text.trim() && slotAt(layout.ys, (run.y0 + run.y1) / 2) === cell.row && slotAt(layout.xs, (run.x0 + run.x1) / 2) === cell.col);
  const crosses = (run: TextRun) => cuts.some((x) => run.x0 < x && run.x1 > x);
  const across = inCell.filter(crosses);
  const under = inCell.filter((run) => !crosses(run));
  if (across.length === 0 || under.length === 0) return undefined;
  const top = Math.max(...across.map((run) => run.y1));
  const bottom = Math.min(...under.map((run) => run.y0));
  return top <= bottom + 1 ? (top + bottom) / 2 : undefined;
}

/**
 * The x positions that part one ruled column's body pieces into printed columns: of figures, or of
 * words under a heading row whose headings keep to the parts, one or more over each (then a part
 * may be empty on most lines).
 */
function columnCuts(pieces: readonly Piece[], headings: readonly Piece[]): number[] {
  if (pieces.length < 2 * MIN_LINES_APART) return [];
  const lines = lineGroups(pieces);
  const cuts = gapCuts(pieces, lines, MIN_SHARE_APART);
  // Every part must hold figures only, but the first (a label column the rules left joined to its figures).
  const bounds = [-Infinity, ...cuts, Infinity];
  const partsHoldFigures = bounds.slice(1, -1).every((cut, k) => pieces.filter((p) => p.x0 >= cut && p.x1 <= bounds[k + 2]!).every((p) => isFigure(p.text)));
  if (partsHoldFigures && cuts.length > 0) return cuts;
  if (headings.length === 0) return [];
  const headedCuts = gapCuts([...pieces, ...headings], lines, 0);
  const headed = [-Infinity, ...headedCuts, Infinity];
  return headed.slice(0, -1).every((cut, k) => headings.some((p) => p.x0 >= cut && p.x1 <= headed[k + 1]!)) ? headedCuts : [];
}

/** Gaps down the column that no piece crosses, with text on both sides on enough of the lines. */
function gapCuts(pieces: readonly Piece[], lines: readonly Piece[][], minShare: number): number[] {
  const sorted = [...pieces].sort((a, b) => a.x0 - b.x0);
  const fontSize = Math.max(...pieces.map((p) => p.fontSize));
  const cuts: number[] = [];
  let reach = sorted[0]!.x1;
  for (const piece of sorted.slice(1)) {
    if (piece.x0 - reach >= COLUMN_GAP * fontSize) {
      const cut = (reach + piece.x0) / 2;
      const apart = lines.filter((line) => line.some((p) => p.x1 <= cut) && line.some((p) => p.x0 >= cut)).length;
      if (apart >= MIN_LINES_APART && apart >= minShare * lines.length) cuts.push(cut);
    }
    reach = Math.max(reach, piece.x1);
  }
  return cuts;
}

/** Pieces grouped into lines by their centres. */
function lineGroups(pieces: readonly Piece[]): Piece[][] {
  const sorted = [...pieces].sort((a, b) => a.y - b.y);
  const lines: Piece[][] = [];
  for (const piece of sorted) {
    const line = lines.at(-1);
    if (line && Math.abs(piece.y - line[0]!.y) <= 0.5 * piece.fontSize) line.push(piece);
    else lines.push([piece]);
  }
  return lines;
}
