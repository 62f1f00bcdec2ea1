/**
 * Two-column statements without rules: a column of labels on the left and a column of figures
 * set apart on the right, aligned on their right (or left) edges, row after row ("20-29 0.2650",
 * "Cash and equivalents 1,204"), maybe under a line that heads both. Alignment alone finds
 * tables of three columns or more (aligned-tables.ts), since two columns of text line up in prose
 * layouts too; a column of figures, every row holding one, is what marks these as tables.
 */

import type { Box, TextRun } from './geometry.js';
import { isFigure } from './table-figures.js';
import { plainCells, type TableLayout } from './table-layout.js';

/** Pieces of a line this far apart (in font sizes) are separate cells. */
const CELL_GAP = 0.5;
/** The figures stand at least this far (in font sizes) right of the longest label. */
const FIGURE_GAP = 1;
/** Figures' edges agree within this much (in font sizes); labels start within this much of the first. */
const EDGE_SLACK = 0.5;
const LABEL_INDENT = 3;
/** Rows further apart than this (in line heights) end the statement; a heading may lie a little further. */
const ROW_GAP = 1.6;
const HEADING_GAP = 2;
const MIN_ROWS = 4;
/** Labels are short, mostly not starting in lower case: not the lines of a paragraph. */
const MAX_LABEL_CHARS = 50;
const MAX_LOWERCASE_SHARE = 0.5;

export interface FigureStatement {
  layout: TableLayout;
  box: Box;
  runIndices: number[];
}

interface Piece extends Box {
  text: string;
  runIndices: number[];
  fontSize: number;
}

interface Line extends Box {
  pieces: Piece[];
}

export function findFigureStatements(runs: readonly TextRun[], indices: readonly number[]): FigureStatement[] {
  const lines = readLines(runs, indices);
  const found: FigureStatement[] = [];
  let start = 0;
  while (start < lines.length) {
    let end = start;
    while (end < lines.length && isRow(lines[end]!) && (end === start || continues(lines, start, end))) end++;
    if (end - start >= MIN_ROWS && readsLikeLabels(lines.slice(start, end))) {
      const heading = start > 0 && headsRows(lines[start - 1]!, lines.slice(start, end)) ? lines[start - 1] : undefined;
      found.push(statementOf(heading ? lines.slice(start - 1, end) : lines.slice(start, end)));
      start = end;
    } else start = Math.max(end, start + 1);
  }
  return found;
}

/** Runs grouped into lines by their centres, each line into pieces apart by cell gaps. */
function readLines(runs: readonly TextRun[], indices: readonly number[]): Line[] {
  const sorted = indices.filter((i) => runs[i]!.text.trim() && runs[i]!.y1 > runs[i]!.y0).sort((a, b) => centreY(runs[a]!) - centreY(runs[b]!));
  const groups: number[][] = [];
  let bottom = -Infinity;
  for (const index of sorted) {
    const run = runs[index]!;
    if (groups.length === 0 || centreY(run) > bottom) {
      groups.push([]);
      bottom = run.y1;
    }
    groups[groups.length - 1]!.push(index);
  }
  return groups.map((group) => {
    const pieces: Piece[] = [];
    for (const index of group.sort((a, b) => runs[a]!.x0 - runs[b]!.x0)) {
      const run = runs[index]!;
      const last = pieces.at(-1);
      if (last && run.x0 - last.x1 <= CELL_GAP * run.fontSize) {
        Object.assign(last, { x1: Math.max(last.x1, run.x1), y0: Math.min(last.y0, run.y0), y1: Math.max(last.y1, run.y1), text: `${last.text} ${run.text.trim()}` });
        last.runIndices.push(index);
      } else pieces.push({ x0: run.x0, x1: run.x1, y0: run.y0, y1: run.y1, text: run.text.trim(), runIndices: [index], fontSize: run.fontSize });
    }
    return { pieces, x0: pieces[0]!.x0, x1: Math.max(...pieces.map((p) => p.x1)), y0: Math.min(...pieces.map((p) => p.y0)), y1: Math.max(...pieces.map((p) => p.y1)) };
  });
}

