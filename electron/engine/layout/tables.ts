/**
 * Tables on a page, rebuilt as cells: first those drawn with ruling lines, then, among the runs
 * left, those laid out by column alignment alone (across the page, then within each text column).
 */

import { tableMarkdown, type TableGrid } from '../../../shared/table-markdown.js';
import { findAlignedTables } from './aligned-tables.js';
import { fillCells } from './cell-text.js';
import { findFigureStatements } from './figure-columns.js';
import { splitAtGutters } from './column-gutters.js';
import type { Box, Rule, TextRun } from './geometry.js';
import { findRuledLayouts } from './ruled-tables.js';
import { splitStackedRows, splitUnruledSpans } from './ruled-cell-splits.js';
import { splitAlignedColumns } from './ruled-column-splits.js';
import { joinRuledBands } from './ruled-bands.js';
import { headedGrid } from './ruled-headers.js';
import { splitBlankBands } from './ruled-row-gaps.js';
import { partSpannedRows } from './ruled-row-parts.js';
import { withTitleRow } from './ruled-titles.js';
import { columnCount, rowCount, slotAt } from './table-layout.js';

export interface DetectedTable {
  box: Box;
  /** Indices into the `runs` given to detectTables of the runs the table took. */
  runIndices: number[];
  /** GFM pipe table when the grid is simple, an HTML table otherwise. */
  markdown: string;
}

/** Text this far (points) outside a ruled grid still belongs to it (glyphs overhang borders). */
const EDGE_SLACK = 1;

/** A table being assembled: its grid, column boundaries and box, rendered once all are found. */
interface FoundTable {
  box: Box;
  runIndices: number[];
  grid: TableGrid;
  xs: readonly number[];
  ruled: boolean;
}

/** A ruled grid of at most this many rows may be the header of a body drawn apart from it. */
const MAX_RULED_HEADER_ROWS = 3;
/** A body this close below a ruled header (in the header's mean row heights) continues it. */
const BODY_BELOW_HEADER_ROWS = 1.5;

export function detectTables(runs: readonly TextRun[], rules: readonly Rule[], page: { width: number; height: number }): DetectedTable[] {
  const taken = new Set<number>();
  const found: FoundTable[] = [];
  const loneRows: FoundTable[] = [];
  const byCentreY = runs.map((_, i) => i).sort((a, b) => centreY(runs[a]!) - centreY(runs[b]!));
  for (const ruled of joinRuledBands(findRuledLayouts(rules)).map(withTitleRow)) {
    const inside = runsInside(runs, byCentreY, ruled.box).filter((i) => !taken.has(i));
    // Rows stacked in one ruled slot are parted before and again after its columns are: either may reveal the other.
    const stacked = splitStackedRows(splitAlignedColumns(splitStackedRows(splitUnruledSpans(ruled, runs, inside), runs, inside), runs, inside), runs, inside);
    const layout = partSpannedRows(splitBlankBands(stacked, runs, inside), runs, inside);
    const grid = fillCells(layout, runs, inside);
    if (columnCount(layout) < 2 || filledCells(grid) < 2) continue;
    if (rowCount(layout) < 2) {
      // One ruled row may head a ruled body drawn apart from it; taken only if it does.
      loneRows.push({ box: ruled.box, runIndices: inside, grid, xs: layout.xs, ruled: true });
      continue;
    }
    inside.forEach((i) => taken.add(i));
    found.push({ box: ruled.box, runIndices: inside, grid, xs: layout.xs, ruled: true });
  }
  for (const row of loneRows) {
    const body = found.find((table) => table.ruled && headedGrid(row, table));
    if (!body || row.runIndices.some((i) => taken.has(i))) continue;
    Object.assign(body, { box: { ...body.box, y0: row.box.y0 }, runIndices: [...row.runIndices, ...body.runIndices], grid: headedGrid(row, body)!, ruled: false });
    row.runIndices.forEach((i) => taken.add(i));
  }
  // Full-width tables first, then tables inside one text column, apart from the prose beside them.
  const findAligned = (indices: number[]) => {
    for (const table of findAlignedTables(runs, indices, rules)) {
      // Without rules around cells there is no telling an author's line break from wrapping: join.
      const grid = joinedCellLines(fillCells(table.layout, runs, table.cellRunIndices));
      table.runIndices.forEach((i) => taken.add(i));
      found.push({ box: table.box, runIndices: table.runIndices, grid, xs: table.layout.xs, ruled: false });
    }
  };
  const untaken = () => runs.map((_, i) => i).filter((i) => !taken.has(i));
  findAligned(untaken());
  const columns = splitAtGutters(runs, untaken(), page.width);
  if (columns.length > 1) columns.forEach(findAligned);
  // Then statements of two columns, labels and figures, which alignment alone does not tell from prose.
  for (const statement of findFigureStatements(runs, untaken())) {
    statement.runIndices.forEach((i) => taken.add(i));
    found.push({ box: statement.box, runIndices: statement.runIndices, grid: joinedCellLines(fillCells(statement.layout, runs, statement.runIndices)), xs: statement.layout.xs, ruled: false });
  }
  found.sort((a, b) => a.box.y0 - b.box.y0);
  const tables: FoundTable[] = [];
  for (const table of found) {
    const header = tables.find((other) => continuesRuledHeader(other, table));
    if (header) Object.assign(header, joined(header, table));
    else tables.push(table);
  }
  return tables.map(({ box, runIndices, grid }) => ({ box, runIndices, markdown: tableMarkdown(grid) }));
}

/**
 * A ruled grid of a few header rows over a body drawn apart from it (a report's boxed header
 * above plain or separately ruled rows of figures) is one table: the body starts right under the
 * grid, and each of its columns lies in the grid's column of the same place.
 */
function continuesRuledHeader(header: FoundTable, body: FoundTable): boolean {
  if (!header.ruled || header.grid.rows.length === 0 || header.grid.rows.length > MAX_RULED_HEADER_ROWS) return false;
  const columns = header.xs.length - 1;
  if (body.xs.length - 1 !== columns) return false;
  const rowHeight = (header.box.y1 - header.box.y0) / header.grid.rows.length;
  const gap = body.box.y0 - header.box.y1;
  if (gap < -EDGE_SLACK || gap > BODY_BELOW_HEADER_ROWS * rowHeight) return false;
  return body.xs.slice(0, -1).every((x, i) => slotAt(header.xs, (x + body.xs[i + 1]!) / 2) === i && (x + body.xs[i + 1]!) / 2 > header.xs[0]! && (x + body.xs[i + 1]!) / 2 < header.xs[columns]!);
}

/** The header's rows, all headings, then the body's rows, all data. */
function joined(header: FoundTable, body: FoundTable): FoundTable {
  return {
    box: { x0: Math.min(header.box.x0, body.box.x0), y0: header.box.y0, x1: Math.max(header.box.x1, body.box.x1), y1: body.box.y1 },
    runIndices: [...header.runIndices, ...body.runIndices],
    grid: { rows: [...header.grid.rows, ...body.grid.rows], headerRows: header.grid.rows.length },
    xs: header.xs,
    ruled: false,
  };
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
