/**
 * A model's (or a remote server's) Markdown made safe to write as the page's `.md`. Models write
 * HTML for tables, and a hostile page or server can make them write anything. What the HTML export
 * would keep (its sanitise schema, html-sanitize-schema.ts) stays, rewritten canonically with only
 * table spans, alignment, link and image attributes; presentational wrappers (`<center>`) are
 * dropped with their content kept, as the export drops them; every other tag is written as text (`&lt;`),
 * links and images to other than web, mail or Folio's own image addresses become their text, table
 * spans are bounded by the table's real size, and nesting is bounded so no page can make a Markdown
 * or HTML parser recurse without end. Everything else in the Markdown is left byte for byte.
 */

import remarkGfm from 'remark-gfm';
import remarkMath from 'remark-math';
import remarkParse from 'remark-parse';
import { unified } from 'unified';
import { fromHtml } from 'hast-util-from-html';
import { exportSanitizeSchema } from './export/html-sanitize-schema.js';
import { tableRows, tablesIn } from './export/table-grid.js';
import { decodeHtmlAttribute, escapeHtmlAttribute, escapeHtmlText } from './html-entities.js';
import { escapeMarkdownText } from './markdown-escape.js';
import { IMAGE_LINK_PREFIX } from './page.js';

/** Deeper than this, quotes and lists stop nesting (their markers become text). */
export const MAX_MARKDOWN_NESTING = 16;
/** Deeper than this, HTML elements stop nesting (their tags become text). */
export const MAX_HTML_NESTING = 16;
/** The HTML limits (colspan 1000, rowspan 65534) are far past any table a page holds. */
const MAX_SPAN = 1000;
/** Each pass can only turn markup into text; a page that still changes after this many is written all as text. */
const MAX_PASSES = 4;

const parser = unified().use(remarkParse).use(remarkGfm).use(remarkMath).freeze();

/** Models write these on their own; `input` (task boxes), `picture` and `source` (remote image sets) they have no use for. */
const ALLOWED_TAGS = new Set((exportSanitizeSchema.tagNames ?? []).filter((tag) => !['input', 'picture', 'source'].includes(tag)));
const VOID_TAGS = new Set(['br', 'hr', 'img', 'wbr']);
/**
 * Presentational wrappers models write (DeepSeek-OCR centres captions) that the export unwraps,
 * keeping their content: dropped here too, rather than shown as tags on every such page.
 */
const UNWRAPPED_TAGS = new Set(['center', 'font', 'u', 'big', 'small', 'mark', 'figure', 'figcaption', 'caption']);
const KEPT_ATTRIBUTES: Record<string, readonly string[]> = {
  td: ['colspan', 'rowspan', 'align'],
  th: ['colspan', 'rowspan', 'align'],
  a: ['href', 'title'],
  img: ['src', 'alt', 'title', 'width', 'height'],
};
const LINK_PROTOCOLS = exportSanitizeSchema.protocols?.['href'] ?? ['http', 'https', 'mailto'];
const IMAGE_PROTOCOLS = [...(exportSanitizeSchema.protocols?.['src'] ?? ['http', 'https']), IMAGE_LINK_PREFIX.slice(0, -1)];

export function safeModelMarkdown(markdown: string): string {
  let text = boundedNesting(markdown);
  for (let pass = 0; pass < MAX_PASSES; pass++) {
    const next = safePass(text);
    if (next === text) return text;
    text = next;
  }
  return escapeMarkdownText(text);
}

// ---------------------------------------------------------------------------------------------
// Structure bounded line by line before the Markdown is parsed. The CommonMark parser's inline
// pass is quadratic in a paragraph's length for some text (runs of `*`, many `[`): measured,
// 8,000 asterisks took 1.3 s to parse and 200,000 brackets did not finish in 9 minutes.