/** A label, then one figure well apart from it. */
function isRow(line: Line): boolean {
  const [label, figure] = line.pieces;
  return line.pieces.length === 2 && !!label && !!figure && isFigure(figure.text) && figure.x0 - label.x1 >= FIGURE_GAP * figure.fontSize;
}

/** Line `end` continues the rows from `start`: near the line above, labels and figures in their columns. */
function continues(lines: readonly Line[], start: number, end: number): boolean {
  const first = lines[start]!;
  const line = lines[end]!;
  const above = lines[end - 1]!;
  const em = line.pieces[1]!.fontSize;
  if (line.y0 - above.y1 > ROW_GAP * height(above)) return false;
  const [label, figure] = line.pieces as [Piece, Piece];
  const [firstLabel, firstFigure] = first.pieces as [Piece, Piece];
  const figuresAligned = Math.abs(figure.x1 - firstFigure.x1) <= EDGE_SLACK * em || Math.abs(figure.x0 - firstFigure.x0) <= EDGE_SLACK * em;
  const labelsInColumn = label.x0 >= firstLabel.x0 - EDGE_SLACK * em && label.x0 <= firstLabel.x0 + LABEL_INDENT * em;
  const apart = (row: Line) => row.pieces[0]!.x1 + FIGURE_GAP * em <= Math.min(figure.x0, firstFigure.x0);
  return figuresAligned && labelsInColumn && lines.slice(start, end + 1).every(apart);
}

function readsLikeLabels(rows: readonly Line[]): boolean {
  const labels = rows.map((row) => row.pieces[0]!.text);
  const worded = labels.filter((text) => /^\p{L}/u.test(text));
  const lowercase = worded.filter((text) => /^\p{Ll}/u.test(text)).length;
  return labels.every((text) => text.length <= MAX_LABEL_CHARS) && lowercase <= MAX_LOWERCASE_SHARE * Math.max(worded.length, 1);
}

/** A line right above the rows, with a heading over the labels and one over the figures, neither a figure. */
function headsRows(line: Line, rows: readonly Line[]): boolean {
  const first = rows[0]!;
  const [label, figure] = first.pieces as [Piece, Piece];
  if (line.pieces.length !== 2 || first.y0 - line.y1 > HEADING_GAP * height(line)) return false;
  const [over, overFigures] = line.pieces as [Piece, Piece];
  const em = figure.fontSize;
  return (
    !isFigure(over.text) &&
    !isFigure(overFigures.text) &&
    Math.abs(over.x0 - label.x0) <= LABEL_INDENT * em &&
    overFigures.x0 <= figure.x1 + EDGE_SLACK * em &&
    overFigures.x1 >= figure.x0 - EDGE_SLACK * em &&
    rows.every((row) => row.pieces[0]!.x1 < overFigures.x0)
  );
}

function statementOf(lines: readonly Line[]): FigureStatement {
  const labelsEnd = Math.max(...lines.map((line) => line.pieces[0]!.x1));
  const figuresStart = Math.min(...lines.map((line) => line.pieces[1]!.x0));
  const x0 = Math.min(...lines.map((line) => line.x0));
  const x1 = Math.max(...lines.map((line) => line.x1));
  const xs = [x0, (labelsEnd + figuresStart) / 2, x1];
  const ys = [lines[0]!.y0, ...lines.slice(1).map((line, i) => (lines[i]!.y1 + line.y0) / 2), lines[lines.length - 1]!.y1];
  return {
    layout: { xs, ys, cells: plainCells(lines.length, 2), headerRows: 1 },
    box: { x0, y0: ys[0]!, x1, y1: ys[ys.length - 1]! },
    runIndices: lines.flatMap((line) => line.pieces.flatMap((piece) => piece.runIndices)),
  };
}

function centreY(box: Box): number {
  return (box.y0 + box.y1) / 2;
}

function height(box: Box): number {
  return Math.max(box.y1 - box.y0, 1);
}
