/**
 * Measurable signs that a converted page's Markdown is wrong, each with a short reason a person can
 * check against the page: what the engine flagged itself (shared/page-review.ts: repetition, blank,
 * empty, cut short, unsure OCR), and what shows in the Markdown whatever engine wrote it: tables whose
 * rows do not line up, pipe rows with no header row (shown as text), math left as loose glyphs
 * outside any formula (`*λg* = ∑ *ζn*`, `eiπ + 1 = 0`), formulas KaTeX cannot typeset, and lines
 * repeated over and over. Pure: the app's list, thumbnails and "next to review" all ask it.
 */

import { fromHtml } from 'hast-util-from-html';
import katex from 'katex';
import type { Nodes, PhrasingContent, Root } from 'mdast';
import remarkGfm from 'remark-gfm';
import remarkMath from 'remark-math';
import remarkParse from 'remark-parse';
import { unified } from 'unified';
import { tableGrid, tablesIn } from './export/table-grid.js';
import { KATEX_OPTIONS } from './katex-quiet.js';
import { dollarMath } from './math-delimiters.js';
import type { PageFlag, PageStats } from './page.js';
import { reviewReasons } from './page-review.js';

export type TroubleKind = PageFlag | 'table-shape' | 'table-header' | 'loose-math' | 'math-error' | 'repeated-lines';

export interface PageTrouble {
  kind: TroubleKind;
  /** A clause for "Check this page: …", lower-case first, no full stop. */
  reason: string;
}

/** A line seen this often in a row on one page (outside code and display math) is a loop, not the page's text. */
export const REPEATED_RUN = 5;
/** Or seen this often anywhere on the page: a model's loop may cycle through a few lines. */
export const REPEATED_LINE_COUNT = 10;
/** Lines shorter than this repeat legitimately ("Yes", "—", a bare number). */
const REPEATED_LINE_MIN_CHARS = 12;
/** Quoted Markdown in a reason is cut to this many characters. */
const QUOTE_CHARS = 48;

const parser = unified().use(remarkParse).use(remarkGfm).use(remarkMath).freeze();

/**
 * KaTeX's parser alone: every error a formula can have is a parse error, and parsing is a fraction
 * of rendering, which matters when a long document's pages are all checked at once.
 */
const parseFormula = (katex as unknown as { __parse(expression: string, options: object): unknown }).__parse;

/** Every sign of trouble on the page: the engine's flags first (in their order), then the Markdown's. */
export function pageTrouble(markdown: string, stats: PageStats | undefined): PageTrouble[] {
  const flags = stats?.flags ?? [];
  const engine = stats ? reviewReasons(stats).map((reason, index) => ({ kind: flags[index]!, reason })) : [];
  return [...engine, ...markdownTrouble(markdown, { repetitionFlagged: flags.includes('repetition') })];
}

/** The signs of trouble in the Markdown alone. */
export function markdownTrouble(markdown: string, { repetitionFlagged = false } = {}): PageTrouble[] {
  if (markdown.trim() === '') return [];
  const tree = parser.parse(dollarMath(markdown));
  const found: PageTrouble[] = [];
  const shape = tableShapeTrouble(tree);
  if (shape) found.push(shape);
  const header = headerlessRows(tree);
  if (header) found.push(header);
  const loose = looseMath(tree);
  if (loose) found.push(loose);
  const error = mathError(tree);
  if (error) found.push(error);
  if (!repetitionFlagged) {
    const repeated = repeatedLine(markdown);
    if (repeated) found.push(repeated);
  }
  return found;
}

/** The first table (pipe or HTML) whose rows take up different numbers of columns, spans counted. */
function tableShapeTrouble(tree: Root): PageTrouble | null {
  const widths: number[][] = [];
  visit(tree, (node) => {
    if (node.type === 'table') widths.push(node.children.map((row) => row.children.length));
  });
  const html = collectHtml(tree);
  if (/<table/i.test(html)) {
    for (const table of tablesIn(fromHtml(html, { fragment: true }))) widths.push(htmlRowWidths(table));
  }
  for (const rows of widths) {
    const distinct = [...new Set(rows)].sort((a, b) => a - b);
    if (distinct.length > 1) {
      const shown = distinct.length > 2 ? `${distinct.slice(0, -1).join(', ')} and ${distinct.at(-1)}` : `${distinct[0]} and ${distinct[1]}`;
      return { kind: 'table-shape', reason: `table rows have ${shown} cells, so its columns do not line up` };
    }
  }
  return null;
}

