/**
 * The tables of a page's Markdown as grids of cells, and a grid written back as the same kind of
 * table: HTML stays HTML, a GFM pipe table stays a pipe table. Tables are found with the parsers the
 * preview uses (remark-gfm for pipe tables, hast for the models' HTML tables), each with its source
 * range, so the table editor replaces exactly that range. A cell nobody touched is written back as
 * it was read, so its markup (spans, attributes, inline formatting) survives an edit of its neighbours.
 */

import type { Element, ElementContent } from 'hast';
import { fromHtml } from 'hast-util-from-html';
import type { Nodes, Table, TableCell as MarkdownCell } from 'mdast';
import remarkGfm from 'remark-gfm';
import remarkParse from 'remark-parse';
import { unified } from 'unified';
import { tableGrid, tablesIn } from '../../shared/export/table-grid.js';
import { escapeHtmlText } from '../../shared/html-entities.js';

export type ColumnAlign = 'left' | 'right' | 'center' | null;

/** How a cell was read, so that an untouched cell is written back verbatim. */
export interface CellOrigin {
  /** Its source: the whole `<td …>…</td>` for HTML, the text between the pipes for a pipe table. */
  source: string;
  text: string;
  rowSpan: number;
  colSpan: number;
  header: boolean;
}

export interface GridCell {
  row: number;
  column: number;
  rowSpan: number;
  colSpan: number;
  /** A `th` in an HTML table; a pipe table's header is its first row (`headerRow`). */
  header: boolean;
  /** What the person sees and edits: an HTML cell's text with `<br>` as a line break, a pipe cell's Markdown. */
  text: string;
  /** Undefined for a cell the person added. */
  origin?: CellOrigin;
}

export interface SourceTable {
  kind: 'html' | 'pipe';
  /** Its range in the page's Markdown. */
  from: number;
  to: number;
  source: string;
  rows: number;
  columns: number;
  /** Every cell, each listed once at the row and column where it starts. */
  cells: GridCell[];
  /** Pipe tables: whether the first row is a header (GFM needs a header line; without one it is written empty). */
  headerRow: boolean;
  /** Pipe tables: each column's alignment, from the delimiter row. */
  align: ColumnAlign[];
  /** The shape as read: a grid still this shape with every cell untouched is written back as its source. */
  read: { rows: number; columns: number; headerRow: boolean };
  /** HTML tables: the markup around the cells, kept when the table is rewritten. */
  html?: HtmlFrame;
}

/** An HTML table's `<table …>` tag, what precedes its rows (`<caption>`, `<colgroup>`), and each row's group and `<tr …>` tag. */
export interface HtmlFrame {
  open: string;
  lead: string[];
  /** The `<thead>`, `<tbody>` and `<tfoot>` written in the source (not those the parser implies). */
  groups: RowGroup[];
  /** One per row of the grid, kept in step by the row edits. */
  rows: HtmlRow[];
}

export interface RowGroup {
  tag: string;
  open: string;
}

export interface HtmlRow {
  /** Index into `groups`; undefined for a row written directly in the `<table>`. */
  group: number | undefined;
  open: string;
}

const markdownParser = unified().use(remarkParse).use(remarkGfm).freeze();

/** Every table in the Markdown, in order: pipe tables and HTML `<table>` blocks (not tables nested in a cell). */
export function tablesInMarkdown(markdown: string): SourceTable[] {
  const found: SourceTable[] = [];
  const visit = (node: Nodes, contained: boolean) => {
    // in a list or quote, a table's lines carry the container's prefixes (`> `, indentation), which a rewrite would lose
    if (contained && (node.type === 'table' || node.type === 'html')) return;
    if (node.type === 'table') {
      const table = pipeTable(markdown, node);
      if (table) found.push(table);
    } else if (node.type === 'html') {
      found.push(...htmlTables(markdown, node.value, node.position?.start.offset));
    } else if ('children' in node) {
      for (const child of node.children) visit(child, contained || node.type !== 'root');
    }
  };
  visit(markdownParser.parse(markdown), false);
  return found;
}

/** The table whose source holds the offset (a cursor), if any. */
export function tableAt(markdown: string, offset: number): SourceTable | undefined {
  return tablesInMarkdown(markdown).find((table) => offset >= table.from && offset <= table.to);
}

