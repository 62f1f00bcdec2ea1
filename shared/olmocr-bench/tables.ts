/**
 * Tables found in an output the way olmOCR-Bench finds them, as a graph of cells: Markdown tables
 * (any run of two or more lines holding a `|`; the first row and the first column are headings) and
 * HTML tables (`<th>` cells and cells of `<thead>` rows are headings). A spanned cell is one cell
 * that occupies several grid slots; its neighbours up, down, left and right are the nearest other
 * cell in each of those slots' rows or columns, and its headings the heading cells reached by
 * walking upwards (leftwards) from it through its neighbours.
 * HTML is parsed as a browser parses it and its rows read as the exports read them (table-grid.ts).
 */

import type { Element } from 'hast';
import { fromHtml } from 'hast-util-from-html';
import { tableRows, tablesIn } from '../export/table-grid.js';

/** A cell is named by the grid slot of its top-left corner, as `row,col`. */
export type CellKey = `${number},${number}`;

export interface TableData {
  /** Each cell's text, in reading order. */
  cellText: Map<CellKey, string>;
  up: Map<CellKey, CellKey[]>;
  down: Map<CellKey, CellKey[]>;
  left: Map<CellKey, CellKey[]>;
  right: Map<CellKey, CellKey[]>;
  topHeading: Map<CellKey, CellKey[]>;
  leftHeading: Map<CellKey, CellKey[]>;
}

interface CellSpec {
  text: string;
  rowSpan: number;
  colSpan: number;
  heading: boolean;
}

export function parseMarkdownTables(content: string): TableData[] {
  const tables: TableData[] = [];
  let run: string[] = [];
  const flush = () => {
    if (run.length >= 2) {
      const rows = markdownRows(run);
      const table = rows.length > 0 ? tableGraph(rows.map((cells, r) => cells.map((text, c) => ({ text, rowSpan: 1, colSpan: 1, heading: r === 0 || c === 0 })))) : undefined;
      if (table) tables.push(table);
    }
    run = [];
  };
  for (const line of content.trim().split('\n')) {
    if (line.includes('|')) run.push(line);
    else flush();
  }
  flush();
  return tables;
}

function markdownRows(lines: readonly string[]): string[][] {
  const separator = lines.findIndex((line) => {
    const inner = line.replaceAll('|', '').trim();
    return inner !== '' && /^[- :]+$/.test(inner);
  });
  const rows: string[][] = [];
  lines.forEach((line, i) => {
    if (i === separator) return;
    if (line.trim() !== '' && /^[- :|]+$/.test(line)) return;
    let cells = line.split('|').map((cell) => cell.trim());
    if (cells[0] === '') cells = cells.slice(1);
    if (cells.at(-1) === '') cells = cells.slice(0, -1);
    if (cells.length > 0) rows.push(cells);
  });
  return rows;
}

export function parseHtmlTables(content: string): TableData[] {
  if (!/<table/i.test(content)) return [];
  return tablesIn(fromHtml(content, { fragment: true }))
    .map(htmlRows)
    .filter((rows) => rows.length > 0)
    .map(tableGraph)
    .filter((table): table is TableData => table !== undefined);
}

/**
 * The table's rows and their cells, as the exports read them. A row the HTML parser implied (it has
 * no place in the source) is not read: olmOCR's parser, Python's html.parser, gives none for cells
 * written outside any `<tr>`.
 */
function htmlRows(table: Element): CellSpec[][] {
  const rows = tableRows(table).filter((row) => row.element.position !== undefined);
  return rows.map(({ cells, inHead }, index) =>
    cells.map((cell) => ({ heading: cell.tagName === 'th' || inHead, text: cellText(cell).trim(), rowSpan: span(cell.properties['rowSpan'], index), colSpan: span(cell.properties['colSpan'], -1) })),
  );
}

/** A span attribute: a positive whole number, else 1; `rowspan="0"` runs to the last row. `rowIndex` < 0 for colspan. */
function span(value: unknown, rowIndex: number): number {
  if (value === undefined || value === null) return 1;
  const n = Number.parseInt(String(value), 10);
  if (n === 0 && rowIndex >= 0) return Infinity;
  return n >= 1 ? n : 1;
}

/** The cell's text as olmOCR reads it: each `<br>` a line break, the text nodes joined as they are (BeautifulSoup's get_text(separator='')). */
function cellText(node: Element): string {
  return node.children.map((child) => (child.type === 'text' ? child.value : child.type !== 'element' ? '' : child.tagName === 'br' ? '\n' : cellText(child))).join('');
}

/**
 * A cell's headings as olmOCR finds them: every heading cell reached by walking from it through
 * its neighbours upwards (or leftwards), spans and all; where none is reached, the cells the walk
 * ends at (a table without headings is headed by its first row).
 */