/** How many columns each row of an HTML table fills, counting its own cells' colspans and rowspans from above. */
function htmlRowWidths(table: Parameters<typeof tableGrid>[0]): number[] {
  const grid = tableGrid(table);
  const filled = grid.rows.map(() => new Set<number>());
  grid.rows.forEach((row, r) => {
    for (const cell of row) {
      if (!cell.element) continue;
      for (let below = r; below < Math.min(r + cell.rowSpan, grid.rows.length); below++) {
        for (let c = cell.column; c < cell.column + cell.colSpan; c++) filled[below]!.add(c);
      }
    }
  });
  return filled.map((columns) => columns.size);
}

/** Raw HTML of the page, blocks and inline, joined: a table a blank line splits into two blocks is still one table. */
function collectHtml(tree: Root): string {
  const parts: string[] = [];
  visit(tree, (node) => {
    if (node.type === 'html') parts.push(node.value);
  });
  return parts.join('\n');
}

const PIPE_ROW = /^\s*\|.*\|\s*$/;

/** Two or more `| a | b |` lines that are not a table (no `|---|` line under a header): Markdown shows them as text. */
function headerlessRows(tree: Root): PageTrouble | null {
  let found: PageTrouble | null = null;
  visit(tree, (node) => {
    if (found || node.type !== 'paragraph') return;
    const lines = plainText(node.children).split('\n');
    let run = 0;
    for (const line of lines) {
      run = PIPE_ROW.test(line) && line.split('|').length >= 4 ? run + 1 : 0;
      if (run >= 2) {
        found = { kind: 'table-header', reason: 'table rows have no header row (no |---| line), so they show as plain text' };
        return;
      }
    }
  });
  return found;
}

/** A run of words that is math: at least one math sign, one operator, and three of either. */
interface MathRun {
  tokens: string[];
  signs: number;
  operators: number;
}

const GREEK = /[\u0370-\u03ff\u1f00-\u1fff]/;
const BIG_OPERATOR = /[∑∏∫∮√∞∂∇]/;
const OPERATOR_ONLY = /^[=+\-−×·÷±∓≤≥<>≠≈≡∼∝∈∉∋⊂⊃⊆⊇∪∩→←↔⇒⇐⇔↦∀∃∑∏∫∮√∞∂∇/|^_]+$/u;
/** Numbers, one or two Latin letters, brackets: they continue a formula but do not make one. */
const NEUTRAL = /^[([{]*(?:[0-9]+(?:[.,][0-9]+)?|[A-Za-z]{1,2}|[0-9]*[A-Za-z]?[0-9]*)[)\]}]*$/;

/** The first stretch of prose that is a formula written as loose glyphs, quoted as the Markdown has it. */
function looseMath(tree: Root): PageTrouble | null {
  let found: string | null = null;
  visit(tree, (node) => {
    if (found || !('children' in node) || node.type === 'table' || node.type === 'tableRow') return;
    const inline = (node.children as readonly Nodes[]).filter((child): child is PhrasingContent => isPhrasing(child));
    if (inline.length === 0) return;
    found = mathRunIn(inline);
  });
  return found ? { kind: 'loose-math', reason: `math is written as loose symbols, not as a formula: “${quote(found)}”` } : null;
}

function isPhrasing(node: Nodes): node is PhrasingContent {
  return ['text', 'emphasis', 'strong', 'inlineMath', 'inlineCode', 'delete', 'link', 'break', 'html'].includes(node.type);
}

/** Tokens of the paragraph's prose; a formula, code or a link ends a run. */
function mathRunIn(inline: readonly PhrasingContent[]): string | null {
  let run: MathRun = { tokens: [], signs: 0, operators: 0 };
  const end = (): string | null => {
    const { tokens, signs, operators } = run;
    run = { tokens: [], signs: 0, operators: 0 };
    if (signs < 1 || operators < 1 || signs + operators < 3) return null;
    // quoted from its first to its last sign or operator: the words around it are no part of it
    const counts = tokens.map((token) => tokenKind(token.replace(/^\*|\*$/g, ''), token.startsWith('*')) !== 'neutral');
    return tokens.slice(counts.indexOf(true), counts.lastIndexOf(true) + 1).join(' ');
  };
  const take = (token: string, italic: boolean): string | null => {
    // a comma or full stop after a token closes the formula there ("*p* < 0.05, *n* = 30" is two)
    const closes = /[,;.:!?]$/.test(token) && !/^[0-9]+\.$/.test(token);
    const bare = closes ? token.slice(0, -1) : token;
    const kind = tokenKind(bare, italic);
    if (kind === 'other') return end();
    run.tokens.push(italic ? `*${bare}*` : bare);
    if (kind === 'sign') run.signs++;
    if (kind === 'operator') run.operators++;
    if (kind === 'sign-operator') {
      run.signs++;
      run.operators++;
    }
    return closes ? end() : null;
  };
  for (const node of inline) {
    if (node.type === 'text') {
      for (const token of node.value.split(/\s+/).filter(Boolean)) {
        const found = take(token, false);
        if (found) return found;
      }
    } else if (node.type === 'emphasis') {
      const text = plainText(node.children).trim();
      const found = text === '' || /\s/.test(text) ? end() : take(text, true);
      if (found) return found;
    } else {
      const found = end();
      if (found) return found;
    }
  }
  return end();
}

