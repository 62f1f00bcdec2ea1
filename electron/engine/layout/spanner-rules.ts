/**
 * Spanner rules: a short horizontal rule drawn right under a heading (booktabs' \cmidrule, a
 * statistical report's line under "Number of teachers") marks the columns the heading spans,
 * exactly: those whose text lies under the rule. Centring alone cannot tell them apart when a
 * wide label column or uneven gaps pull a run of columns' middle away from the heading's.
 */

import type { Box, Rule } from './geometry.js';

/** How far below a heading (in its line heights) its spanner rule may lie. */
const RULE_REACH = 1;
/** A column's text may overhang the rule's ends by this much (points). */
const END_SLACK = 2;
/** A rule this wide a share of the table's columns is a rule across the table, not a spanner. */
const ACROSS_SHARE = 0.9;

export interface ColumnRange {
  x0: number;
  x1: number;
}

/**
 * The first and last column of the run that a rule drawn under the heading spans, or undefined
 * when no such rule lies there. Only horizontal rules are looked at; a rule under other headings
 * of the line as well (`neighbours`; borders of neighbouring cells drawn as one line) marks none.
 */
export function spannedColumns(heading: Box, neighbours: readonly Box[], columns: readonly ColumnRange[], rules: readonly Rule[]): { first: number; last: number } | undefined {
  if (columns.length < 2) return undefined;
  const height = Math.max(heading.y1 - heading.y0, 1);
  const centre = (heading.x0 + heading.x1) / 2;
  const tableWidth = columns[columns.length - 1]!.x1 - columns[0]!.x0;
  const rule = rules.find(
    (r) =>
      r.orientation === 'horizontal' &&
      r.y0 >= heading.y1 - 1 &&
      r.y0 - heading.y1 <= RULE_REACH * height &&
      r.x0 <= centre &&
      r.x1 >= centre &&
      r.x1 - r.x0 < ACROSS_SHARE * tableWidth &&
      !neighbours.some((other) => other !== heading && (other.x0 + other.x1) / 2 >= r.x0 && (other.x0 + other.x1) / 2 <= r.x1),
  );
  if (!rule) return undefined;
  const under = columns.map((column, i) => (column.x0 >= rule.x0 - END_SLACK && column.x1 <= rule.x1 + END_SLACK ? i : -1)).filter((i) => i >= 0);
  if (under.length === 0) return undefined;
  return { first: under[0]!, last: under[under.length - 1]! };
}
