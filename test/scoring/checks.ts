/**
 * Checks of the kinds document-parsing benchmarks use (olmOCR-bench style), run on an engine's
 * Markdown. Each check passes or fails with a sentence saying what was found instead.
 */

import { nearMatchStarts } from '../../shared/text-match/fuzzy-match.js';
import { normaliseText, READING_TEXT } from '../../shared/text-match/normalise.js';
import type { InlineStyle, MarkdownDocument, Table, TableCell, TableFormat } from './markdown-document.js';

/** How texts are compared: the repository's reading rules, with these changes. */
export interface NormaliseOptions {
  /** Compare letter case exactly (default false). */
  caseSensitive?: boolean;
  /** Drop punctuation and symbols before comparing (default false). */
  ignorePunctuation?: boolean;
  /** Compare the characters exactly as they are (no Unicode, case or whitespace changes): for ligature glyphs or code indentation. */
  exact?: boolean;
}

function normalise(text: string, options: NormaliseOptions = {}): string {
  if (options.exact) return text;
  return normaliseText(text, { ...READING_TEXT, caseSensitive: options.caseSensitive ?? false, ignorePunctuation: options.ignorePunctuation ?? false });
}

export interface TextMatchOptions extends NormaliseOptions {
  /** Fraction of the text's length that may differ (edits), for fuzzy matching; default 0 (exact). */
  maxDistance?: number;
  /** Match against the raw Markdown instead of its rendered text (for syntax such as `[a](u)`). */
  inMarkdown?: boolean;
}

export type Check =
  | ({ kind: 'present'; text: string } & TextMatchOptions)
  /** Text that must not appear: running headers, footers, page numbers, broken hyphenation. */
  | ({ kind: 'absent'; text: string } & TextMatchOptions)
  /** Reading order: `before` appears, and `after` appears later. */
  | ({ kind: 'order'; before: string; after: string } & TextMatchOptions)
  /** Text that is a heading; of this level when `level` is given. */
  | { kind: 'heading'; text: string; level?: number }
  /** Text that must not be made a heading (body text, captions). */
  | { kind: 'not-heading'; text: string }
  /** A table cell with this text whose neighbours hold the given texts (any one occurrence suffices). */
  | { kind: 'table-cell'; cell: string; up?: string; down?: string; left?: string; right?: string }
  /** How many tables the Markdown holds (0 guards against prose turned into a table), optionally all GFM or all HTML. */
  | { kind: 'tables'; count: number; format?: TableFormat }
  /** One list holding these items, in this order (other items may sit between them). */
  | { kind: 'list'; items: string[]; ordered?: boolean; nestedUnder?: string }
  | { kind: 'link'; text: string; url: string }
  | { kind: 'style'; text: string; style: InlineStyle }
  | { kind: 'images'; count: number };

export interface CheckResult {
  check: Check;
  passed: boolean;
  /** What was found, when the check failed. */
  detail?: string;
}

export function runCheck(check: Check, doc: MarkdownDocument): CheckResult {
  const detail = failureDetail(check, doc);
  return detail === undefined ? { check, passed: true } : { check, passed: false, detail };
}

/** Undefined when the check passes, else what was found instead. */
function failureDetail(check: Check, doc: MarkdownDocument): string | undefined {
  switch (check.kind) {
    case 'present':
      return findText(check.text, doc, check) === undefined ? 'not found' : undefined;
    case 'absent':
      return findText(check.text, doc, check) === undefined ? undefined : 'found';
    case 'order':
      return checkOrder(check.before, check.after, doc, check);
    case 'heading':
      return checkHeading(check.text, check.level, doc);
    case 'not-heading': {
      const heading = doc.headings.find((h) => norm(h.text).includes(norm(check.text)));
      return heading ? `made a level ${heading.level} heading: "${heading.text}"` : undefined;
    }
    case 'table-cell':
      return checkTableCell(check, doc.tables);
    case 'tables': {
      if (doc.tables.length !== check.count) return `found ${doc.tables.length} table(s)`;
      const formats = doc.tables.map((t) => t.format);
      return check.format === undefined || formats.every((f) => f === check.format) ? undefined : `formats: ${formats.join(', ')}`;
    }
    case 'list':
      return checkList(check, doc);
    case 'link': {
      const links = doc.links.filter((l) => norm(l.text) === norm(check.text));
      if (links.some((l) => l.url === check.url)) return undefined;
      return links.length ? `links to ${links.map((l) => l.url).join(', ')}` : 'no link with that text';
    }
    case 'style': {
      const styled = doc.styled.filter((s) => s.style === check.style);
      return styled.some((s) => norm(s.text).includes(norm(check.text)))
        ? undefined
        : `not ${check.style}; ${check.style} spans: ${quoteList(styled.map((s) => s.text))}`;
    }
    case 'images':
      return doc.images.length === check.count ? undefined : `found ${doc.images.length} image(s)`;
  }
}

/** Where `needle` starts in the normalised text (at or after `from`), or undefined when it is not there. */
function findText(needle: string, doc: MarkdownDocument, options: TextMatchOptions, from = 0): number | undefined {
  const haystack = normalise(options.inMarkdown ? doc.markdown : doc.text, options).slice(from);
  const target = normalise(needle, options);
  const at = haystack.indexOf(target);
  if (at >= 0) return from + at;
  const allowed = Math.floor((options.maxDistance ?? 0) * target.length);
  if (allowed === 0) return undefined;
  // code-point offsets of the near match, back to string offsets
  const start = nearMatchStarts(target, haystack, allowed)?.first;
  return start === undefined ? undefined : from + Array.from(haystack).slice(0, start).join('').length;
}