function tokenKind(token: string, italic: boolean): 'sign' | 'operator' | 'sign-operator' | 'neutral' | 'other' {
  if (token === '') return 'other';
  if (OPERATOR_ONLY.test(token)) return BIG_OPERATOR.test(token) ? 'sign-operator' : 'operator';
  const letters = [...token];
  // a variable in italics (*x*, *λg*, *x*2), a short Greek token (π, eiπ, ζn), or a glyph only math uses
  if (BIG_OPERATOR.test(token) && letters.length <= 4) return 'sign';
  // one italic letter with indices or primes (*x*, *x*2, *f*′) is a variable; an italic word (*If*) is not
  if (italic && /^\p{L}[\p{N}′']*$/u.test(token)) return 'sign';
  if (GREEK.test(token) && letters.length <= 4 && /^[\p{L}\p{N}′'()]+$/u.test(token)) return 'sign';
  if (NEUTRAL.test(token)) return 'neutral';
  return 'other';
}

/** The first formula KaTeX cannot typeset, and KaTeX's reason. */
function mathError(tree: Root): PageTrouble | null {
  let found: PageTrouble | null = null;
  visit(tree, (node) => {
    if (found || (node.type !== 'math' && node.type !== 'inlineMath')) return;
    try {
      parseFormula(node.value, { ...KATEX_OPTIONS, throwOnError: true, displayMode: node.type === 'math' });
    } catch (error) {
      const why = error instanceof Error ? error.message.replace(/^KaTeX parse error: /, '').replace(/ at position \d+:[\s\S]*$/, '') : String(error);
      found = { kind: 'math-error', reason: `KaTeX cannot typeset the formula “${quote(node.value)}” (${why})` };
    }
  });
  return found;
}

/** A line repeated REPEATED_RUN times in a row, or REPEATED_LINE_COUNT times in all, outside code fences and display math. */
function repeatedLine(markdown: string): PageTrouble | null {
  const counts = new Map<string, number>();
  let fenced = false;
  let math = false;
  let previous = '';
  let run = 0;
  let worst: { line: string; times: number; inRow: boolean } | null = null;
  for (const raw of markdown.split('\n')) {
    const line = raw.trim();
    if (/^(`{3,}|~{3,})/.test(line)) fenced = !fenced;
    if (!fenced && line === '$$') math = !math;
    if (line === '') continue;
    // table rows, rules and formulas repeat by design; only lines of words count
    if (fenced || math || line.length < REPEATED_LINE_MIN_CHARS || !/\p{L}{2}/u.test(line) || PIPE_ROW.test(line)) {
      previous = '';
      continue;
    }
    run = line === previous ? run + 1 : 1;
    previous = line;
    const times = (counts.get(line) ?? 0) + 1;
    counts.set(line, times);
    if (run >= REPEATED_RUN && (!worst || run > worst.times)) worst = { line, times: run, inRow: true };
    if (times >= REPEATED_LINE_COUNT && (!worst || times > worst.times)) worst = { line, times, inRow: false };
  }
  if (!worst) return null;
  return { kind: 'repeated-lines', reason: `the line “${quote(worst.line)}” appears ${worst.times} times${worst.inRow ? ' in a row' : ''}, as when a model loops` };
}

function plainText(children: readonly Nodes[]): string {
  return children.map((child) => ('value' in child ? child.value : 'children' in child ? plainText(child.children) : '')).join('');
}

function quote(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > QUOTE_CHARS ? `${flat.slice(0, QUOTE_CHARS - 1)}…` : flat;
}

function visit(node: Nodes, each: (node: Nodes) => void): void {
  each(node);
  if ('children' in node) for (const child of node.children) visit(child, each);
}
