/**
 * Engine Markdown parsed the way a reader's renderer would see it (CommonMark + GFM, raw HTML
 * tables included), reduced to what the checks look at: plain text, headings, tables as grids,
 * lists, links, inline styles and images.
 */

import type { Element, ElementContent, Root, RootContent } from 'hast';
import rehypeRaw from 'rehype-raw';
import remarkGfm from 'remark-gfm';
import remarkParse from 'remark-parse';
import remarkRehype from 'remark-rehype';
import { unified } from 'unified';
import { tableGrid } from '../../shared/export/table-grid.js';

export interface Heading {
  level: number;
  text: string;
}

export interface TableCell {
  text: string;
  row: number;
  col: number;
  rowSpan: number;
  colSpan: number;
  header: boolean;
}

/** `gfm`: a pipe table; `html`: a `<table>` written in the Markdown. */
export type TableFormat = 'gfm' | 'html';

export interface Table {
  format: TableFormat;
  /** Each cell once, in document order. */
  cells: TableCell[];
  /** `grid[row][col]` is the cell covering that slot (spanned slots repeat the cell). */
  grid: (TableCell | undefined)[][];
}

export interface List {
  ordered: boolean;
  /** Each item's own text, without the text of lists nested in it. */
  items: string[];
  /** Own text of the item this list is nested in, if any. */
  parentItem?: string;
}

export interface Link {
  text: string;
  url: string;
}

export type InlineStyle = 'bold' | 'italic' | 'code';

export interface MarkdownDocument {
  markdown: string;
  /** All text, blocks separated by newlines, table cells by ` | `. */
  text: string;
  headings: Heading[];
  tables: Table[];
  lists: List[];
  links: Link[];
  styled: { style: InlineStyle; text: string }[];
  images: { alt: string; src: string }[];
}

/** Before raw HTML is parsed, every table in the tree came from GFM syntax: mark those. */
function markGfmTables() {
  return (tree: Root) => {
    const visit = (nodes: readonly (RootContent | ElementContent)[]): void => {
      for (const node of nodes) {
        if (node.type !== 'element') continue;
        if (node.tagName === 'table') node.properties[GFM_MARK] = true;
        visit(node.children);
      }
    };
    visit(tree.children);
  };
}

const GFM_MARK = 'dataFolioGfm';
const processor = unified().use(remarkParse).use(remarkGfm).use(remarkRehype, { allowDangerousHtml: true }).use(markGfmTables).use(rehypeRaw);

export function parseMarkdown(markdown: string): MarkdownDocument {
  const tree = processor.runSync(processor.parse(markdown)) as Root;
  const doc: MarkdownDocument = { markdown, text: '', headings: [], tables: [], lists: [], links: [], styled: [], images: [] };
  doc.text = blockText(tree.children);
  collect(tree.children, doc, undefined);
  return doc;
}

const BLOCK_TAGS = new Set(['p', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'li', 'ul', 'ol', 'table', 'tr', 'blockquote', 'pre', 'div', 'figure', 'figcaption', 'hr']);
const STYLE_TAGS: Record<string, InlineStyle> = { strong: 'bold', b: 'bold', em: 'italic', i: 'italic', code: 'code' };

function collect(nodes: readonly (RootContent | ElementContent)[], doc: MarkdownDocument, parentItem: string | undefined): void {
  for (const node of nodes) {
    if (node.type !== 'element') continue;
    const tag = node.tagName;
    const heading = /^h([1-6])$/.exec(tag);
    if (heading) doc.headings.push({ level: Number(heading[1]), text: inlineText(node.children) });
    if (tag === 'table') doc.tables.push(readTable(node, node.properties[GFM_MARK] === undefined ? 'html' : 'gfm'));
    if (tag === 'ul' || tag === 'ol') doc.lists.push(readList(node, parentItem));
    if (tag === 'a' && typeof node.properties.href === 'string') doc.links.push({ text: inlineText(node.children), url: node.properties.href });
    if (tag === 'img') doc.images.push({ alt: String(node.properties.alt ?? ''), src: String(node.properties.src ?? '') });
    const style = STYLE_TAGS[tag];
    if (style) doc.styled.push({ style, text: inlineText(node.children) });
    collect(node.children, doc, tag === 'li' ? ownItemText(node) : parentItem);
  }
}

function readList(list: Element, parentItem: string | undefined): List {
  const items = list.children.filter(isElement('li')).map(ownItemText);
  return { ordered: list.tagName === 'ol', items, parentItem };
}

function ownItemText(item: Element): string {
  return blockText(item.children.filter((child) => !(child.type === 'element' && (child.tagName === 'ul' || child.tagName === 'ol'))))
    .replace(/\s+/g, ' ')
    .trim();
}

/** Cells placed as the exports place them (table-grid.ts): spans cut to the table, short rows left with empty slots. */
function readTable(table: Element, format: TableFormat): Table {
  const { rows } = tableGrid(table);
  const grid: (TableCell | undefined)[][] = rows.map(() => []);
  const cells: TableCell[] = [];
  rows.forEach((slots, row) => {
    for (const { element, header, column: col, rowSpan, colSpan } of slots) {
      if (!element) continue;
      const cell: TableCell = { text: blockText(element.children).replace(/\s+/g, ' ').trim(), row, col, rowSpan, colSpan, header };
      cells.push(cell);
      for (let r = row; r < row + rowSpan; r++) for (let c = col; c < col + colSpan; c++) grid[r]![c] = cell;
    }
  });
  return { format, cells, grid };
}

function isElement(tag: string) {
  return (node: ElementContent): node is Element => node.type === 'element' && node.tagName === tag;
}

/** Text of inline content, `<br>` read as a space. */
function inlineText(nodes: readonly ElementContent[]): string {
  return blockText(nodes).replace(/\s+/g, ' ').trim();
}

/** Text with a newline around each block element, ` | ` between table cells, `<br>` as a newline. */
function blockText(nodes: readonly (RootContent | ElementContent)[]): string {
  let out = '';
  for (const node of nodes) {
    if (node.type === 'text') out += node.value;
    else if (node.type === 'element') {
      if (node.tagName === 'br') out += '\n';
      else if (node.tagName === 'td' || node.tagName === 'th') out += ` ${blockText(node.children)} |`;
      else if (node.tagName === 'img') out += String(node.properties.alt ?? '');
      else if (BLOCK_TAGS.has(node.tagName)) out += `\n${blockText(node.children)}\n`;
      else out += blockText(node.children);
    }
  }
  return out;
}
