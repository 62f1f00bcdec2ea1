/**
 * Table skeletons drawn with ruling lines: horizontal and vertical rules that meet form a grid;
 * a slot boundary with no rule drawn along it means the cells on either side are one spanning cell.
 */

import type { Box, Rule } from './geometry.js';
import type { CellSpan, TableLayout } from './table-layout.js';

/** Rules this close (points) count as touching; positions this close are one grid line. */
const TOUCH = 2;
const SAME_POSITION = 3;
/** A boundary is drawn when rules cover at least this share of it. */
const DRAWN_SHARE = 0.5;
/** Past this many rules in one direction a page is a drawing, not a table page. */
const MAX_RULES = 3000;

export interface RuledLayout extends TableLayout {
  box: Box;
}

export function findRuledLayouts(rules: readonly Rule[]): RuledLayout[] {
  const horizontal = rules.filter((rule) => rule.orientation === 'horizontal').sort((a, b) => centreY(a) - centreY(b));
  const vertical = rules.filter((rule) => rule.orientation === 'vertical');
  if (horizontal.length > MAX_RULES || vertical.length > MAX_RULES) return [];
  return connectedGroups(horizontal, vertical)
    .map((group) => layoutOf(group.horizontal, group.vertical))
    .filter((layout): layout is RuledLayout => layout !== undefined);
}

interface RuleGroup {
  horizontal: Rule[];
  vertical: Rule[];
}

/** Groups of rules that touch one another; `horizontal` must be sorted by centre y. */
function connectedGroups(horizontal: readonly Rule[], vertical: readonly Rule[]): RuleGroup[] {
  const parent = Array.from({ length: horizontal.length + vertical.length }, (_, i) => i);
  const find = (i: number): number => {
    while (parent[i] !== i) {
      parent[i] = parent[parent[i]!]!;
      i = parent[i]!;
    }
    return i;
  };
  const ys = horizontal.map(centreY);
  vertical.forEach((v, vi) => {
    const x = centreX(v);
    for (let hi = firstAtLeast(ys, v.y0 - TOUCH); hi < horizontal.length && ys[hi]! <= v.y1 + TOUCH; hi++) {
      const h = horizontal[hi]!;
      if (x >= h.x0 - TOUCH && x <= h.x1 + TOUCH) parent[find(horizontal.length + vi)] = find(hi);
    }
  });
  const groups = new Map<number, RuleGroup>();
  const groupOf = (i: number) => {
    const root = find(i);
    let group = groups.get(root);
    if (!group) groups.set(root, (group = { horizontal: [], vertical: [] }));
    return group;
  };
  horizontal.forEach((h, hi) => groupOf(hi).horizontal.push(h));
  vertical.forEach((v, vi) => groupOf(horizontal.length + vi).vertical.push(v));
  return [...groups.values()].filter((group) => group.vertical.length > 0 && group.horizontal.length > 0);
}

function layoutOf(horizontal: readonly Rule[], vertical: readonly Rule[]): RuledLayout | undefined {
  const left = Math.min(...horizontal.map((h) => h.x0));
  const right = Math.max(...horizontal.map((h) => h.x1));
  const top = Math.min(...vertical.map((v) => v.y0));
  const bottom = Math.max(...vertical.map((v) => v.y1));
  // Open-sided tables draw no outer verticals (or no top and bottom lines): the other rules' ends stand in.
  const xs = gridPositions([...vertical.map(centreX), left, right]);
  const ys = gridPositions([...horizontal.map(centreY), top, bottom]);
  // A single row is kept: it may be the header of a body ruled apart from it (tables.ts decides).
  if (xs.length < 3 || ys.length < 2) return undefined;
  const verticalDrawn = drawnBoundaries(xs, ys, vertical, centreX, (v) => [v.y0, v.y1]);
  const horizontalDrawn = drawnBoundaries(ys, xs, horizontal, centreY, (h) => [h.x0, h.x1]);
  const cells = spanningCells(
    ys.length - 1,
    xs.length - 1,
    (row, col) => verticalDrawn[col]![row]!,
    (row, col) => horizontalDrawn[row]![col]!,
  );
  // A header cell spanning rows (a grouped header) makes every row it covers a header row.
  const headerRows = Math.max(1, ...cells.filter((cell) => cell.row === 0).map((cell) => cell.rowSpan));
  return { xs, ys, cells, headerRows: headerRows < ys.length - 1 ? headerRows : 1, box: { x0: xs[0]!, y0: ys[0]!, x1: xs[xs.length - 1]!, y1: ys[ys.length - 1]! } };
}