function pipeTable(markdown: string, node: Table): SourceTable | undefined {
  const from = node.position?.start.offset;
  const to = node.position?.end.offset;
  if (from === undefined || to === undefined) return undefined;
  const columns = Math.max(0, ...node.children.map((row) => row.children.length));
  const read = node.children.map((row) => Array.from({ length: columns }, (_, column) => pipeCellSource(markdown, row.children[column])));
  // an empty header line is how a table without a header is written (GFM needs one); alone, it is the table
  const headerRow = read.length === 1 || (read[0] ?? []).some((source) => source !== '');
  const rows = headerRow ? read : read.slice(1);
  const cells = rows.flatMap((sources, row) =>
    sources.map((source, column): GridCell => {
      const text = pipeCellText(source);
      return { row, column, rowSpan: 1, colSpan: 1, header: false, text, origin: { source, text, rowSpan: 1, colSpan: 1, header: false } };
    }),
  );
  const align = Array.from({ length: columns }, (_, column) => node.align?.[column] ?? null);
  return { kind: 'pipe', from, to, source: markdown.slice(from, to), rows: rows.length, columns, cells, headerRow, align, read: { rows: rows.length, columns, headerRow } };
}

/** A pipe cell's inline Markdown as written, without its pipes and padding; '' for a cell the row lacks. */
function pipeCellSource(markdown: string, cell: MarkdownCell | undefined): string {
  const first = cell?.children[0]?.position?.start.offset;
  const last = cell?.children.at(-1)?.position?.end.offset;
  return first === undefined || last === undefined ? '' : markdown.slice(first, last);
}

/** `\|` is how a pipe table writes `|` in a cell; the person edits the character itself. */
function pipeCellText(source: string): string {
  return source.replaceAll('\\|', '|');
}

function htmlTables(markdown: string, html: string, start: number | undefined): SourceTable[] {
  if (start === undefined || !html.includes('<table')) return [];
  const tables: SourceTable[] = [];
  for (const element of tablesIn(fromHtml(html, { fragment: true }))) {
    const from = element.position?.start.offset;
    const to = element.position?.end.offset;
    // a nested table is part of its outer table's cell
    if (from === undefined || to === undefined || tables.some((outer) => from >= outer.from - start && to <= outer.to - start)) continue;
    tables.push(htmlTable(markdown, element, start + from, start + to));
  }
  return tables;
}

function htmlTable(markdown: string, element: Element, from: number, to: number): SourceTable {
  const source = markdown.slice(from, to);
  const offset = from - (element.position?.start.offset ?? 0);
  const grid = tableGrid(element);
  const cells = grid.rows.flatMap((row, r) =>
    row.map((cell): GridCell => {
      const start = cell.element?.position?.start.offset;
      const end = cell.element?.position?.end.offset;
      // padding for a short row has no source: it is written only once it holds something
      const cellSource = start === undefined || end === undefined ? '' : markdown.slice(offset + start, offset + end);
      const text = cell.element ? htmlCellText(cell.element) : '';
      const origin = { source: cellSource, text, rowSpan: cell.rowSpan, colSpan: cell.colSpan, header: cell.header };
      return { row: r, column: cell.column, rowSpan: cell.rowSpan, colSpan: cell.colSpan, header: cell.header, text, origin };
    }),
  );
  const shape = { rows: grid.rows.length, columns: grid.columns, headerRow: grid.headerRows > 0 };
  const sourceOf = (node: Element) => {
    const start = node.position?.start.offset;
    const end = node.position?.end.offset;
    return start === undefined || end === undefined ? undefined : markdown.slice(offset + start, offset + end);
  };
  return { kind: 'html', from, to, source, ...shape, cells, align: [], read: shape, html: htmlFrame(element, sourceOf) };
}

/** The table's markup around its cells, its rows in the order `tableGrid` reads them. */
function htmlFrame(table: Element, sourceOf: (node: Element) => string | undefined): HtmlFrame {
  const frame: HtmlFrame = { open: startTag(sourceOf(table) ?? '<table>'), lead: [], groups: [], rows: [] };
  const addRow = (row: Element, group: number | undefined) => frame.rows.push({ group, open: startTag(sourceOf(row) ?? '<tr>') });
  for (const child of table.children) {
    if (child.type !== 'element') continue;
    if (child.tagName === 'tr') addRow(child, undefined);
    else if (['thead', 'tbody', 'tfoot'].includes(child.tagName)) {
      const written = sourceOf(child);
      // a <tbody> the parser implied around bare rows has no source, and none is written back
      const group = written === undefined ? undefined : frame.groups.push({ tag: child.tagName, open: startTag(written) }) - 1;
      for (const row of child.children) if (row.type === 'element' && row.tagName === 'tr') addRow(row, group);
    } else {
      const written = sourceOf(child);
      if (written !== undefined) frame.lead.push(written);
    }
  }
  return frame;
}

