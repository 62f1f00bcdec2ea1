/**
 * Tables on a page, rebuilt as cells: first those drawn with ruling lines, then, among the runs
 * left, those laid out by column alignment alone (across the page, then within each text column).
 */

import { tableMarkdown, type TableGrid } from '../../../shared/table-markdown.js';
import { findAlignedTables } from './aligned-tables.js';
import { fillCells } from './cell-text.js';
import { splitAtGutters } from './column-gutters.js';
import type { Box, Rule, TextRun } from './geometry.js';
import { findRuledLayouts } from './ruled-tables.js';
import { columnCount, rowCount } from './table-layout.js';

export interface DetectedTable {
  box: Box;
  /** Indices into the `runs` given to detectTables of the runs the table took. */
  runIndices: number[];
  /** GFM pipe table when the grid is simple, an HTML table otherwise. */
  markdown: string;
}

/** Text this far (points) outside a ruled grid still belongs to it (glyphs overhang borders). */
const EDGE_SLACK = 1;

export function detectTables(runs: readonly TextRun[], rules: readonly Rule[], page: { width: number; height: number }): DetectedTable[] {
  const taken = new Set<number>();
  const tables: DetectedTable[] = [];
  const byCentreY = runs.map((_, i) => i).sort((a, b) => centreY(runs[a]!) - centreY(runs[b]!));
  for (const layout of findRuledLayouts(rules)) {
    const inside = runsInside(runs, byCentreY, layout.box).filter((i) => !taken.has(i));
    const grid = fillCells(layout, runs, inside);
    if (rowCount(layout) < 2 || columnCount(layout) < 2 || filledCells(grid) < 2) continue;
    inside.forEach((i) => taken.add(i));
    tables.push({ box: layout.box, runIndices: inside, markdown: tableMarkdown(grid) });
  }
  // Full-width tables first, then tables inside one text column, apart from the prose beside them.
  const findAligned = (indices: number[]) => {
    for (const table of findAlignedTables(runs, indices, rules)) {
      // Without rules around cells there is no telling an author's line break from wrapping: join.
      const grid = joinedCellLines(fillCells(table.layout, runs, table.cellRunIndices));
      table.runIndices.forEach((i) => taken.add(i));
      tables.push({ box: table.box, runIndices: table.runIndices, markdown: tableMarkdown(grid) });
    }
  };
  const untaken = () => runs.map((_, i) => i).filter((i) => !taken.has(i));
  findAligned(untaken());
  const columns = splitAtGutters(runs, untaken(), page.width);
  if (columns.length > 1) columns.forEach(findAligned);
  return tables.sort((a, b) => a.box.y0 - b.box.y0);
}

/** Runs whose centre lies in the box; `byCentreY` lists run indices sorted by centre y. */
function runsInside(runs: readonly TextRun[], byCentreY: readonly number[], box: Box): number[] {
  const inside: number[] = [];
  for (const i of byCentreY) {
    const run = runs[i]!;
    const y = centreY(run);
    if (y < box.y0 - EDGE_SLACK) continue;
    if (y > box.y1 + EDGE_SLACK) break;
    const x = (run.x0 + run.x1) / 2;
    if (x >= box.x0 - EDGE_SLACK && x <= box.x1 + EDGE_SLACK) inside.push(i);
  }
  return inside.sort((a, b) => a - b);
}

function joinedCellLines(grid: TableGrid): TableGrid {
  const rows = grid.rows.map((row) => row.map((cell) => ({ ...cell, lines: cell.lines.length > 1 ? [cell.lines.join(' ')] : cell.lines })));
  return { ...grid, rows };
}

function filledCells(grid: TableGrid): number {
  return grid.rows.reduce((sum, row) => sum + row.filter((cell) => cell.lines.length > 0).length, 0);
}

function centreY(box: Box): number {
  return (box.y0 + box.y1) / 2;
}
