/**
 * Puts text runs into the cells of a table layout. pdf.js often hands over one item for text
 * from neighbouring cells ("1 2" across a border), so a run that crosses a cell boundary is cut
 * there, at the nearest space to where its characters would reach the boundary.
 */

import type { TableCell, TableGrid } from '../../../shared/table-markdown.js';
import type { TextRun } from './geometry.js';
import { cellOwners, slotAt, type TableLayout } from './table-layout.js';

interface Piece {
  text: string;
  x0: number;
  x1: number;
  y0: number;
  y1: number;
  fontSize: number;
}

/** Up to this many characters either side of the estimated cut, a space is a better place to cut. */
const SPACE_SEARCH = 3;

export function fillCells(layout: TableLayout, runs: readonly TextRun[], indices: readonly number[]): TableGrid {
  const owners = cellOwners(layout);
  const pieces: Piece[][] = layout.cells.map(() => []);
  for (const index of indices) {
    const run = runs[index];
    if (!run) continue;
    const row = slotAt(layout.ys, (run.y0 + run.y1) / 2);
    for (const piece of cutAtBoundaries(run, layout.xs, owners[row] ?? [])) {
      const owner = owners[row]?.[slotAt(layout.xs, (piece.x0 + piece.x1) / 2)];
      if (owner !== undefined && owner >= 0) pieces[owner]!.push(piece);
    }
  }
  const rows: TableCell[][] = Array.from({ length: layout.ys.length - 1 }, () => []);
  layout.cells.forEach((cell, index) => {
    const left = layout.xs[cell.col]!;
    const right = layout.xs[cell.col + cell.colSpan]!;
    rows[cell.row]!.push({ lines: cellLines(pieces[index]!, left, right), rowSpan: cell.rowSpan, colSpan: cell.colSpan });
  });
  return { rows, headerRows: layout.headerRows };
}

function cutAtBoundaries(run: TextRun, xs: readonly number[], rowOwners: readonly number[]): Piece[] {
  const piece: Piece = { text: run.text, x0: run.x0, x1: run.x1, y0: run.y0, y1: run.y1, fontSize: run.fontSize };
  const first = slotAt(xs, run.x0);
  const last = slotAt(xs, run.x1);
  if (first === last || run.text.length < 2) return [piece];
  const pieces: Piece[] = [];
  let rest = piece;
  for (let col = first + 1; col <= last; col++) {
    if (rowOwners[col - 1] === rowOwners[col]) continue;
    const [left, right] = cutAt(rest, xs[col]!);
    if (left.text.trim()) pieces.push(left);
    rest = right;
  }
  if (rest.text.trim()) pieces.push(rest);
  return pieces;
}

/**
 * Splits a piece where its characters cross `x`, assuming characters of equal width. A word is
 * not split: with no space near the boundary the piece overhangs it (a heading wider than its
 * column) and stays whole on the side of its middle.
 */
function cutAt(piece: Piece, x: number): [Piece, Piece] {
  const charWidth = (piece.x1 - piece.x0) / Math.max(piece.text.length, 1);
  const estimate = Math.round((x - piece.x0) / Math.max(charWidth, 1e-6));
  const found = nearestSpace(piece.text, Math.min(Math.max(estimate, 0), piece.text.length));
  const cut = found ?? ((piece.x0 + piece.x1) / 2 < x ? piece.text.length : 0);
  const cutX = piece.x0 + cut * charWidth;
  return [
    { ...piece, text: piece.text.slice(0, cut), x1: cutX },
    { ...piece, text: piece.text.slice(cut), x0: cutX },
  ];
}

function nearestSpace(text: string, index: number): number | undefined {
  if (index <= 0 || index >= text.length) return index;
  for (let distance = 0; distance <= SPACE_SEARCH; distance++) {
    if (text[index - distance] === ' ' || text[index - distance - 1] === ' ') return index - distance;
    if (text[index + distance] === ' ' || text[index + distance - 1] === ' ') return index + distance;
  }
  return undefined;
}

/** The cell's text as lines: pieces grouped by vertical overlap, lines the cell wrapped joined again. */
function cellLines(pieces: Piece[], left: number, right: number): string[] {
  pieces.sort((a, b) => (a.y0 + a.y1) / 2 - (b.y0 + b.y1) / 2);
  const groups: Piece[][] = [];
  let current: Piece[] = [];
  let bottom = -Infinity;
  for (const piece of pieces) {
    if (current.length > 0 && (piece.y0 + piece.y1) / 2 > bottom) {
      groups.push(current);
      current = [];
    }
    if (current.length === 0) bottom = piece.y1;
    current.push(piece);
  }
  if (current.length > 0) groups.push(current);
  const lines = groups.map(joinLine).filter((line) => line.text.length > 0);
  return rejoinWrapped(lines, left, right);
}

interface CellLine {
  text: string;
  x0: number;
  x1: number;
  charWidth: number;
}

function joinLine(line: Piece[]): CellLine {
  line.sort((a, b) => a.x0 - b.x0);
  let text = '';
  let previous: Piece | undefined;
  for (const piece of line) {
    const gap = previous ? piece.x0 - previous.x1 : 0;
    const needsSpace = previous && gap > 0.15 * piece.fontSize && !/\s$/.test(text) && !/^\s/.test(piece.text);
    text += (needsSpace ? ' ' : '') + piece.text;
    previous = piece;
  }
  const x0 = line[0]?.x0 ?? 0;
  const x1 = Math.max(...line.map((p) => p.x1));
  const trimmed = text.replace(/\s+/g, ' ').trim();
  return { text: trimmed, x0, x1, charWidth: (x1 - x0) / Math.max(trimmed.length, 1) };
}

/**
 * A line ends where the cell wrapped it when the next line's first word would not have fitted
 * after it; otherwise the break was the author's (`<br>`, a new entry) and is kept.
 */
function rejoinWrapped(lines: readonly CellLine[], left: number, right: number): string[] {
  if (lines.length < 2) return lines.map((line) => line.text);
  const padding = Math.max(0, Math.min(...lines.map((line) => line.x0 - left)));
  const usableRight = right - padding;
  const texts: string[] = [lines[0]!.text];
  for (let i = 1; i < lines.length; i++) {
    const previous = lines[i - 1]!;
    const line = lines[i]!;
    const firstWord = line.text.split(' ')[0]!;
    const wrapped = previous.x1 + line.charWidth * (firstWord.length + 1) > usableRight;
    if (wrapped) texts[texts.length - 1] += previous.text.endsWith('-') ? line.text : ` ${line.text}`;
    else texts.push(line.text);
  }
  return texts;
}
