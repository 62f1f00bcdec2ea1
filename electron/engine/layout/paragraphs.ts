/**
 * The lines of one column -> groups of lines that belong together (a paragraph, a heading, a list
 * item, a code block). A group ends at a vertical gap wider than the usual line spacing, at a change
 * of size or weight, at a list marker, and at a change of indentation that is not a paragraph's
 * first-line or hanging indent.
 */

import { lineText } from './inline-markdown.js';
import type { Line } from './lines.js';
import { listMarker, type ListMarker } from './lists.js';

export interface LineInfo {
  line: Line;
  text: string;
  marker: ListMarker | undefined;
  boldShare: number;
  monoShare: number;
  /** Baseline of the line's main-size text (sub- and superscripts aside). */
  baseline: number;
  /** Pieces set far apart on one line (a row of a form or an undetected table): the line stands alone. */
  spread: boolean;
}

const SPREAD_GAP_EM = 1.5;

function isSpread(line: Line): boolean {
  for (let i = 1; i < line.runs.length; i++) {
    const a = line.runs[i - 1]!;
    const b = line.runs[i]!;
    if (b.x0 - a.x1 > SPREAD_GAP_EM * Math.max(a.fontSize, b.fontSize)) return true;
  }
  return false;
}

export interface ColumnMetrics {
  left: number;
  right: number;
  em: number;
  /** Usual baseline-to-baseline distance, when the column has enough lines to tell. */
  pitch: number | undefined;
  /** Most lines end at the right edge (justified text), so a short line ends a paragraph. */
  justified: boolean;
}

const INDENT_EM = 0.8;
/** A table-of-contents entry: dot leaders, then a page number. Each one stands alone. */
const LEADER_LINE = /(\.\s?){4,}\s*[\divxlc]+$/i;
const GAP_FACTOR = 1.3;

function share(line: Line, test: (run: Line['runs'][number]) => boolean): number {
  let hit = 0;
  let all = 0;
  for (const run of line.runs) {
    // Letters only: a heading's plain-weight number or punctuation does not make it less bold.
    const n = run.text.replace(/[^\p{L}]/gu, '').length;
    all += n;
    if (test(run)) hit += n;
  }
  return all === 0 ? 0 : hit / all;
}

/**
 * Word sets its second- and third-level bullets in Courier New and Wingdings, which reach the
 * text layer as a lone `o` or `§` standing well apart from the item's text.
 */
const GLYPH_BULLETS = new Set(['o', '§', 'Ø', 'ü', 'q', 'v', 'n']);

function glyphBullet(line: Line, text: string): ListMarker | undefined {
  const [first, second] = line.runs;
  if (!first || !second || !GLYPH_BULLETS.has(first.text.trim())) return undefined;
  if (second.x0 - first.x1 < 0.8 * first.fontSize) return undefined;
  return { text: first.text.trim(), ordered: false, strong: true, rest: text.slice(first.text.trim().length).trim() };
}

export function describeLine(line: Line): LineInfo {
  const text = lineText(line);
  const main = line.runs.filter((r) => Math.abs(r.fontSize - line.fontSize) < 0.5);
  const baseline = main.length > 0 ? Math.max(...main.map((r) => r.y1)) : line.y1;
  return {
    line,
    text,
    marker: listMarker(text) ?? glyphBullet(line, text),
    boldShare: share(line, (r) => r.bold),
    monoShare: share(line, (r) => r.monospace),
    baseline,
    spread: isSpread(line),
  };
}

function quantile(values: number[], q: number): number | undefined {
  if (values.length === 0) return undefined;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length * q)];
}

export function columnMetrics(lines: readonly LineInfo[], bodySize: number): ColumnMetrics {
  const em = quantile(lines.map((l) => l.line.fontSize), 0.5) ?? bodySize;
  const pitches: number[] = [];
  for (let i = 1; i < lines.length; i++) {
    const a = lines[i - 1]!;
    const b = lines[i]!;
    const pitch = b.baseline - a.baseline;
    if (Math.abs(a.line.fontSize - b.line.fontSize) < 0.5 && pitch > 0.9 * em && pitch < 2.5 * em) pitches.push(pitch);
  }
  const left = Math.min(...lines.map((l) => l.line.x0));
  // The measure: most long lines reach it; a wider title above the text does not move it.
  const right = quantile(lines.map((l) => l.line.x1), 0.8) ?? 0;
  const flush = lines.filter((l) => l.line.x1 >= right - 0.5 * em).length;
  // The lower quartile: in short paragraphs, gaps between them can be half of all pitches.
  const pitch = quantile(pitches, 0.25);
  return {
    left,
    right,
    em,
    // A usual pitch this wide means one-line paragraphs, whose gaps are all there is to measure.
    pitch: pitches.length >= 2 && pitch !== undefined && pitch < 1.7 * em ? pitch : undefined,
    justified: lines.length >= 4 && flush / lines.length >= 0.6,
  };
}

