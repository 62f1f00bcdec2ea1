/**
 * One table ruled as bands: its header, body and total rows each boxed apart, a double rule
 * between them, so that no rule joins one band to the next and each reads as a grid of its own.
 * Bands stacked right on one another with the same column boundaries are one table.
 */

import type { RuledLayout } from './ruled-tables.js';

/** Boundaries this close (points) are one; bands this close (points) touch. */
const SAME_BOUNDARY = 3;
const MAX_BAND_GAP = 4;

export function joinRuledBands(layouts: readonly RuledLayout[]): RuledLayout[] {
  const sorted = [...layouts].sort((a, b) => a.box.y0 - b.box.y0);
  const joined: RuledLayout[] = [];
  for (const layout of sorted) {
    const above = joined.find((band) => continues(band, layout));
    if (!above) {
      joined.push(layout);
      continue;
    }
    const rows = above.ys.length - 1;
    const seam = (above.box.y1 + layout.box.y0) / 2;
    Object.assign(above, {
      ys: [...above.ys.slice(0, -1), seam, ...layout.ys.slice(1)],
      cells: [...above.cells, ...layout.cells.map((cell) => ({ ...cell, row: cell.row + rows }))],
      box: { ...above.box, y1: layout.box.y1 },
    });
  }
  return joined;
}

function continues(upper: RuledLayout, lower: RuledLayout): boolean {
  const gap = lower.box.y0 - upper.box.y1;
  return (
    gap >= -SAME_BOUNDARY &&
    gap <= MAX_BAND_GAP &&
    upper.xs.length === lower.xs.length &&
    upper.xs.every((x, i) => Math.abs(x - lower.xs[i]!) <= SAME_BOUNDARY)
  );
}