function checkOrder(before: string, after: string, doc: MarkdownDocument, options: TextMatchOptions): string | undefined {
  const first = findText(before, doc, options);
  if (first === undefined) return `"${before}" not found`;
  if (findText(after, doc, options) === undefined) return `"${after}" not found`;
  return findText(after, doc, options, first + 1) === undefined ? `"${after}" comes before "${before}"` : undefined;
}

function checkHeading(text: string, level: number | undefined, doc: MarkdownDocument): string | undefined {
  const matches = doc.headings.filter((h) => norm(h.text) === norm(text));
  if (matches.some((h) => level === undefined || h.level === level)) return undefined;
  if (matches.length) return `a heading of level ${matches.map((h) => h.level).join('/')}`;
  const near = doc.headings.find((h) => norm(h.text).includes(norm(text)));
  if (near) return `only inside a longer level ${near.level} heading: "${near.text}"`;
  return findText(text, doc, {}) === undefined ? 'not found' : 'present, but not as a heading';
}

type TableCellCheck = Extract<Check, { kind: 'table-cell' }>;
type Direction = 'up' | 'down' | 'left' | 'right';
const DIRECTIONS: readonly Direction[] = ['up', 'down', 'left', 'right'];

function checkTableCell(check: TableCellCheck, tables: readonly Table[]): string | undefined {
  const candidates = tables.flatMap((table) => table.cells.filter((c) => norm(c.text) === norm(check.cell)).map((cell) => ({ table, cell })));
  if (candidates.length === 0) {
    const cells = tables.flatMap((t) => t.cells).filter((c) => norm(c.text).includes(norm(check.cell)));
    if (cells.length) return `no cell is exactly that; cells containing it: ${quoteList(cells.map((c) => c.text))}`;
    return tables.length ? `no such cell in ${tables.length} table(s)` : 'no tables in the output';
  }
  const problems: string[] = [];
  for (const { table, cell } of candidates) {
    const wrong = DIRECTIONS.filter((d) => check[d] !== undefined && !neighbours(table, cell, d).some((n) => norm(n.text) === norm(check[d]!)));
    if (wrong.length === 0) return undefined;
    problems.push(wrong.map((d) => `${d}: ${quoteList(neighbours(table, cell, d).map((n) => n.text)) || 'nothing'}`).join(', '));
  }
  return `neighbours differ (${problems.join('; ')})`;
}

/** The distinct cells touching `cell` on one side (a spanning cell can have several). */
function neighbours(table: Table, cell: TableCell, direction: Direction): TableCell[] {
  const slots: (TableCell | undefined)[] = [];
  const rows = range(cell.row, cell.rowSpan);
  const cols = range(cell.col, cell.colSpan);
  if (direction === 'up') for (const c of cols) slots.push(table.grid[cell.row - 1]?.[c]);
  if (direction === 'down') for (const c of cols) slots.push(table.grid[cell.row + cell.rowSpan]?.[c]);
  if (direction === 'left') for (const r of rows) slots.push(table.grid[r]?.[cell.col - 1]);
  if (direction === 'right') for (const r of rows) slots.push(table.grid[r]?.[cell.col + cell.colSpan]);
  return [...new Set(slots.filter((s): s is TableCell => s !== undefined))];
}

function range(start: number, count: number): number[] {
  return Array.from({ length: count }, (_, i) => start + i);
}

function checkList(check: Extract<Check, { kind: 'list' }>, doc: MarkdownDocument): string | undefined {
  const wanted = check.items.map(norm);
  const lists = doc.lists.filter((l) => check.ordered === undefined || l.ordered === check.ordered);
  const fitting = lists.filter((l) => isSubsequence(wanted, l.items.map(norm)));
  if (fitting.length === 0) {
    const holding = doc.lists.filter((l) => l.items.some((i) => norm(i) === wanted[0]));
    if (holding.length === 0) return `no ${listKind(check.ordered)}list holds "${check.items[0]}"`;
    return `the list holding "${check.items[0]}" has items ${quoteList(holding[0]!.items)}${holding[0]!.ordered === check.ordered || check.ordered === undefined ? '' : ` and is ${listKind(holding[0]!.ordered)}`}`;
  }
  if (check.nestedUnder === undefined) return undefined;
  if (fitting.some((l) => l.parentItem !== undefined && norm(l.parentItem) === norm(check.nestedUnder!))) return undefined;
  return `the list is not nested under "${check.nestedUnder}" (parent: ${fitting[0]!.parentItem === undefined ? 'none' : `"${fitting[0]!.parentItem}"`})`;
}

function listKind(ordered: boolean | undefined): string {
  return ordered === undefined ? '' : ordered ? 'numbered ' : 'bulleted ';
}

function isSubsequence(wanted: readonly string[], items: readonly string[]): boolean {
  let i = 0;
  for (const item of items) if (i < wanted.length && item === wanted[i]) i++;
  return i === wanted.length;
}

function norm(text: string): string {
  return normalise(text);
}

function quoteList(texts: readonly string[]): string {
  const shown = texts.slice(0, 4).map((t) => `"${t.length > 40 ? `${t.slice(0, 37)}...` : t}"`);
  return shown.join(', ') + (texts.length > 4 ? `, and ${texts.length - 4} more` : '');
}