/** A marker that might just be wrapped prose ("(ii)" at a line start) counts only where a list could start. */
function startsItem(info: LineInfo, previous: LineInfo | undefined, previousInList: boolean, m: ColumnMetrics, gap: boolean): boolean {
  if (!info.marker) return false;
  if (info.marker.strong || !previous || previousInList || gap) return true;
  return previous.line.x1 < m.right - 3 * m.em || /[.:;!?]$/.test(previous.text) || info.line.x0 > m.left + m.em;
}

function isGap(a: LineInfo, b: LineInfo, m: ColumnMetrics): boolean {
  const pitch = b.baseline - a.baseline;
  const size = Math.max(a.line.fontSize, b.line.fontSize);
  if (m.pitch !== undefined) {
    // Leading grows with the type: a title's lines sit further apart than the body's.
    const expected = m.pitch * Math.max(1, size / m.em);
    return pitch > expected * GAP_FACTOR && pitch > 0.4 * size + expected;
  }
  return b.line.y0 - a.line.y1 > 0.6 * size;
}

/**
 * The previous line stopped short although the next line's first word would have fitted: a forced
 * break. The measure is the widest of the group's lines and the next one, so that a narrower
 * block (a quotation) is measured against itself, not against the page.
 */
function brokenEarly(group: LineGroup, a: LineInfo, b: LineInfo, m: ColumnMetrics): boolean {
  if (a.monoShare >= 0.9 || b.text.length === 0) return false;
  const right = Math.max(b.line.x1, ...group.lines.map((l) => l.line.x1));
  const firstWord = b.text.split(' ')[0]!;
  const charWidth = (b.line.x1 - b.line.x0) / b.text.length;
  return right - a.line.x1 > firstWord.length * charWidth + m.em;
}

function styleChanges(a: LineInfo, b: LineInfo): boolean {
  const sizeA = a.line.fontSize;
  const sizeB = b.line.fontSize;
  if (Math.abs(sizeA - sizeB) > 0.12 * Math.min(sizeA, sizeB)) return true;
  if (a.boldShare >= 0.9 !== b.boldShare >= 0.9) return true;
  return a.monoShare >= 0.9 !== b.monoShare >= 0.9;
}

function centred(a: LineInfo, b: LineInfo, m: ColumnMetrics): boolean {
  const centreA = (a.line.x0 + a.line.x1) / 2;
  const centreB = (b.line.x0 + b.line.x1) / 2;
  const inset = Math.min(a.line.x0, b.line.x0) > m.left + m.em;
  return inset && Math.abs(centreA - centreB) < m.em;
}

export interface LineGroup {
  lines: LineInfo[];
  /** The group starts with a list marker. */
  item: boolean;
}

export function splitParagraphs(lines: readonly LineInfo[], m: ColumnMetrics): LineGroup[] {
  const groups: LineGroup[] = [];
  let current: LineGroup | undefined;
  let inList = false;
  for (const info of lines) {
    const previous = current?.lines[current.lines.length - 1];
    const gap = previous !== undefined && isGap(previous, info, m);
    const item = startsItem(info, previous, inList, m, gap);
    const ended =
      current !== undefined &&
      previous !== undefined &&
      (LEADER_LINE.test(previous.text) || previous.spread || info.spread || brokenEarly(current, previous, info, m));
    if (!current || !previous || item || gap || ended || styleChanges(previous, info) || indentBreak(current, previous, info, m)) {
      if (current) groups.push(current);
      current = { lines: [info], item };
      // A gap or an unindented plain line after a list ends it; continuation lines keep it going.
      inList = item || (inList && !gap && info.line.x0 > m.left + 0.5 * m.em);
    } else current.lines.push(info);
    // a one-line paragraph ends as any other: the next paragraph's indented first line would otherwise join it
    if (endsShort(current, info, m)) {
      groups.push(current);
      current = undefined;
    }
  }
  if (current) groups.push(current);
  return groups;
}

/** In justified text, a line that stops well short of the measure at the end of a sentence ends its paragraph. */
function endsShort(group: LineGroup, info: LineInfo, m: ColumnMetrics): boolean {
  return m.justified && !group.item && info.line.x1 < m.right - 2 * m.em && /[.!?:]$/.test(info.text);
}

/**
 * Indentation ends a group unless the previous line opened it (a first-line indent or a hanging
 * indent); list items continue at their text's indentation.
 */
function indentBreak(group: LineGroup, previous: LineInfo, info: LineInfo, m: ColumnMetrics): boolean {
  const shift = info.line.x0 - previous.line.x0;
  if (Math.abs(shift) <= INDENT_EM * m.em) return false;
  // Code is indented by its structure, not by paragraphs.
  if (previous.monoShare >= 0.9 && info.monoShare >= 0.9) return false;
  if (centred(previous, info, m)) return false;
  const first = group.lines[0]!;
  // An item's continuation lines hang right of its marker; a line left of the marker ends the item.
  if (group.item) return shift < 0;
  return previous !== first;
}
