/**
 * Checks from Debian Reference: the PDF and the HTML that DocBook made from one source. The HTML
 * gives the tables (each row placed on the PDF page that prints all of its cells, a long table's
 * rows spread over several pages), the headings and paragraphs in reading order, and the PDF's own
 * lines give the running head ("Debian Reference" and "N / 233"), which must be absent.
 */

import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Element, ElementContent, Root } from 'hast';
import { fromHtml } from 'hast-util-from-html';
import { hasClass, isElement, textOf } from '../../../shared/export/markdown-tree.js';
import { tableGrid } from '../../../shared/export/table-grid.js';
import type { BuiltCheck } from './bench-check.js';
import { spread, textMaxDiffs } from './bench-check.js';
import { letterKey, type PageFinder, type PdfText } from './pdf-text.js';
import { runningLineChecks } from './running-heads.js';
import { tableChecks, tableHtml, type TruthCell, type TruthTable } from './truth-table.js';

/** The HTML files in reading order. */
const DEBIAN_HTML = ['index', 'pr01', ...Array.from({ length: 12 }, (_, i) => `ch${String(i + 1).padStart(2, '0')}`), 'apa'].map((name) => `${name}.en.html`);
const DEBIAN_LIMITS = { table: 300, order: 150, absent: 150 } as const;
/** Table checks per table and page. */
const TABLE_CHECKS = 4;
/** Words of a paragraph's end or start an order check quotes. */
const ORDER_WORDS = 12;

type Block =
  | { kind: 'heading'; text: string }
  /** `plain`: the paragraph's text between its code and links, which a correct rendering may write with backticks or as `[text](url)`. */
  | { kind: 'paragraph'; text: string; plain: string[] }
  | { kind: 'table'; caption: string; element: Element };

/** Text between the elements that Markdown marks up: code and links. */
function plainSegments(element: Element): string[] {
  const segments: string[] = [''];
  const visit = (node: ElementContent) => {
    if (node.type === 'text') segments[segments.length - 1] += node.value;
    else if (node.type === 'element') {
      if (node.tagName === 'code' || node.tagName === 'a' || node.tagName === 'kbd' || node.tagName === 'tt') segments.push('');
      else node.children.forEach(visit);
    }
  };
  element.children.forEach(visit);
  return segments.map(collapse).filter((segment) => segment !== '');
}

const collapse = (text: string) => text.replace(/\s+/g, ' ').trim();

/** Headings (their numbers dropped), paragraphs and tables of one HTML file, in order; navigation, contents and code left out. */
function htmlBlocks(root: Root): Block[] {
  const blocks: Block[] = [];
  const visit = (nodes: readonly ElementContent[] | Root['children']) => {
    for (const node of nodes) {
      if (!isElement(node)) continue;
      if (['navheader', 'navfooter', 'toc', 'list-of-tables'].some((name) => hasClass(node, name)) || ['pre', 'script', 'style', 'head'].includes(node.tagName)) continue;
      if (node.tagName === 'div' && hasClass(node, 'table')) {
        const table = findFirst(node, 'table');
        const title = findFirst(node, 'p');
        if (table) blocks.push({ kind: 'table', caption: collapse(title ? textOf(title) : ''), element: table });
        continue;
      }
      if (/^h[1-4]$/.test(node.tagName)) {
        const text = collapse(textOf(node)).replace(/^(?:(?:Chapter|Appendix)\s+)?(?:[A-Z]|\d+)(?:\.\d+)*\.\s+/, '');
        if (text) blocks.push({ kind: 'heading', text });
        continue;
      }
      if (node.tagName === 'p') {
        const text = collapse(textOf(node));
        if (text) blocks.push({ kind: 'paragraph', text, plain: plainSegments(node) });
        continue;
      }
      visit(node.children);
    }
  };
  visit(root.children);
  return blocks;
}

function findFirst(root: Element, tagName: string): Element | undefined {
  for (const child of root.children) {
    if (!isElement(child)) continue;
    if (child.tagName === tagName) return child;
    const found = findFirst(child, tagName);
    if (found) return found;
  }
  return undefined;
}

async function readDebianBlocks(dir: string): Promise<Block[]> {
  const blocks: Block[] = [];
  for (const name of DEBIAN_HTML) blocks.push(...htmlBlocks(fromHtml(await readFile(path.join(dir, name), 'utf8'))));
  return blocks;
}

/** An HTML table as a ground-truth grid. */
function htmlTruthTable(table: Element): TruthTable {
  const grid = tableGrid(table);
  const cells: TruthCell[] = [];
  grid.rows.forEach((row, r) => {
    for (const cell of row) {
      if (!cell.element) continue;
      const text = collapse(textOf(cell.element));
      cells.push({ row: r, col: cell.column, rowSpan: cell.rowSpan, colSpan: cell.colSpan, text, usable: text !== '' });
    }
  });
  return { cells, headerRows: grid.headerRows };
}

