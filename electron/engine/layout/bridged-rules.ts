/**
 * Horizontal rules drawn cell by cell with a small gap at each column gutter (word processors'
 * tables with spaced cell borders) read, for a table found by alignment, as one rule across: a
 * rule under a header or over a total spans the table whichever way it was drawn.
 */

import type { Rule } from './geometry.js';

/** Pieces whose centre lines are this close (points) lie on one line. */
const SAME_LINE = 1;
/** Pieces of one line this far apart (points) or closer are one rule. */
const BRIDGE_GAP = 4;

export function bridgedRules(horizontal: readonly Rule[]): Rule[] {
  const sorted = [...horizontal].sort((a, b) => centre(a) - centre(b) || a.x0 - b.x0);
  const lines: Rule[][] = [];
  for (const rule of sorted) {
    const line = lines.find((pieces) => Math.abs(centre(pieces[0]!) - centre(rule)) <= SAME_LINE);
    if (line) line.push(rule);
    else lines.push([rule]);
  }
  return lines.flatMap((pieces) => {
    const joined: Rule[] = [];
    for (const piece of [...pieces].sort((a, b) => a.x0 - b.x0)) {
      const last = joined.at(-1);
      if (last && piece.x0 - last.x1 <= BRIDGE_GAP) {
        joined[joined.length - 1] = { ...last, x1: Math.max(last.x1, piece.x1), y0: Math.min(last.y0, piece.y0), y1: Math.max(last.y1, piece.y1) };
      } else joined.push({ ...piece });
    }
    return joined;
  });
}

function centre(rule: Rule): number {
  return (rule.y0 + rule.y1) / 2;
}
