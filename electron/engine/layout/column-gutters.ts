/**
 * The page's text columns, split at gutters: vertical strips that almost no run crosses. A table
 * set in one column of a two-column page shares its lines with the prose beside it; looking for
 * it column by column keeps that prose out of its rows.
 */

import type { TextRun } from './geometry.js';

/** A strip is a gutter when at most this share of the busiest strip's runs cross it. */
const GUTTER_SHARE = 0.2;
/** Narrower strips (points) are gaps between words or cells, not gutters. */
const MIN_GUTTER_WIDTH = 6;
/** Gutters lie inside the text, this share of its width away from either side. */
const EDGE_SHARE = 0.15;

/**
 * Groups of run indices, one per text column left to right; runs that cross a gutter (full-width
 * titles, tables) or lie off the page belong to none. A single group when the page has no gutter.
 */
export function splitAtGutters(runs: readonly TextRun[], indices: readonly number[], pageWidth: number): number[][] {
  const onPage = (x: number) => Number.isFinite(x) && x >= 0 && x <= pageWidth;
  const usable = indices.filter((i) => runs[i]!.text.trim().length > 0 && onPage(runs[i]!.x0) && onPage(runs[i]!.x1));
  if (usable.length === 0) return [];
  let left = Infinity;
  let right = -Infinity;
  for (const i of usable) {
    left = Math.min(left, Math.floor(runs[i]!.x0));
    right = Math.max(right, Math.ceil(runs[i]!.x1));
  }
  const coverage = coverageByPoint(runs, usable, left, right);
  const busiest = coverage.reduce((most, count) => Math.max(most, count), 0);
  const gutters = lowStrips(coverage, GUTTER_SHARE * busiest, MIN_GUTTER_WIDTH)
    .map(([from, to]) => [left + from, left + to] as const)
    .filter(([from, to]) => from > left + EDGE_SHARE * (right - left) && to < right - EDGE_SHARE * (right - left));
  if (gutters.length === 0) return [usable];
  const groups: number[][] = gutters.map(() => []).concat([[]]);
  for (const i of usable) {
    const run = runs[i]!;
    const crosses = gutters.some(([from, to]) => run.x0 < to && run.x1 > from && run.x0 < from && run.x1 > to);
    if (crosses) continue;
    const column = gutters.filter(([from]) => (run.x0 + run.x1) / 2 > from).length;
    groups[column]!.push(i);
  }
  return groups.filter((group) => group.length > 0);
}

/** How many runs cover each point-wide strip from `left` to `right`. */
function coverageByPoint(runs: readonly TextRun[], indices: readonly number[], left: number, right: number): number[] {
  const change = new Array<number>(right - left + 2).fill(0);
  for (const i of indices) {
    const run = runs[i]!;
    change[Math.floor(run.x0) - left]! += 1;
    change[Math.ceil(run.x1) - left]! -= 1;
  }
  const coverage: number[] = [];
  let count = 0;
  for (let x = 0; x <= right - left; x++) {
    count += change[x]!;
    coverage.push(count);
  }
  return coverage;
}

/** Maximal runs of strips at or below `limit`, at least `minWidth` wide, as [from, to) offsets. */
function lowStrips(coverage: readonly number[], limit: number, minWidth: number): [number, number][] {
  const strips: [number, number][] = [];
  let start = -1;
  coverage.forEach((count, x) => {
    if (count <= limit && start < 0) start = x;
    if (count > limit && start >= 0) {
      if (x - start >= minWidth) strips.push([start, x]);
      start = -1;
    }
  });
  return strips;
}