export async function debianChecks(dir: string, pdf: PdfText, pages: PageFinder): Promise<BuiltCheck[]> {
  const blocks = await readDebianBlocks(dir);
  const checks: BuiltCheck[] = [];
  const cellKeys = new Set<string>();

  const tables: BuiltCheck[] = [];
  for (const block of blocks) {
    if (block.kind !== 'table') continue;
    const truth = htmlTruthTable(block.element);
    for (const cell of truth.cells) cellKeys.add(letterKey(cell.text));
    for (const part of tableByPage(truth, block.caption, pages)) {
      const printed = (text: string) => pages.occurrencesOn(part.page, text) > 0;
      const html = tableHtml(part.table);
      for (const spec of tableChecks(part.table, printed, TABLE_CHECKS)) tables.push({ page: part.page, spec, truth: html });
    }
  }
  checks.push(...spread(tables, DEBIAN_LIMITS.table));

  // Order: a heading before the paragraph that follows it, a paragraph's end before the next one's start.
  const order: BuiltCheck[] = [];
  const usedPages = new Set<number>();
  for (let i = 0; i + 1 < blocks.length; i++) {
    const [first, second] = [blocks[i]!, blocks[i + 1]!];
    if (first.kind === 'table' || second.kind !== 'paragraph') continue;
    // the end of the first block and the start of the second, only where no code or link is
    const words = (text: string) => text.split(' ');
    const lastPlain = first.kind === 'heading' ? first.text : first.plain.at(-1) ?? '';
    if (first.kind === 'paragraph' && !first.text.endsWith(lastPlain)) continue;
    if (!second.text.startsWith(second.plain[0] ?? ' ')) continue;
    const before = first.kind === 'heading' ? first.text : words(lastPlain).slice(-ORDER_WORDS).join(' ');
    const after = words(second.plain[0]!).slice(0, ORDER_WORDS).join(' ');
    if (letterKey(before).length < 12 || letterKey(after).length < 20) continue;
    const page = pages.uniquePage(before);
    if (page === undefined || page !== pages.uniquePage(after) || usedPages.has(page)) continue;
    usedPages.add(page);
    const maxDiffs = Math.min(textMaxDiffs(before), textMaxDiffs(after));
    order.push({ page, spec: { type: 'order', before, after, max_diffs: maxDiffs }, truth: `${first.kind === 'heading' ? '## ' : ''}${first.text}\n\n${second.text}` });
  }
  checks.push(...spread(order, DEBIAN_LIMITS.order));

  checks.push(...runningLineChecks(pdf, pages, (line) => cellKeys.has(letterKey(line)), DEBIAN_LIMITS.absent));
  return checks;
}

/**
 * The table's rows placed on pages: from the page of its caption (or two pages before it, as the
 * caption may follow the table), each row on the first page from the previous row's that prints
 * all of its cells; each page's rows as a table of its own, headed by the header rows on the first.
 */
function tableByPage(table: TruthTable, caption: string, pages: PageFinder): { page: number; table: TruthTable }[] {
  const captionPage = pages.uniquePage(caption.replace(/^Table (\S+)\. /, 'Table $1: '));
  if (captionPage === undefined) return [];
  const rows = Math.max(0, ...table.cells.map((c) => c.row + c.rowSpan));
  const rowPage: (number | undefined)[] = [];
  let from = Math.max(1, captionPage - 2);
  for (let r = table.headerRows; r < rows; r++) {
    const texts = table.cells.filter((c) => c.row === r && letterKey(c.text).length >= 2).map((c) => c.text);
    let found: number | undefined;
    for (let page = from; page <= Math.min(pages.pageCount, captionPage + 6) && texts.length > 0; page++) {
      if (texts.every((text) => pages.occurrencesOn(page, text) > 0)) {
        found = page;
        break;
      }
    }
    rowPage[r] = found;
    if (found !== undefined) from = found;
  }
  const parts = new Map<number, TruthCell[]>();
  for (const cell of table.cells) {
    if (cell.row < table.headerRows || cell.rowSpan > 1) continue;
    const page = rowPage[cell.row];
    if (page !== undefined) (parts.get(page) ?? parts.set(page, []).get(page)!).push(cell);
  }
  const firstPage = Math.min(...parts.keys());
  return [...parts].map(([page, body]) => {
    // the header rows are sure to be printed on the table's first page only
    const headerRows = page === firstPage ? table.headerRows : 0;
    const header = table.cells.filter((c) => c.row < headerRows);
    // the page's rows follow the header rows directly, as the page prints them
    const shift = Math.min(...body.map((c) => c.row)) - headerRows;
    return { page, table: { headerRows, cells: [...header, ...body.map((c) => ({ ...c, row: c.row - shift }))] } };
  });
}
