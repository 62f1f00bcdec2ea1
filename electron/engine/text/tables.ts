// Placeholder until table detection lands (being written now).
import type { Box, Rule, TextRun } from './geometry.js';

export interface DetectedTable {
  box: Box;
  /** Indices into the `runs` given to detectTables of the runs the table took. */
  runIndices: number[];
  /** GFM pipe table when the grid is simple, an HTML table otherwise. */
  markdown: string;
}

export function detectTables(
  _runs: readonly TextRun[],
  _rules: readonly Rule[],
  _page: { width: number; height: number },
): DetectedTable[] {
  return [];
}
