/**
 * Runs -> lines. First rows (runs sharing a baseline band), then each row is cut into fragments at
 * gaps wider than a word space, so that the columns of a page never share a fragment. After
 * reading order has been decided, the fragments of one column that share a row become a line again.
 */

import { overlapRatio, unionBox, type Box, type TextRun } from './geometry.js';

export interface Line extends Box {
  /** Left to right. */
  runs: TextRun[];
  /** The size of most of the line's characters. */
  fontSize: number;
}

/** A gap wider than this many ems ends a fragment: word spaces stay below it, column gutters above. */
const FRAGMENT_GAP_EM = 0.8;
/** A list marker may sit this far from its text and still belong to it. */
const MARKER_GAP_EM = 4;
const MIN_ROW_OVERLAP = 0.5;

// Word's Courier `o` and Wingdings `§` bullets included.
const BARE_MARKER = /^\s*([•◦▪▫■□●○‣⁃∙·*–—o§Øüqvn-]|\(?(\d{1,3}|[a-zA-Z]|[ivxlcdm]{1,6})[.)])\s*$/;

function centreY(box: Box): number {
  return (box.y0 + box.y1) / 2;
}

export function dominantFontSize(runs: readonly TextRun[]): number {
  const weight = new Map<number, number>();
  let best = runs[0]?.fontSize ?? 0;
  let bestWeight = -1;
  for (const run of runs) {
    const size = Math.round(run.fontSize * 2) / 2;
    const w = (weight.get(size) ?? 0) + run.text.length;
    weight.set(size, w);
    if (w > bestWeight) {
      bestWeight = w;
      best = size;
    }
  }
  return best;
}

export function makeLine(runs: TextRun[]): Line {
  return { runs, ...unionBox(runs), fontSize: dominantFontSize(runs) };
}

/** Runs grouped into rows: runs that overlap vertically by half of the smaller height share a row. */
export function groupRows(runs: readonly TextRun[]): TextRun[][] {
  const sorted = [...runs].sort((a, b) => centreY(a) - centreY(b) || a.x0 - b.x0);
  const open: { anchor: TextRun; runs: TextRun[] }[] = [];
  const rows: TextRun[][] = [];
  for (const run of sorted) {
    // Rows wholly above this run can take no more runs (runs arrive by their centre).
    for (let i = open.length - 1; i >= 0; i--) {
      if (open[i]!.anchor.y1 < run.y0) rows.push(open.splice(i, 1)[0]!.runs);
    }
    let best: { anchor: TextRun; runs: TextRun[] } | undefined;
    let bestOverlap = MIN_ROW_OVERLAP;
    for (const row of open) {
      const overlap = overlapRatio(row.anchor.y0, row.anchor.y1, run.y0, run.y1);
      if (overlap >= bestOverlap) {
        best = row;
        bestOverlap = overlap;
      }
    }
    if (best) {
      best.runs.push(run);
      if (run.fontSize > best.anchor.fontSize) best.anchor = run;
    } else {
      open.push({ anchor: run, runs: [run] });
    }
  }
  for (const row of open) rows.push(row.runs);
  return rows;
}

function isDuplicate(a: TextRun, b: TextRun): boolean {
  // Fake bold: the same text painted twice, a hair apart.
  return a.text === b.text && Math.abs(a.x0 - b.x0) < a.fontSize * 0.2 && Math.abs(a.y0 - b.y0) < a.fontSize * 0.2;
}

/** Cuts one row (any order) into fragments at wide gaps. */
export function splitRow(row: readonly TextRun[]): Line[] {
  const sorted = [...row].sort((a, b) => a.x0 - b.x0);
  const fragments: Line[] = [];
  let current: TextRun[] = [];
  let right = -Infinity;
  for (const run of sorted) {
    const last = current[current.length - 1];
    if (last && isDuplicate(last, run)) continue;
    if (last) {
      const gap = run.x0 - right;
      // The smaller size: a large heading beside body text must not bridge the gutter between them.
      const em = Math.min(last.fontSize, run.fontSize);
      const markerOnly = current.length === 1 && BARE_MARKER.test(last.text);
      const limit = (markerOnly ? MARKER_GAP_EM : FRAGMENT_GAP_EM) * em;
      if (gap > limit) {
        fragments.push(makeLine(current));
        current = [];
        right = -Infinity;
      }
    }
    current.push(run);
    right = Math.max(right, run.x1);
  }
  if (current.length > 0) fragments.push(makeLine(current));
  return fragments;
}

export function buildFragments(runs: readonly TextRun[]): Line[] {
  return groupRows(runs).flatMap(splitRow);
}

/** Fragments of one column that share a row join again, top to bottom. */
export function joinFragments(fragments: readonly Line[]): Line[] {
  const rows = groupRows(fragments.flatMap((f) => f.runs));
  return rows
    .map((row) => makeLine([...row].sort((a, b) => a.x0 - b.x0)))
    .sort((a, b) => a.y0 - b.y0 || a.x0 - b.x0);
}
