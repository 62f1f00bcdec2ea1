/**
 * A table's cells and their Markdown: a GFM pipe table when the grid is simple, an HTML table when
 * cells span or hold several lines (GFM cannot express either) or hold a `|` (GFM escapes it, but many
 * readers, olmOCR-Bench's among them, split a row at every `|`, escaped or not). Every engine that rebuilds tables
 * renders them here, so the same table reads the same whichever engine found it. A cell's text is
 * the document's text: it is escaped here, as Markdown in a pipe table and as HTML in an HTML
 * table, so it reads as the same characters in every output.
 */

import { escapeHtmlText } from './html-escape.js';
import { escapeDollarPairs, escapeMarkdownText } from './markdown-escape.js';

export interface TableCell {
  /** The cell's lines of plain text, top to bottom; empty for an empty cell. */
  lines: readonly string[];
  rowSpan: number;
  colSpan: number;
}

/**
 * Rows top to bottom; each row lists, left to right, only the cells that start in it (as HTML
 * does): a cell spanning rows is not repeated in the rows below.
 */
export interface TableGrid {
  rows: readonly (readonly TableCell[])[];
  /** How many leading rows are header rows (rendered with `<th>`); GFM always takes the first. */
  headerRows: number;
}

export function tableMarkdown(grid: TableGrid): string {
  if (grid.rows.length === 0) return '';
  return isSimpleGrid(grid) ? pipeTable(grid) : htmlTable(grid);
}

/** No spans, at most one line per cell and no `|` in it, one header row at most, every row the same width. */
export function isSimpleGrid(grid: TableGrid): boolean {
  const width = grid.rows[0]?.length ?? 0;
  return (
    grid.headerRows <= 1 &&
    width > 0 &&
    grid.rows.every(
      (row) => row.length === width && row.every((cell) => cell.rowSpan === 1 && cell.colSpan === 1 && cell.lines.length <= 1 && !cell.lines.some((line) => line.includes('|'))),
    )
  );
}

function pipeTable(grid: TableGrid): string {
  const [header, ...body] = grid.rows;
  if (!header) return '';
  const line = (row: readonly TableCell[]) => `| ${row.map((cell) => pipeCellText(cell)).join(' | ')} |`;
  const rule = `| ${header.map(() => '---').join(' | ')} |`;
  return [line(header), rule, ...body.map(line)].join('\n');
}

function pipeCellText(cell: TableCell): string {
  const text = cell.lines.join(' ').replace(/\s+/g, ' ').trim();
  const escaped = escapeMarkdownText(text);
  // Emphasis takes an opening and a closing run of stars: a cell's only run (a footnote mark, "1992*")
  // is literal as it stands, and left bare it reads as the document's text to readers that do not unescape.
  const stars = (text.match(/\*+/g) ?? []).length === 1 ? escaped.replace(/\\\*/g, '*') : escaped;
  return escapeDollarPairs(stars);
}

function htmlTable(grid: TableGrid): string {
  const rows = grid.rows.map((row, index) => {
    const tag = index < grid.headerRows ? 'th' : 'td';
    const cells = row.map((cell) => `<${tag}${spanAttributes(cell)}>${htmlCellText(cell)}</${tag}>`);
    return `<tr>${cells.join('')}</tr>`;
  });
  return ['<table>', ...rows, '</table>'].join('\n');
}

function spanAttributes(cell: TableCell): string {
  const rowSpan = cell.rowSpan > 1 ? ` rowspan="${cell.rowSpan}"` : '';
  const colSpan = cell.colSpan > 1 ? ` colspan="${cell.colSpan}"` : '';
  return colSpan + rowSpan;
}

function htmlCellText(cell: TableCell): string {
  return cell.lines.map((line) => escapeHtmlText(line.replace(/\s+/g, ' ').trim())).join('<br>');
}