/** An element's start tag from its source: up to the first `>` outside a quoted attribute value. */
function startTag(source: string): string {
  let quote: string | undefined;
  for (let index = 0; index < source.length; index++) {
    const char = source[index];
    if (quote) {
      if (char === quote) quote = undefined;
    } else if (char === '"' || char === "'") quote = char;
    else if (char === '>') return source.slice(0, index + 1);
  }
  return source;
}

/** A cell's text as a reader sees it, one line per `<br>`. */
function htmlCellText(cell: Element): string {
  const text = (node: ElementContent): string => {
    if (node.type === 'text') return node.value.replace(/\s+/g, ' ');
    if (node.type !== 'element') return '';
    return node.tagName === 'br' ? '\n' : node.children.map(text).join('');
  };
  return cell.children
    .map(text)
    .join('')
    .split('\n')
    .map((line) => line.trim())
    .join('\n');
}

/** Whether the cell is as it was read: then its source is written back unchanged. */
function isUntouched(cell: GridCell): boolean {
  const origin = cell.origin;
  return origin !== undefined && origin.text === cell.text && origin.rowSpan === cell.rowSpan && origin.colSpan === cell.colSpan && origin.header === cell.header;
}

function isUnchanged(table: SourceTable): boolean {
  const { read } = table;
  return read.rows === table.rows && read.columns === table.columns && read.headerRow === table.headerRow && table.cells.every(isUntouched);
}

/** The cells that start in each row, left to right. */
export function cellRows(table: SourceTable): GridCell[][] {
  const rows = Array.from({ length: table.rows }, (): GridCell[] => []);
  for (const cell of table.cells) rows[cell.row]?.push(cell);
  for (const row of rows) row.sort((a, b) => a.column - b.column);
  return rows;
}

/** The table's source after editing: its own source when nothing changed, otherwise rebuilt as the same kind of table. */
export function tableSourceOf(table: SourceTable): string {
  if (isUnchanged(table)) return table.source;
  return table.kind === 'html' ? htmlSource(table) : pipeSource(table);
}

function htmlSource(table: SourceTable): string {
  const frame = table.html;
  const lines = frame ? [frame.open, ...frame.lead] : ['<table>'];
  let group: number | undefined;
  cellRows(table).forEach((row, r) => {
    const written = row.map((cell) => (isUntouched(cell) ? cell.origin!.source : htmlCell(cell)));
    // an empty padding cell before a written one would shift it left: it keeps its place as an empty cell
    const last = written.findLastIndex((source) => source !== '');
    const rowFrame = frame?.rows[r];
    if (rowFrame?.group !== group) {
      if (group !== undefined) lines.push(`</${frame!.groups[group]!.tag}>`);
      group = rowFrame?.group;
      if (group !== undefined) lines.push(frame!.groups[group]!.open);
    }
    lines.push(`${rowFrame?.open ?? '<tr>'}${written.map((source, index) => (source === '' && index < last ? htmlCell(row[index]!) : source)).join('')}</tr>`);
  });
  if (group !== undefined) lines.push(`</${frame!.groups[group]!.tag}>`);
  return [...lines, '</table>'].join('\n');
}

function htmlCell(cell: GridCell): string {
  const tag = cell.header ? 'th' : 'td';
  const colSpan = cell.colSpan > 1 ? ` colspan="${cell.colSpan}"` : '';
  const rowSpan = cell.rowSpan > 1 ? ` rowspan="${cell.rowSpan}"` : '';
  const text = cell.text
    .split('\n')
    .map((line) => escapeHtmlText(line.trim()))
    .join('<br>');
  return `<${tag}${colSpan}${rowSpan}>${text}</${tag}>`;
}

function pipeSource(table: SourceTable): string {
  const line = (sources: readonly string[]) => `| ${sources.join(' | ')} |`;
  const rows = cellRows(table).map((row) => row.map((cell) => (isUntouched(cell) ? cell.origin!.source : pipeCell(cell.text))));
  const header = table.headerRow ? rows.shift() : undefined;
  const delimiter = table.align.map((align) => (align === 'center' ? ':---:' : align === 'left' ? ':---' : align === 'right' ? '---:' : '---'));
  return [line(header ?? table.align.map(() => '')), line(delimiter), ...rows.map(line)].join('\n');
}

/** One line, and every `|` escaped: GFM splits a row at each unescaped one before it reads the cells. */
function pipeCell(text: string): string {
  return text.replace(/\s*\n\s*/g, ' ').trim().replaceAll('|', '\\|');
}
