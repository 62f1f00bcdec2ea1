/**
 * Joins ruling lines that continue each other. Table borders arrive cell by cell (Chromium and
 * word processors draw one short bar per cell side), while the grid wants whole lines.
 */

import type { Rule } from '../layout/geometry.js';

/** Rules whose centre lines are this close (points) are on the same line. */
const SAME_LINE = 1;
/** Pieces of one line this far apart (points) or closer are one rule; wider gaps separate rules. */
const JOIN_GAP = 1.5;

export function mergeRules(rules: readonly Rule[]): Rule[] {
  const horizontal = rules.filter((rule) => rule.orientation === 'horizontal').map(toLine);
  const vertical = rules.filter((rule) => rule.orientation === 'vertical').map((rule) => transpose(toLine(rule)));
  return [
    ...mergeLines(horizontal).map((line) => toRule(line, 'horizontal')),
    ...mergeLines(vertical).map((line) => toRule(transpose(line), 'vertical')),
  ];
}

/** A rule seen as horizontal: `start..end` along it, `low..high` across it. */
interface Line {
  start: number;
  end: number;
  low: number;
  high: number;
}

function toLine(rule: Rule): Line {
  return { start: rule.x0, end: rule.x1, low: rule.y0, high: rule.y1 };
}

function transpose(line: Line): Line {
  return { start: line.low, end: line.high, low: line.start, high: line.end };
}

function toRule(line: Line, orientation: Rule['orientation']): Rule {
  return { x0: line.start, x1: line.end, y0: line.low, y1: line.high, orientation };
}

function centre(line: Line): number {
  return (line.low + line.high) / 2;
}

function mergeLines(lines: Line[]): Line[] {
  lines.sort((a, b) => centre(a) - centre(b));
  const merged: Line[] = [];
  let band: Line[] = [];
  let bandCentre = -Infinity;
  for (const line of lines) {
    if (centre(line) - bandCentre > SAME_LINE) {
      merged.push(...joinAlong(band));
      band = [];
      bandCentre = centre(line);
    }
    band.push(line);
  }
  merged.push(...joinAlong(band));
  return merged;
}

/** Joins the pieces of one band that touch or overlap along their length. */
function joinAlong(band: Line[]): Line[] {
  band.sort((a, b) => a.start - b.start);
  const joined: Line[] = [];
  let current: Line | undefined;
  for (const line of band) {
    if (current && line.start - current.end <= JOIN_GAP) {
      current.end = Math.max(current.end, line.end);
      current.low = Math.min(current.low, line.low);
      current.high = Math.max(current.high, line.high);
    } else {
      if (current) joined.push(current);
      current = { ...line };
    }
  }
  if (current) joined.push(current);
  return joined;
}