/** Sorted positions with near-duplicates (double borders, line thickness) folded into one. */
function gridPositions(values: number[]): number[] {
  values.sort((a, b) => a - b);
  const positions: number[] = [];
  let cluster: number[] = [];
  for (const value of values) {
    if (cluster.length > 0 && value - cluster[cluster.length - 1]! > SAME_POSITION) {
      positions.push(mean(cluster));
      cluster = [];
    }
    cluster.push(value);
  }
  if (cluster.length > 0) positions.push(mean(cluster));
  return positions;
}

/**
 * `drawn[i][j]`: whether rules run along grid line `lines[i]` across slot `j` of `across`
 * (for vertical rules: column line i, row j).
 */
function drawnBoundaries(
  lines: readonly number[],
  across: readonly number[],
  rules: readonly Rule[],
  position: (rule: Rule) => number,
  extent: (rule: Rule) => [number, number],
): boolean[][] {
  const byLine = lines.map(() => [] as [number, number][]);
  for (const rule of rules) {
    const p = position(rule);
    const line = nearestIndex(lines, p);
    if (Math.abs(lines[line]! - p) <= SAME_POSITION) byLine[line]!.push(extent(rule));
  }
  return byLine.map((extents) =>
    across.slice(0, -1).map((start, j) => {
      const end = across[j + 1]!;
      return coveredLength(extents, start, end) >= DRAWN_SHARE * (end - start);
    }),
  );
}

function coveredLength(extents: readonly [number, number][], start: number, end: number): number {
  const clipped = extents
    .map(([a, b]) => [Math.max(a, start), Math.min(b, end)] as const)
    .filter(([a, b]) => b > a)
    .sort((p, q) => p[0] - q[0]);
  let covered = 0;
  let reach = start;
  for (const [a, b] of clipped) {
    if (b <= reach) continue;
    covered += b - Math.max(a, reach);
    reach = b;
  }
  return covered;
}

/**
 * Cells over the slots, reading row by row: a cell grows right while no rule separates it from
 * the next column, then down while no rule separates it from the next row along its whole width.
 */
function spanningCells(
  rows: number,
  cols: number,
  verticalDrawn: (row: number, colLine: number) => boolean,
  horizontalDrawn: (rowLine: number, col: number) => boolean,
): CellSpan[] {
  const taken = Array.from({ length: rows }, () => new Array<boolean>(cols).fill(false));
  const cells: CellSpan[] = [];
  for (let row = 0; row < rows; row++) {
    for (let col = 0; col < cols; col++) {
      if (taken[row]![col]) continue;
      let colSpan = 1;
      while (col + colSpan < cols && !taken[row]![col + colSpan] && !verticalDrawn(row, col + colSpan)) colSpan++;
      let rowSpan = 1;
      const canGrowDown = () => {
        for (let c = col; c < col + colSpan; c++) {
          if (taken[row + rowSpan]![c] || horizontalDrawn(row + rowSpan, c)) return false;
        }
        return true;
      };
      while (row + rowSpan < rows && canGrowDown()) rowSpan++;
      for (let r = row; r < row + rowSpan; r++) taken[r]!.fill(true, col, col + colSpan);
      cells.push({ row, col, rowSpan, colSpan });
    }
  }
  return cells;
}

function centreX(rule: Rule): number {
  return (rule.x0 + rule.x1) / 2;
}

function centreY(rule: Rule): number {
  return (rule.y0 + rule.y1) / 2;
}

function mean(values: readonly number[]): number {
  return values.reduce((sum, v) => sum + v, 0) / values.length;
}

function firstAtLeast(sorted: readonly number[], value: number): number {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const mid = (low + high) >> 1;
    if (sorted[mid]! < value) low = mid + 1;
    else high = mid;
  }
  return low;
}

function nearestIndex(sorted: readonly number[], value: number): number {
  const i = firstAtLeast(sorted, value);
  if (i === 0) return 0;
  if (i >= sorted.length) return sorted.length - 1;
  return value - sorted[i - 1]! <= sorted[i]! - value ? i - 1 : i;
}