function headingWalk(start: CellKey, relation: ReadonlyMap<CellKey, CellKey[]>, heading: ReadonlySet<CellKey>): CellKey[] {
  const headings = new Set<CellKey>();
  const ends = new Set<CellKey>();
  const seen = new Set<CellKey>();
  const toVisit = [start];
  while (toVisit.length > 0) {
    const current = toVisit.pop()!;
    if (seen.has(current)) continue;
    seen.add(current);
    if (heading.has(current)) headings.add(current);
    const next = relation.get(current) ?? [];
    if (next.length === 0) ends.add(current);
    else toVisit.push(...next);
  }
  headings.delete(start);
  ends.delete(start);
  return [...(headings.size > 0 ? headings : ends)];
}

/**
 * Lays the cells on a grid (a rowspan holds its slots in the rows below; rows the spans run past
 * the last one are added) and links each cell to its neighbours and headings.
 */
function tableGraph(rowSpecs: readonly CellSpec[][]): TableData | undefined {
  const cellText = new Map<CellKey, string>();
  const heading = new Set<CellKey>();
  const extent = new Map<CellKey, { row: number; col: number; rowEnd: number; colEnd: number }>();
  const grid: (CellKey | undefined)[][] = [];
  let pending: ({ key: CellKey; rows: number } | undefined)[] = [];
  const rowCount = rowSpecs.length;
  const takePending = (line: (CellKey | undefined)[], col: number) => {
    const held = pending[col]!;
    line.push(held.key);
    pending[col] = held.rows > 1 ? { key: held.key, rows: held.rows - 1 } : undefined;
  };
  rowSpecs.forEach((specs, row) => {
    const line: (CellKey | undefined)[] = [];
    let col = 0;
    let next = 0;
    while (next < specs.length || col < pending.length) {
      if (pending[col]) {
        takePending(line, col++);
        continue;
      }
      if (next >= specs.length) {
        line.push(undefined);
        col++;
        continue;
      }
      const spec = specs[next++]!;
      const rowSpan = spec.rowSpan === Infinity ? Math.max(1, rowCount - row) : spec.rowSpan;
      const key: CellKey = `${row},${col}`;
      cellText.set(key, spec.text);
      if (spec.heading) heading.add(key);
      extent.set(key, { row, col, rowEnd: row + rowSpan - 1, colEnd: col + spec.colSpan - 1 });
      while (pending.length < col + spec.colSpan) pending.push(undefined);
      for (let j = 0; j < spec.colSpan; j++) {
        line.push(key);
        pending[col + j] = rowSpan > 1 ? { key, rows: rowSpan - 1 } : undefined;
      }
      col += spec.colSpan;
    }
    grid.push(line);
  });
  while (pending.some((held) => held !== undefined)) {
    const line: (CellKey | undefined)[] = [];
    for (let col = 0; col < pending.length; col++) {
      if (pending[col]) takePending(line, col);
      else line.push(undefined);
    }
    grid.push(line);
  }
  if (cellText.size === 0) return undefined;
  const width = Math.max(0, ...grid.map((line) => line.reduce((last, key, col) => (key === undefined ? last : col + 1), 0)));
  if (width === 0) return undefined;
  const at = (row: number, col: number) => grid[row]?.[col];
  const height = grid.length;

  const table: TableData = { cellText, up: new Map(), down: new Map(), left: new Map(), right: new Map(), topHeading: new Map(), leftHeading: new Map() };
  for (const [key, { row, col, rowEnd, colEnd }] of extent) {
    /** The first other cell met stepping from `start` by `step` along each of the span's lines. */
    const nearest = (lines: [number, number], start: number, stop: number, step: number, slot: (line: number, i: number) => CellKey | undefined) => {
      const found = new Set<CellKey>();
      for (let line = lines[0]; line <= lines[1]; line++) {
        for (let i = start; step > 0 ? i < stop : i > stop; i += step) {
          const other = slot(line, i);
          if (other === undefined || other === key) continue;
          found.add(other);
          break;
        }
      }
      return [...found];
    };
    const inRow = (r: number, c: number) => (c < width ? at(r, c) : undefined);
    const inCol = (c: number, r: number) => at(r, c);
    table.right.set(key, nearest([row, rowEnd], colEnd + 1, width, 1, inRow));
    table.left.set(key, nearest([row, rowEnd], col - 1, -1, -1, inRow));
    table.down.set(key, nearest([col, colEnd], rowEnd + 1, height, 1, inCol));
    table.up.set(key, nearest([col, colEnd], row - 1, -1, -1, inCol));
  }
  for (const key of extent.keys()) {
    table.topHeading.set(key, headingWalk(key, table.up, heading));
    table.leftHeading.set(key, headingWalk(key, table.left, heading));
  }
  return table;
}
