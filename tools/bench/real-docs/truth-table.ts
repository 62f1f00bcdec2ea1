/**
 * A ground-truth table (ICDAR's cell structure, a LaTeX tabular, an HTML table) as a grid, its
 * rendering as an HTML table, and the table checks read from it: a cell with the cells next to it
 * and its column's heading, as olmOCR-Bench's table tests state them.
 */

import { escapeHtmlText } from '../../../shared/html-entities.js';
import type { CheckSpec } from './bench-check.js';
import { spread } from './bench-check.js';

export interface TruthCell {
  row: number;
  col: number;
  rowSpan: number;
  colSpan: number;
  /** The cell's text, whitespace collapsed. */
  text: string;
  /** False when the text is only an approximation (markup that prints otherwise): rendered, never checked. */
  usable: boolean;
}

export interface TruthTable {
  cells: TruthCell[];
  /** Leading rows that head the columns. */
  headerRows: number;
}

/** The cell covering each slot, `grid[row][col]`. */
function slotGrid(table: TruthTable): (TruthCell | undefined)[][] {
  const grid: (TruthCell | undefined)[][] = [];
  for (const cell of table.cells) {
    for (let r = cell.row; r < cell.row + cell.rowSpan; r++) {
      const line = (grid[r] ??= []);
      for (let c = cell.col; c < cell.col + cell.colSpan; c++) line[c] = cell;
    }
  }
  return grid;
}

function dimensions(table: TruthTable): { rows: number; cols: number } {
  return {
    rows: Math.max(0, ...table.cells.map((c) => c.row + c.rowSpan)),
    cols: Math.max(0, ...table.cells.map((c) => c.col + c.colSpan)),
  };
}


/** The table as HTML: header rows in `<thead>` as `<th>`, empty slots as empty cells, spans as spans. */
export function tableHtml(table: TruthTable): string {
  const grid = slotGrid(table);
  const { rows, cols } = dimensions(table);
  const lines: string[] = ['<table>'];
  for (let r = 0; r < rows; r++) {
    const head = r < table.headerRows;
    if (r === 0 && head) lines.push('<thead>');
    if (r === table.headerRows) lines.push('<tbody>');
    const tag = head ? 'th' : 'td';
    let row = '<tr>';
    for (let c = 0; c < cols; c++) {
      const cell = grid[r]?.[c];
      if (!cell) row += `<${tag}></${tag}>`;
      else if (cell.row === r && cell.col === c) {
        const spans = `${cell.rowSpan > 1 ? ` rowspan="${cell.rowSpan}"` : ''}${cell.colSpan > 1 ? ` colspan="${cell.colSpan}"` : ''}`;
        row += `<${tag}${spans}>${escapeHtmlText(cell.text)}</${tag}>`;
      }
    }
    lines.push(`${row}</tr>`);
    if (head && r === table.headerRows - 1) lines.push('</thead>');
  }
  if (rows > table.headerRows) lines.push('</tbody>');
  lines.push('</table>');
  return lines.join('\n');
}

const RELATIONS = ['left', 'up', 'top_heading', 'right', 'down'] as const;
type Relation = (typeof RELATIONS)[number];

/**
 * Up to `limit` table checks spread over the table: cells whose text is printed on the page
 * (`printed`) and appears once in the table, each with up to three of its neighbours (the cell
 * in the slot just left of, above, right of or below it; an empty slot says nothing) and the
 * heading of its column (the first row's cell over it, for cells below the header rows).
 */
export function tableChecks(table: TruthTable, printed: (text: string) => boolean, limit: number): CheckSpec[] {
  const grid = slotGrid(table);
  const counts = new Map<string, number>();
  for (const cell of table.cells) counts.set(cell.text, (counts.get(cell.text) ?? 0) + 1);
  const checkable = (cell: TruthCell | undefined): cell is TruthCell =>
    cell !== undefined && cell.usable && /[\p{L}\p{N}]/u.test(cell.text) && printed(cell.text);
  const candidates: CheckSpec[] = [];
  for (const cell of [...table.cells].sort((a, b) => a.row - b.row || a.col - b.col)) {
    if (!checkable(cell) || counts.get(cell.text) !== 1) continue;
    const neighbour: Record<Relation, TruthCell | undefined> = {
      left: grid[cell.row]?.[cell.col - 1],
      up: grid[cell.row - 1]?.[cell.col],
      right: grid[cell.row]?.[cell.col + cell.colSpan],
      down: grid[cell.row + cell.rowSpan]?.[cell.col],
      top_heading: table.headerRows > 0 && cell.row >= table.headerRows ? grid[0]?.[cell.col] : undefined,
    };
    const spec: Extract<CheckSpec, { type: 'table' }> = { type: 'table', cell: cell.text };
    let count = 0;
    for (const relation of RELATIONS) {
      const other = neighbour[relation];
      if (count === 3 || !checkable(other) || other === cell) continue;
      if (relation === 'top_heading' && (other.row >= table.headerRows || other === neighbour.up)) continue;
      spec[relation] = other.text;
      count++;
    }
    if (count > 0) candidates.push(spec);
  }
  return spread(candidates, limit);
}