const FENCE = /^ {0,3}(`{3,}|~{3,})/;
const CONTAINER_MARKER = /^[ \t]*(?:>|[-+*](?=[ \t]|$)|\d{1,9}[.)](?=[ \t]|$))[ \t]?/;
/** Indentation past this many columns adds nothing a page needs, only depth (a list item per two spaces). */
const MAX_INDENT = 2 * MAX_MARKDOWN_NESTING;
/** A longer paragraph is cut into paragraphs; a whole page of prose is about 3,500 characters. */
export const MAX_PARAGRAPH = 4000;
/** Emphasis needs at most three markers in a row, a link one bracket; a longer run is text (a run of brackets parses in quadratic time). */
const LONG_DELIMITER_RUN = /(?<!\\)(?:\*{4,}|_{4,}|\[{4,})/g;
const THEMATIC_BREAK = /^ {0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*$/;

/** Lines of an HTML block (CommonMark's kind 6, which tables are) are raw HTML, never parsed inline. */
const HTML_BLOCK_START = /^ {0,3}<\/?(?:table|caption|thead|tbody|tfoot|tr|td|th|div|p|ul|ol|li|h[1-6]|blockquote|details|summary|section|dl|dt|dd|hr)(?=[\s/>]|$)/i;
/** A pipe table's delimiter row; the table's rows are parsed cell by cell, so they never make a long paragraph. */
const TABLE_DELIMITER_ROW = /^ {0,3}\|?(?:[ \t]*:?-+:?[ \t]*\|)+(?:[ \t]*:?-+:?[ \t]*)?$|^ {0,3}\|?[ \t]*:?-+:?[ \t]*$/;

function boundedNesting(markdown: string): string {
  let fence: string | null = null;
  /** What the current block is: counted toward MAX_PARAGRAPH only when its lines are parsed inline. */
  let block: 'none' | 'paragraph' | 'html' | 'table' = 'none';
  let paragraph = 0;
  const lines: string[] = [];
  for (const line of markdown.split('\n')) {
    const opener = FENCE.exec(line)?.[1];
    if (fence !== null) {
      if (opener && opener[0] === fence[0] && opener.length >= fence.length && line.trim() === opener) fence = null;
      lines.push(line);
      continue;
    }
    if (opener) fence = opener;
    for (const piece of boundedLength(line).map(boundedLine)) {
      if (piece.trim() === '') block = 'none';
      else if (HTML_BLOCK_START.test(piece)) block = 'html';
      else if (block === 'paragraph' && TABLE_DELIMITER_ROW.test(piece) && piece.includes('-')) block = 'table';
      else if (block === 'none') block = 'paragraph';
      paragraph = block === 'paragraph' ? paragraph + piece.length : 0;
      if (paragraph > MAX_PARAGRAPH) {
        lines.push('');
        paragraph = piece.length;
      }
      lines.push(piece);
    }
  }
  return lines.join('\n');
}

/** A line longer than a paragraph may be, in pieces cut before a tag or at a space where there is one. */
function boundedLength(line: string): string[] {
  const pieces: string[] = [];
  let rest = line;
  while (rest.length > MAX_PARAGRAPH) {
    const window = rest.slice(MAX_PARAGRAPH / 2, MAX_PARAGRAPH);
    const at = [window.lastIndexOf('<tr'), window.lastIndexOf('<'), window.lastIndexOf(' ')].find((index) => index > 0) ?? window.length;
    pieces.push(rest.slice(0, MAX_PARAGRAPH / 2 + at));
    rest = rest.slice(MAX_PARAGRAPH / 2 + at);
  }
  pieces.push(rest);
  return pieces;
}

function boundedLine(line: string): string {
  let rest = line;
  let prefix = '';
  for (let depth = 0; depth < MAX_MARKDOWN_NESTING; depth++) {
    const marker = CONTAINER_MARKER.exec(rest)?.[0];
    if (!marker) break;
    prefix += marker;
    rest = rest.slice(marker.length);
  }
  // past the bound, a further marker is text
  if (CONTAINER_MARKER.test(rest)) rest = rest.replace(/^([ \t]*)([>\-+*]|\d{1,9}[.)])/, (_m, space: string, mark: string) => `${space}${mark.replace(/^(\d*)(.)$/, '$1\\$2')}`);
  if (!THEMATIC_BREAK.test(rest)) rest = rest.replace(LONG_DELIMITER_RUN, (run) => run.replace(/[*_[]/g, '\\$&'));
  const indent = /^[ \t]*/.exec(prefix + rest)![0];
  return indent.length > MAX_INDENT ? (prefix + rest).slice(indent.length - MAX_INDENT) : prefix + rest;
}

// ---------------------------------------------------------------------------------------------
// One pass over the parsed Markdown: raw HTML, links and images rewritten where they stand.

interface MdNode {
  type: string;
  url?: string;
  alt?: string | null;
  position?: { start: { offset?: number }; end: { offset?: number } };
  children?: MdNode[];
}

interface Replacement {
  start: number;
  end: number;
  text: string;
}

function safePass(markdown: string): string {
  const tree = parser.parse(markdown) as MdNode;
  const html: { start: number; end: number }[] = [];
  const replacements: Replacement[] = [];
  walk(tree, (node) => {
    const range = rangeOf(node);
    if (!range) return true;
    if (node.type === 'html') {
      html.push(range);
      return false;
    }
    if ((node.type === 'link' || node.type === 'definition') && !allowedUrl(node.url ?? '', LINK_PROTOCOLS)) {
      replacements.push({ ...range, text: node.type === 'link' ? childrenSource(markdown, node) : '' });
      return false;
    }
    if ((node.type === 'image' || node.type === 'definition') && !allowedUrl(node.url ?? '', IMAGE_PROTOCOLS)) {
      replacements.push({ ...range, text: escapeMarkdownText(node.alt ?? '') });
      return false;
    }
    return true;
  });
  const rewritten = safeHtml(html.map((range) => markdown.slice(range.start, range.end)));
  html.forEach((range, index) => replacements.push({ ...range, text: rewritten[index]! }));
  return applyReplacements(markdown, replacements);
}

function walk(node: MdNode, visit: (node: MdNode) => boolean): void {
  if (!visit(node)) return;
  for (const child of node.children ?? []) walk(child, visit);
}

function rangeOf(node: MdNode): { start: number; end: number } | undefined {
  const start = node.position?.start.offset;
  const end = node.position?.end.offset;
  return start === undefined || end === undefined ? undefined : { start, end };
}

/** A link's label as written, markup and all: from its first child to its last. */
function childrenSource(markdown: string, node: MdNode): string {
  const first = node.children?.[0] && rangeOf(node.children[0]);
  const last = node.children?.at(-1) && rangeOf(node.children.at(-1)!);
  return first && last ? markdown.slice(first.start, last.end) : '';
}

function applyReplacements(markdown: string, replacements: Replacement[]): string {
  const sorted = replacements.filter((r) => markdown.slice(r.start, r.end) !== r.text).sort((a, b) => a.start - b.start);
  let out = '';
  let at = 0;
  for (const replacement of sorted) {
    if (replacement.start < at) continue;
    out += markdown.slice(at, replacement.start) + replacement.text;
    at = replacement.end;
  }
  return out + markdown.slice(at);
}

/** Relative addresses, and absolute ones with one of `protocols`; control characters and spaces hide nothing. */
export function allowedUrl(url: string, protocols: readonly string[]): boolean {
  // eslint-disable-next-line no-control-regex
  const plain = url.replace(/[\u0000-\u0020\u007f]/g, '');
  const colon = plain.indexOf(':');
  const beforePath = plain.search(/[/?#]/);
  if (colon === -1 || (beforePath !== -1 && beforePath < colon)) return true;
  return protocols.includes(plain.slice(0, colon).toLowerCase());
}

// ---------------------------------------------------------------------------------------------
// Raw HTML: allowed tags kept canonically, every other `<` written as text.

const TAG = /<(\/?)([A-Za-z][A-Za-z0-9-]*)((?:\s+[^\s"'>/=]+(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s"'=<>`]+))?)*)\s*(\/?)>/y;
const COMMENT = /<!--[\s\S]*?(?:-->|$)/y;
const ATTRIBUTE = /([^\s"'>/=]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+)))?/g;

type Token = { kind: 'text'; text: string } | TagToken;

interface TagToken {
  kind: 'tag';
  name: string;
  closing: boolean;
  attributes: Map<string, string>;
  /** Written as text: not allowed, too deep, or closing nothing open. */
  asText: boolean;
  /** Left out, its content kept (UNWRAPPED_TAGS). */
  unwrapped: boolean;
  source: string;
}

/**
 * Rewrites the raw HTML pieces of one page, in order: tables and nesting are followed across
 * pieces, since a model's table may be cut by a blank line into several.
 */
function safeHtml(pieces: readonly string[]): string[] {
  const tokenised = pieces.map(tokenise);
  const open: { name: string }[] = [];
  for (const token of tokenised.flat()) {
    if (token.kind !== 'tag' || token.asText || token.unwrapped) continue;
    if (token.closing) {
      const at = open.map((element) => element.name).lastIndexOf(token.name);
      if (at === -1) token.asText = true;
      else open.length = at;
      continue;
    }
    closeImplied(open, token.name);
    if (VOID_TAGS.has(token.name)) continue;
    if (open.length >= MAX_HTML_NESTING) {
      token.asText = true;
      continue;
    }
    open.push({ name: token.name });
  }
  const rewritten = tokenised.map((tokens) => tokens.map(written).join(''));
  // what a page leaves open would swallow the pages after it in the export
  if (rewritten.length > 0 && open.length > 0) rewritten[rewritten.length - 1] += [...open].reverse().map((element) => `</${element.name}>`).join('');
  return boundTableSpans(rewritten);
}

/**
 * Table spans bounded by the table's real size: colspan by its most cells in a row, rowspan by the
 * rows left from the cell's own. The tables are read on hast as the exports read them
 * (table-grid.ts), from the rewritten pieces joined, whose tags are canonical and whose nesting is
 * already bounded, so the HTML parser cannot be made to recurse deeply.
 */
function boundTableSpans(pieces: readonly string[]): string[] {
  const joined = pieces.join('');
  if (!/ (?:col|row)span="/.test(joined)) return [...pieces];
  const edits: Replacement[] = [];
  for (const table of tablesIn(fromHtml(joined, { fragment: true }))) {
    const rows = tableRows(table);
    const columns = Math.max(1, ...rows.map((row) => row.cells.length));
    rows.forEach(({ cells }, index) => {
      for (const cell of cells) {
        const start = cell.position?.start.offset;
        if (start === undefined) continue;
        const end = joined.indexOf('>', start) + 1;
        const tag = joined.slice(start, end);
        const text = boundedSpan(boundedSpan(tag, 'colspan', Math.min(columns, MAX_SPAN)), 'rowspan', Math.min(rows.length - index, MAX_SPAN));
        if (text !== tag) edits.push({ start, end, text });
      }
    });
  }
  let at = 0;
  return pieces.map((piece) => {
    const from = at;
    at += piece.length;
    const own = edits.filter((edit) => edit.start >= from && edit.end <= at).map((edit) => ({ ...edit, start: edit.start - from, end: edit.end - from }));
    return applyReplacements(piece, own);
  });
}

/** A canonical cell tag with its span attribute at most `most`, and gone where that leaves 1. */
function boundedSpan(tag: string, name: string, most: number): string {
  return tag.replace(new RegExp(` ${name}="([^"]*)"`), (_whole, value: string) => {
    const span = Math.min(Number.parseInt(decodeHtmlAttribute(value), 10) || 1, most);
    return span > 1 ? ` ${name}="${span}"` : '';
  });
}

function tokenise(html: string): Token[] {
  const tokens: Token[] = [];
  let text = '';
  for (let at = 0; at < html.length; ) {
    if (html[at] !== '<') {
      const next = html.indexOf('<', at);
      text += html.slice(at, next === -1 ? html.length : next);
      at = next === -1 ? html.length : next;
      continue;
    }
    COMMENT.lastIndex = at;
    const comment = COMMENT.exec(html);
    if (comment) {
      // the export drops comments too
      at += comment[0].length;
      continue;
    }
    TAG.lastIndex = at;
    const tag = TAG.exec(html);
    if (!tag) {
      text += '&lt;';
      at++;
      continue;
    }
    if (text) tokens.push({ kind: 'text', text });
    text = '';
    const name = tag[2]!.toLowerCase();
    const unwrapped = UNWRAPPED_TAGS.has(name);
    tokens.push({ kind: 'tag', name, closing: tag[1] === '/', attributes: attributesOf(tag[3] ?? ''), asText: !unwrapped && !ALLOWED_TAGS.has(name), unwrapped, source: tag[0] });
    at += tag[0].length;
  }
  if (text) tokens.push({ kind: 'text', text });
  return tokens;
}

function attributesOf(source: string): Map<string, string> {
  const attributes = new Map<string, string>();
  for (const match of source.matchAll(ATTRIBUTE)) {
    const name = match[1]!.toLowerCase();
    if (!attributes.has(name)) attributes.set(name, decodeHtmlAttribute(match[2] ?? match[3] ?? match[4] ?? ''));
  }
  return attributes;
}

/** The end tags HTML implies: a new cell ends the open cell, a new row the open row, and so on. */
function closeImplied(open: { name: string }[], name: string): void {
  const closes: Record<string, { ends: readonly string[]; within: readonly string[] }> = {
    td: { ends: ['td', 'th'], within: ['tr', 'table'] },
    th: { ends: ['td', 'th'], within: ['tr', 'table'] },
    tr: { ends: ['tr', 'td', 'th'], within: ['thead', 'tbody', 'tfoot', 'table'] },
    thead: { ends: ['thead', 'tbody', 'tfoot', 'tr', 'td', 'th'], within: ['table'] },
    tbody: { ends: ['thead', 'tbody', 'tfoot', 'tr', 'td', 'th'], within: ['table'] },
    tfoot: { ends: ['thead', 'tbody', 'tfoot', 'tr', 'td', 'th'], within: ['table'] },
    li: { ends: ['li'], within: ['ul', 'ol'] },
    p: { ends: ['p'], within: [] },
  };
  const rule = closes[name];
  if (!rule) return;
  while (open.length > 0) {
    const top = open.at(-1)!.name;
    if (!rule.ends.includes(top) || rule.within.includes(top)) return;
    open.pop();
  }
}

function written(token: Token): string {
  if (token.kind === 'text') return token.text;
  if (token.unwrapped) return '';
  if (token.asText) return escapeHtmlText(token.source);
  if (token.closing) return `</${token.name}>`;
  const kept = (KEPT_ATTRIBUTES[token.name] ?? [])
    .filter((name) => token.attributes.has(name))
    .filter((name) => name !== 'href' || allowedUrl(token.attributes.get(name)!, LINK_PROTOCOLS))
    .filter((name) => name !== 'src' || allowedUrl(token.attributes.get(name)!, IMAGE_PROTOCOLS))
    .map((name) => ` ${name}="${escapeHtmlAttribute(token.attributes.get(name)!)}"`);
  return `<${token.name}${kept.join('')}>`;
}
