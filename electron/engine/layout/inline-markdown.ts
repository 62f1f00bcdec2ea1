/**
 * Lines of runs -> one Markdown string: spaces rebuilt from gaps, lines joined with
 * de-hyphenation, bold/italic/code/link spans from run styles, and Markdown's special characters
 * escaped where they would otherwise change the meaning.
 */

import { escapeMarkdownText } from '../../../shared/markdown-escape.js';
import type { TextRun } from './geometry.js';
import type { Line } from './lines.js';

export interface InlineOptions {
  /** Monospace runs become `code` spans (off inside code blocks and headings). */
  codeSpans: boolean;
  /** Bold and italic runs are marked (off in headings, whose weight says nothing). */
  emphasis: boolean;
}

const PLAIN: InlineOptions = { codeSpans: false, emphasis: false };
const PROSE: InlineOptions = { codeSpans: true, emphasis: true };

interface Piece {
  text: string;
  bold: boolean;
  italic: boolean;
  code: boolean;
  link: string | undefined;
  /** Inline math's LaTeX, written `$...$`; `text` holds its characters as they read. */
  math: string | undefined;
}

/** The LaTeX of a relation or binary operator ending a formula, where TeX may break a line in inline math. */
const TRAILING_OPERATOR = /(?:^|[\s}])(?:[=<>+\-*/]|\\(?:leq?|geq?|neq?|ll|gg|equiv|approx|sim|simeq|cong|propto|in|ni|notin|subset|supset|subseteq|supseteq|to|mapsto|rightarrow|leftarrow|Rightarrow|Leftarrow|leftrightarrow|iff|times|cdot|pm|mp|cup|cap|wedge|vee|oplus|otimes|mid))$/;

/** A gap wider than this many ems between two runs is a space pdf.js did not write. */
const SPACE_GAP_EM = 0.15;

const LOWERCASE_START = /^[\p{Ll}]/u;
/** A word broken by a hyphen at the end of a line; a soft hyphen may sit before the printed one. */
const HYPHEN_END = /\p{L}\u00AD?[-\u2010\u00AD]$/u;
/** Hyphens that only ever mark a break (soft hyphens, and U+2010 as Chromium prints them). */
const BREAK_MARKS = /[\u00AD\u2010]/;
const SOFT_HYPHENS = /\u00AD/g;

function pieceOf(run: TextRun, options: InlineOptions): Piece {
  return {
    // Soft hyphens inside a line are invisible; the one ending a line is handled when lines join.
    text: run.text.replace(/\u00AD(?!$)/g, ''),
    bold: options.emphasis && run.bold,
    italic: options.emphasis && run.italic,
    code: options.codeSpans && run.monospace && /[\p{L}\p{N}]/u.test(run.text),
    link: run.link,
    math: run.latex,
  };
}

function plainSpace(): Piece {
  return { text: ' ', bold: false, italic: false, code: false, link: undefined, math: undefined };
}

const RTL_LETTER = /[\u0590-\u08FF\uFB1D-\uFDFF\uFE70-\uFEFF]/gu;
const ANY_LETTER = /\p{L}/gu;

/** A line mostly in Hebrew or Arabic script reads right to left: its runs are taken from the right. */
function readsRightToLeft(line: Line): boolean {
  const text = line.runs.map((r) => r.text).join('');
  const rtl = text.match(RTL_LETTER)?.length ?? 0;
  return rtl > 0 && rtl * 2 > (text.match(ANY_LETTER)?.length ?? 0);
}

function linePieces(line: Line, options: InlineOptions): Piece[] {
  const pieces: Piece[] = [];
  const rtl = readsRightToLeft(line);
  let previous: TextRun | undefined;
  for (const run of rtl ? [...line.runs].reverse() : line.runs) {
    if (previous) {
      const gap = rtl ? previous.x0 - run.x1 : run.x0 - previous.x1;
      const spaced = /\s$/.test(previous.text) || /^\s/.test(run.text);
      if (!spaced && gap > SPACE_GAP_EM * Math.min(previous.fontSize, run.fontSize)) pieces.push(plainSpace());
    }
    pieces.push(pieceOf(run, options));
    previous = run;
  }
  return pieces;
}

/** The text of a line as plain characters, spaces rebuilt from gaps. */
export function lineText(line: Line): string {
  return linePieces(line, PLAIN)
    .map((p) => p.text)
    .join('')
    .replace(SOFT_HYPHENS, '')
    .replace(/\s+/g, ' ')
    .trim();
}

/** Joins the pieces of consecutive lines, removing a hyphen that only split a word across the break. */
function joinLines(lines: readonly Line[], options: InlineOptions): Piece[] {
  // When the producer marks its own breaks, a plain hyphen at a line end belongs to the word ("long-term").
  const marksBreaks = lines.some((line) => line.runs.some((run) => BREAK_MARKS.test(run.text)));
  const pieces: Piece[] = [];
  for (const line of lines) {
    const next = linePieces(line, options);
    const last = pieces[pieces.length - 1];
    if (last && next.length > 0) {
      const trimmed = last.text.replace(/\s+$/, '');
      const first = next[0]!.text.replace(/^\s+/, '');
      // pdf.js may give the hyphen as its own item: judge it with the text before it.
      const tail = (trimmed.length === 1 ? (pieces[pieces.length - 2]?.text ?? '') : '') + trimmed;
      const hyphenated = HYPHEN_END.test(tail) && LOWERCASE_START.test(first);
      if (trimmed.endsWith('\u00AD') || (hyphenated && (!marksBreaks || BREAK_MARKS.test(trimmed.slice(-1))))) {
        last.text = trimmed.slice(0, -1).replace(SOFT_HYPHENS, '');
        next[0]!.text = first;
      } else if (hyphenated) {
        // A compound broken at its own hyphen: keep the hyphen, add no space.
        last.text = trimmed;
        next[0]!.text = first;
      } else {
        pieces.push(plainSpace());
      }
    }
    pieces.push(...next);
  }
  return pieces;
}

function sameStyle(a: Piece, b: Piece): boolean {
  return a.bold === b.bold && a.italic === b.italic && a.code === b.code && a.link === b.link && a.math === undefined && b.math === undefined;
}

/** Whitespace between two pieces of one style takes that style, so `**a b**` is not cut in two. */
function mergePieces(pieces: readonly Piece[]): Piece[] {
  const merged: Piece[] = [];
  for (let i = 0; i < pieces.length; i++) {
    let piece = pieces[i]!;
    const before = merged[merged.length - 1];
    const after = pieces[i + 1];
    if (!piece.text.trim() && before && after && sameStyle(before, after)) piece = { ...before, text: piece.text };
    // TeX breaks inline math after a relation or an operator: a formula ending in one goes on with the formula after the break.
    if (!piece.text.trim() && before?.math !== undefined && TRAILING_OPERATOR.test(before.math) && after?.math !== undefined && before.link === after.link) {
      before.text += piece.text;
      before.math += ' ';
      continue;
    }
    if (before && sameStyle(before, piece)) before.text += piece.text;
    // Two formulas side by side are one: written apart they would read as `$$`.
    else if (before?.math !== undefined && piece.math !== undefined && before.link === piece.link) {
      before.text += piece.text;
      before.math = `${before.math.trimEnd()} ${piece.math}`;
    } else merged.push({ ...piece });
  }
  return merged;
}

/** Escapes what would make the start of a block something else (a heading, quote, list or rule). */
export function escapeBlockStart(markdown: string): string {
  return markdown
    .replace(/^\[(?=[^\]]*\]:)/, '\\[')
    .replace(/^(#{1,6})(?=\s|$)/, '\\$1')
    .replace(/^([>+=|])/, '\\$1')
    .replace(/^-(?=\s|-|$)/, '\\-')
    .replace(/^(\d{1,9})([.)])(?=\s|$)/, '$1\\$2');
}

function codeSpan(text: string): string {
  const fence = text.includes('`') ? '``' : '`';
  const pad = fence.length > 1 ? ' ' : '';
  return `${fence}${pad}${text}${pad}${fence}`;
}

/** `escapeDollars`: every dollar of the text is escaped, so that none pairs with another or with a formula's as math. */
function styled(piece: Piece, escapeDollars: boolean): string {
  const text = piece.text;
  const core = text.trim();
  if (!core) return text;
  const lead = text.slice(0, text.indexOf(core));
  const trail = text.slice(text.indexOf(core) + core.length);
  const escaped = (plain: string) => (escapeDollars ? escapeMarkdownText(plain).replace(/\$/g, '\\$') : escapeMarkdownText(plain));
  let inner: string;
  if (piece.math !== undefined) inner = `$${piece.math}$`;
  else if (piece.code) inner = codeSpan(core);
  else if (/^[\p{P}\p{S}\s]+$/u.test(core) || (!piece.bold && !piece.italic)) inner = escaped(core);
  else {
    const marker = piece.bold && piece.italic ? '***' : piece.bold ? '**' : '*';
    inner = `${marker}${escaped(core)}${marker}`;
  }
  return `${lead}${inner}${trail}`;
}

function renderPieces(pieces: readonly Piece[], escapeDollars: boolean): string {
  let out = '';
  let i = 0;
  while (i < pieces.length) {
    const link = pieces[i]!.link;
    if (!link) {
      out += styled(pieces[i]!, escapeDollars);
      i++;
      continue;
    }
    let inner = '';
    while (i < pieces.length && pieces[i]!.link === link) inner += styled(pieces[i++]!, escapeDollars);
    const label = inner.trim();
    const lead = inner.slice(0, inner.indexOf(label));
    const trail = inner.slice(inner.indexOf(label) + label.length);
    out += label ? `${lead}[${label}](${link.replace(/[()\s]/g, encodeURIComponent)})${trail}` : inner;
  }
  return out;
}

/** Markdown for a paragraph, heading or list item made of these lines. */
export function renderInline(lines: readonly Line[], options: InlineOptions = PROSE): string {
  const pieces = mergePieces(joinLines(lines, options));
  // Beside a formula's `$...$`, any dollar of the text could close or open math; so could two dollars
  // of the text, or one beside a code span's. A code span's own dollars stay as written: inside it a
  // backslash is shown, not an escape.
  const dollars = (code: boolean) => pieces.reduce((n, p) => n + (p.math === undefined && Boolean(p.code) === code ? (p.text.match(/\$/g)?.length ?? 0) : 0), 0);
  const textDollars = dollars(false);
  const escapeDollars = pieces.some((p) => p.math !== undefined) || (textDollars > 0 && textDollars + dollars(true) >= 2);
  return renderPieces(pieces, escapeDollars).replace(SOFT_HYPHENS, '').replace(/\s+/g, ' ').trim();
}
