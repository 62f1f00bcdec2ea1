/**
 * Tables drawn without vertical rules (borderless, or booktabs-style with only horizontal rules):
 * consecutive lines whose pieces of text fall into the same column ranges. Prose in columns, lists
 * and key-value lines also line up, so a block must have three or more columns and rows (two of
 * each when rules bracket it above and below) and read like table cells: short, not running text;
 * or two columns of labels beside the phrases they name.
 */

import type { Box, Rule, TextRun } from './geometry.js';
import { bridgedRules } from './bridged-rules.js';
import { spannedColumns } from './spanner-rules.js';
import { unwrappedRows } from './unwrapped-rows.js';
import { plainCells, type CellSpan, type TableLayout } from './table-layout.js';

/**
 * A gap this wide (in font sizes) between runs on a line separates cells: pdf.js splits items at
 * gaps over 0.6 of the font size, and a word space between runs in different fonts is about 0.25.
 */
const CELL_GAP = 0.5;
/** Column ranges must stay at least this far apart (in line heights). */
const COLUMN_GAP = 0.5;
/** Rows further apart than this (in line heights) end a table, unless a rule lies between them. */
const ROW_GAP = 1.6;
const RULED_ROW_GAP = 3.5;
/** A line labelling the group of rows below it may lie this far (in line heights) under the row above. */
const LABEL_ROW_GAP = 2;
/** Cells of prose-like length or shape mark a block as running text. */
const MAX_MEAN_CELL_CHARS = 24;
const MAX_LOWERCASE_START_SHARE = 0.5;
/** Columns of commands, symbols or figures beside a column of phrases hold tokens this short on average. */
const MAX_MEAN_TOKEN_CHARS = 12;
/** ...and run to this many rows at least: a code line beside a display and two list items line up by chance for three. */
const MIN_PHRASED_ROWS = 4;
/** Two columns (labels beside phrases): a label runs to this many characters on average... */
const MAX_LABEL_CHARS = 32;
/** ...its phrase to this many... */
const MAX_PHRASE_CHARS = 64;
/** ...at least this share of the labels start flush with the column (wrapped or indented ones may not)... */
const MIN_FLUSH_SHARE = 0.75;
const FLUSH_SLACK = 0.5;
/** ...and the typical label ends this far (in line heights) short of the phrases: prose columns meet at a narrow gutter. */
const MIN_LABEL_GAP = 1.5;
/** At least this share of the phrases hold a word, and fewer of the labels are a list's markers alone. */
const MIN_WORDED_SHARE = 0.5;
const WORDED = /\p{L}{2}/u;
const LIST_MARKER = /^(?:[•◦▪–-]|\(?[\p{L}\d]{1,3}[.)\]]|\[\d{1,3}\])$/u;
/** A column of long cells that often start in lowercase is running text, however short the rest. */
const MAX_MEAN_PROSE_CELL_CHARS = 40;
const MIN_PROSE_LOWERCASE_SHARE = 0.3;
/** Scattered labels (chart axes, equations) line up by chance but leave most of the grid empty. */
const MIN_FILLED_SHARE = 0.6;
/** Dot leaders: in a table of contents (a title led to its page), which reads better as text, or a table's row label led to its figures. */
const LEADER_DOTS = /(?:\.\s?){5,}|…{2,}/;
/** A piece of dot leaders alone, set apart from the label it leads from. */
const LEADER_ONLY = /^(?:(?:\.\s?){5,}|…{2,})$/u;
/** A row label leads to at least this many figures; a title in a table of contents leads to one page number. */
const MIN_LED_ENTRIES = 2;
/** A label over a group of rows is a short phrase, not a line of prose. */
const MAX_GROUP_LABEL_CHARS = 40;
/** At most this many lines of one segment each (labels) in a row are taken inside a table. */
const MAX_STACKED_LABEL_LINES = 3;
/** At most this many header lines are taken above a table body. */
const MAX_HEADER_LINES = 3;
/** A block of headings over a table may run longer than the header lines a table takes: a year over wrapped headings. */
const MAX_HEADING_BLOCK_LINES = 5;
/** At most this many lines of headings are taken over a table: a year over spanners over headings wrapped onto four lines. */
const MAX_HEADER_BLOCK_LINES = 6;
/** Group labels between a table's header line and its first row. */
const MAX_GROUP_LABELS = 2;
/** A segment of this many words starting in lower case is prose, not a header. */
const PROSE_WORDS = 4;
/** A header centred over a run of columns lies this close (in line heights) to the run's middle. */
const CENTRED_HEADER_SLACK = 0.75;
/** A caption's label ("Table 2", "Tab. 3", "TABLE IV", "Table S1"): its line is the caption above the table. */
const CAPTION_LABEL = /^(?:Table|TABLE|Tab\.|TAB\.|Tabelle|Tableau|Tabla)\s*(?:[A-Z]?\d+[a-z]?|[IVXLC]+)\b/u;
/** A row this far above a block (in its usual gap between rows) may still be one of its rows. */
const SPACED_ROW_GAP = 1.25;
/** A label's wrapped line lies closer than this share of the usual row pitch under its row. */
const WRAPPED_LINE_PITCH = 0.9;
/** Rules between at least this share of a block's lines rule its rows off one by one. */
const RULED_ROWS_SHARE = 0.4;
/** Blank space this tall (in line heights) between two lines parts rows. */
const BLANK_LINE = 0.8;
/** A booktabs header whose cells wrap takes at most this many lines above its rule. */
const MAX_WRAPPED_HEADER_LINES = 3;

export interface AlignedTable {
  layout: TableLayout;
  box: Box;
  /** The runs the table takes: its cells' and its amounts' separate currency signs. */
  runIndices: number[];
  /** The runs written into its cells. */
  cellRunIndices: number[];
}

/**
 * A currency sign set apart from its amount, flush in a column of its own (financial statements
 * print it on a column's first and total rows only), marks the amounts; as a column it would
 * break the table's rows into mostly empty cells, so it is taken with the table but not written.
 */
const CURRENCY_SIGN = /^[$€£¥₹]$/u;
const AMOUNT_START = /^[(\-−]?[\d.,]/u;
/** One amount as a table prints it: a figure, maybe signed, bracketed, in a currency or a percentage. */
const AMOUNT = /^[(\-−+]?[$€£¥₹]?\d[\d.,]*%?\)?$/u;
/** The leading group of a figure whose thousands are set apart by a space ("18" of "18 400"). */
const LEADING_THOUSANDS_GROUP = /^[(\-−+]?[$€£¥₹]?\d{1,3}$/u;
/** A later group of such a figure: three digits, the last maybe with decimals, a percent sign, a bracket. */
const THOUSANDS_GROUP = /^\d{3}(?:[.,]\d+)?%?\)?$/u;
/**
 * Spaces in a run narrower than this (ems) part the groups of one figure, not two columns: a
 * word space is about a quarter em, a thin space less; columns are set further apart (CELL_GAP).
 */
const THOUSANDS_SPACE = 0.6;

interface Segment extends Box {
  runIndices: number[];
  text: string;
}

interface Line extends Box {
  segments: Segment[];
  /** Runs taken with the line but written in no cell: currency signs set apart before an amount, dot leaders set apart after a row label. */
  signIndices: number[];
}

interface Column {
  x0: number;
  x1: number;
}

export function findAlignedTables(runs: readonly TextRun[], indices: readonly number[], rules: readonly Rule[]): AlignedTable[] {
  const lines = readLines(runs, indices);
  const horizontalRules = bridgedRules(rules.filter((rule) => rule.orientation === 'horizontal'));
  const tables: AlignedTable[] = [];
  let start = 0;
  let claimedUntil = 0;
  while (start < lines.length) {
    const body = bodyBlock(lines, start, horizontalRules);
    if (!body) {
      start++;
      continue;
    }
    const bracketed = isBracketed(body, lines, horizontalRules);
    const minimum = bracketed ? 2 : 3;
    // A line of one segment (a group label) shows no alignment: rows of several cells count.
    const cellRows = lines.slice(body.start, body.end).filter((line) => line.segments.length >= 2).length;
    const labelled = !bracketed && body.columns.length === 2 && labelsBesidePhrases(lines.slice(body.start, body.end), body.columns);
    if (!labelled && (cellRows < minimum || body.columns.length < minimum)) {
      // Lines that kept to too few columns together keep to too few from any later start as well.
      start = body.columns.length < minimum ? Math.max(start + 1, body.end - 1) : start + 1;
      continue;
    }
    if ((!labelled && !readsLikeCells(lines.slice(body.start, body.end), body.columns)) || headsNextBlock(lines, body, horizontalRules)) {
      start = body.end;
      continue;
    }
    extendUpwards(lines, body, claimedUntil, horizontalRules);
    takeLabelsUnderHeader(lines, body, claimedUntil, horizontalRules);
    const { headers, bodyStart } = headerLinesAbove(lines, body, claimedUntil, horizontalRules);
    const folded = foldWrappedHeadings(
      [...lines.slice(bodyStart - headers.length, bodyStart).map((line) => [line]), ...mergeWrappedCells(bodyRows(lines.slice(bodyStart, body.end), horizontalRules, body.columns), body.columns, labelled)],
      headers,
      body.columns,
    );
    tables.push(tableOf(folded.rows, body.columns, folded.headers, body.belowHeader === true && folded.headers.length > 0));
    start = claimedUntil = body.end;
  }
  return tables;
}

/**
 * Rows set further apart than lines usually are (a table spaced out to fill its page) break the
 * block wherever a wrapped label does not bridge the gap: the rows above it that fit the block's
 * columns, as far apart as its own rows are from each other, are its rows too.
 */
function extendUpwards(lines: readonly Line[], block: Block, claimedUntil: number, rules: readonly Rule[]): void {
  const rows = lines.slice(block.start, block.end).filter((line) => line.segments.length > 1);
  const gaps = rows.slice(1).map((line, i) => line.y0 - rows[i]!.y1).sort((a, b) => a - b);
  if (gaps.length < 2) return;
  const usual = gaps[gaps.length >> 1]!;
  while (block.start > claimedUntil) {
    const line = lines[block.start - 1]!;
    const below = lines[block.start]!;
    if (line.segments.length < 2 || below.y0 - line.y1 > SPACED_ROW_GAP * usual || ruledApart(line, below, rules)) return;
    const merged = mergeColumns(block.columns, line);
    if (!merged || merged.length !== block.columns.length) return;
    block.columns = merged;
    block.start--;
  }
}

/**
 * Group labels between a table's header and its first row ("Sex" over "Male" and "Female") are
 * its first rows: taken when a line that heads the columns lies right above them, so that the
 * header is found above them in turn.
 */
function takeLabelsUnderHeader(lines: readonly Line[], block: Block, claimedUntil: number, rules: readonly Rule[]): void {
  let start = block.start;
  while (start - 1 >= claimedUntil && block.start - start < MAX_STACKED_LABEL_LINES && isGroupLabel(lines[start - 1]!, block.columns) && closeEnough(lines[start - 1]!, lines[start]!, rules)) start--;
  const header = lines[start - 1];
  if (start === block.start || start - 1 < claimedUntil || !header || header.segments.length < 2 || !closeEnough(header, lines[start]!, rules)) return;
  if (headerSpans(header, block.columns, rules)) block.start = start;
}

/** A block is a table with three rows and columns, or two when rules bracket it. */
function minimumSize(block: Block, lines: readonly Line[], rules: readonly Rule[]): number {
  return isBracketed(block, lines, rules) ? 2 : 3;
}

/**
 * Whether a block of a few lines is the header of the table right under it rather than a table of
 * its own: a grouped header ("Number of teachers" over Total, Public and Private; "Control" over
 * the last two) lines up into columns of its own, which the body's columns break into more.
 */
function headsNextBlock(lines: readonly Line[], block: Block, rules: readonly Rule[]): boolean {
  if (block.end - block.start > MAX_HEADING_BLOCK_LINES || block.end >= lines.length) return false;
  const next = growBlock(lines, block.end, rules);
  if (!next || next.columns.length <= block.columns.length) return false;
  // the table may open with a header line and group labels ("Sex" over "Male" and "Female"): its rows lie under them
  const body = next.end - next.start >= minimumSize(next, lines, rules) ? next : rowsUnderLabels(lines, next, rules);
  const minimum = minimumSize(body, lines, rules);
  if (body.end - body.start < minimum || body.columns.length < minimum || !readsLikeCells(lines.slice(body.start, body.end), body.columns)) return false;
  const height = lineHeight(lines[next.start]!);
  return lines.slice(block.start, block.end).every((line, i) => {
    const below = lines[block.start + i + 1]!;
    return closeEnough(line, below, rules) && Math.abs(lineHeight(line) - height) <= 0.25 * height && (headerSpans(line, next.columns, rules) ?? wrappedHeadingTop(line, lines.slice(block.start + i + 1, next.start + 1), next.columns)) !== undefined;
  });
}

/** The block of rows under a few group labels (lines of one segment) right under `block`, or `block` where there is none. */
function rowsUnderLabels(lines: readonly Line[], block: Block, rules: readonly Rule[]): Block {
  let later = block.end;
  while (later < lines.length && later - block.end < MAX_GROUP_LABELS && lines[later]!.segments.length === 1) later++;
  return (later > block.end ? growBlock(lines, later, rules) : undefined) ?? block;
}

/** Runs grouped into lines (by vertical overlap) and each line into cell-like segments. */
function readLines(runs: readonly TextRun[], indices: readonly number[]): Line[] {
  const usable = indices.filter((i) => {
    const run = runs[i];
    return run !== undefined && run.text.trim().length > 0 && run.y1 > run.y0;
  });
  usable.sort((a, b) => centreY(runs[a]!) - centreY(runs[b]!));
  const groups: number[][] = [];
  let current: number[] = [];
  // The line reaches down to the foot of its largest type: a superscript met first (a footnote
  // mark on a header) must not cut off the subscripts lower down on the same line.
  let bottom = -Infinity;
  let size = 0;
  for (const index of usable) {
    const run = runs[index]!;
    if (current.length > 0 && centreY(run) > bottom) {
      groups.push(current);
      current = [];
    }
    if (current.length === 0 || run.fontSize > size) {
      bottom = run.y1;
      size = run.fontSize;
    }
    current.push(index);
  }
  if (current.length > 0) groups.push(current);
  return groups.map((group) => lineOf(runs, group));
}

function lineOf(runs: readonly TextRun[], group: number[]): Line {
  group.sort((a, b) => runs[a]!.x0 - runs[b]!.x0);
  const pieces = group.flatMap((index) => numberPieces(runs[index]!, index));
  const segments: Segment[] = [];
  const signIndices: number[] = [];
  let segment: Segment | undefined;
  for (const [position, piece] of pieces.entries()) {
    const next = pieces[position + 1];
    if (CURRENCY_SIGN.test(piece.text.trim()) && next && AMOUNT_START.test(next.text.trim()) && next.x0 - piece.x1 > CELL_GAP * piece.fontSize) {
      signIndices.push(piece.index);
      segment = undefined;
      continue;
    }
    // Leaders set apart between a row's label and its figures lead the eye across, no cell of their own.
    if (LEADER_ONLY.test(piece.text.trim()) && position > 0 && pieces.length - position - 1 >= MIN_LED_ENTRIES) {
      signIndices.push(piece.index);
      segment = undefined;
      continue;
    }
    if (segment && !piece.alone && piece.x0 - segment.x1 <= CELL_GAP * piece.fontSize) {
      segment.x1 = Math.max(segment.x1, piece.x1);
      segment.y0 = Math.min(segment.y0, piece.y0);
      segment.y1 = Math.max(segment.y1, piece.y1);
      segment.text += ` ${piece.text}`;
      if (!segment.runIndices.includes(piece.index)) segment.runIndices.push(piece.index);
    } else {
      segment = { x0: piece.x0, x1: piece.x1, y0: piece.y0, y1: piece.y1, text: piece.text, runIndices: [piece.index] };
      segments.push(segment);
    }
    if (piece.alone) segment = undefined;
  }
  return {
    segments,
    signIndices,
    x0: Math.min(...segments.map((s) => s.x0)),
    x1: Math.max(...segments.map((s) => s.x1)),
    y0: Math.min(...segments.map((s) => s.y0)),
    y1: Math.max(...segments.map((s) => s.y1)),
  };
}

interface Piece extends Box {
  index: number;
  text: string;
  fontSize: number;
  /** One number of a run that held several: a segment of its own. */
  alone: boolean;
}

/**
 * The run as pieces: one piece, or, for a run of several amounts that the text layer handed over
 * as one item (a row's figures, a space between each), one piece per amount. Figures are printed
 * about half an em wide (separators a quarter), the first amount starts the run and the last ends
 * it, and the space left is shared out equally between them, as between evenly spaced columns.
 * Each amount is then a cell of its own column, as it is printed. Spaces that narrow are a
 * figure's thousands separators ("18 400"), not gaps between columns: its groups stay one amount.
 */
function numberPieces(run: TextRun, index: number): Piece[] {
  const whole: Piece = { index, text: run.text, x0: run.x0, x1: run.x1, y0: run.y0, y1: run.y1, fontSize: run.fontSize, alone: false };
  let tokens = run.text.trim().split(/\s+/u);
  if (tokens.length < 2 || !tokens.every((token) => AMOUNT.test(token))) return [whole];
  if (spaceBetween(tokens, run) <= THOUSANDS_SPACE * run.fontSize) tokens = joinedThousands(run.text);
  if (tokens.length < 2) return [whole];
  const widths = tokens.map((token) => printedWidth(token, run.fontSize));
  const space = spaceBetween(tokens, run);
  let x = run.x0;
  return tokens.map((token, i) => {
    const piece = { ...whole, text: token, x0: x, x1: Math.min(run.x1, x + widths[i]!), alone: true };
    x += widths[i]! + space;
    return piece;
  });
}

/** About how wide a figure is printed: half an em a digit or sign, a quarter a separator or space. */
function printedWidth(token: string, fontSize: number): number {
  return [...token].reduce((sum, char) => sum + (/[.,\s]/u.test(char) ? 0.25 : 0.5), 0) * fontSize;
}

/** The space left between the tokens of the run when they are shared out equally. */
function spaceBetween(tokens: readonly string[], run: TextRun): number {
  const printed = tokens.reduce((sum, token) => sum + printedWidth(token, run.fontSize), 0);
  return Math.max(0, (run.x1 - run.x0 - printed) / (tokens.length - 1));
}

/** The text's figures, each with its thousands groups ("18", "400") joined as printed ("18 400"). */
function joinedThousands(text: string): string[] {
  const figures: { start: number; end: number; groups: string[] }[] = [];
  for (const match of text.matchAll(/\S+/gu)) {
    const group = match[0];
    const figure = figures[figures.length - 1];
    const open = figure && (figure.groups.length === 1 ? LEADING_THOUSANDS_GROUP : /^\d{3}$/u).test(figure.groups[figure.groups.length - 1]!);
    if (figure && open && THOUSANDS_GROUP.test(group)) {
      figure.groups.push(group);
      figure.end = match.index + group.length;
    } else figures.push({ start: match.index, end: match.index + group.length, groups: [group] });
  }
  return figures.map(({ start, end }) => text.slice(start, end));
}

interface Block {
  start: number;
  end: number;
  columns: Column[];
  /** Grown below header lines that keep to columns of their own: its first line is a row of data. */
  belowHeader?: boolean;
}

/**
 * The longest run of lines from `start` whose segments keep to one set of column ranges. A line
 * with a single segment (a header cell centred between wrapped neighbours) may sit inside the
 * run when a line of several segments that fits the columns follows it.
 */
function growBlock(lines: readonly Line[], start: number, rules: readonly Rule[]): Block | undefined {
  const first = lines[start]!;
  if (first.segments.length < 2 || hasLeaderDots(first)) return undefined;
  let columns: Column[] = first.segments.map((s) => ({ x0: s.x0, x1: s.x1 }));
  if (!columnsApart(columns, first)) return undefined;
  const fits = (index: number, current: readonly Column[]) => {
    const line = lines[index];
    if (!line || hasLeaderDots(line) || !closeEnough(lines[index - 1]!, line, rules)) return undefined;
    return mergeColumns(current, line);
  };
  // A group label ("Large models") over the rows below it may reach across the columns beside it.
  const label = (index: number, current: readonly Column[]) => {
    const line = lines[index];
    if (!line || !isGroupLabel(line, current)) return undefined;
    // A group's label may be set apart from the rows above it by a little extra space.
    const upper = lines[index - 1]!;
    if (!closeEnough(upper, line, rules) && line.y0 - upper.y1 > LABEL_ROW_GAP * lineHeight(upper)) return undefined;
    return [...current];
  };
  let end = start + 1;
  while (end < lines.length) {
    const line = lines[end]!;
    let merged = line.segments.length >= 2 ? fits(end, columns) : undefined;
    if (line.segments.length === 1) {
      // A few lines of one segment each (a label wrapped onto a second line, a group label and a
      // subgroup's under it) stay in the table when a row that fits the columns follows them.
      let within: Column[] | undefined = [...columns];
      let k = end;
      for (; k < end + MAX_STACKED_LABEL_LINES && within && lines[k]?.segments.length === 1; k++) within = fits(k, within) ?? label(k, within);
      const next = within && k > end && (lines[k]?.segments.length ?? 0) >= 2 ? fits(k, within) : undefined;
      if (next) {
        merged = next;
        end = k;
      }
    }
    if (!merged) break;
    columns = merged;
    end++;
  }
  return { start, end, columns };
}

/**
 * The block from `start`, or, when a line or two further down inside it starts a block that
 * reaches further between rules drawn across it (a midrule above its first line, a rule below its
 * last), with the lines it leaves above ruled off too (a top rule over them), that block (the
 * furthest-reaching): header cells centred over columns whose entries are
 * set flush left (`Values` over `4008` and `Multiple`) overlap neither those entries nor, once the
 * entries widen the columns, keep them apart, so the body's lines keep to one set of columns only
 * without them. The lines left above are then read as the body's header lines.
 */
function bodyBlock(lines: readonly Line[], start: number, rules: readonly Rule[]): Block | undefined {
  let best = growBlock(lines, start, rules);
  const end = best?.end ?? start;
  for (let later = start + 1; later <= start + MAX_HEADER_LINES && later < end; later++) {
    const body = growBlock(lines, later, rules);
    const header = body && { start, end: body.start, columns: body.columns };
    if (body && header && best && body.end > best.end && isBracketed(body, lines, rules) && isBracketed(header, lines, rules)) best = { ...body, belowHeader: true };
  }
  return best;
}

/**
 * One short segment starting in the first column, however far it reaches: a label over the group
 * of rows below it; or one over two columns or more right of the first: a heading over the
 * figures of the rows below ("Trips taken, in millions"). growBlock takes either only
 * when a row that fits the columns follows.
 */
function isGroupLabel(line: Line, columns: readonly Column[]): boolean {
  const first = columns[0];
  const segment = line.segments[0];
  if (line.segments.length !== 1 || !first || !segment || hasLeaderDots(line) || segment.text.trim().length > MAX_GROUP_LABEL_CHARS) return false;
  const over = columns.filter((column) => segment.x0 < column.x1 && segment.x1 > column.x0).length;
  return segment.x0 < first.x1 || (segment.x0 > first.x1 && over >= 2);
}

/** Rows of one table: near each other, or further apart with a rule between them (booktabs). */
function closeEnough(upper: Line, lower: Line, rules: readonly Rule[]): boolean {
  const gap = lower.y0 - upper.y1;
  const height = lineHeight(upper);
  if (gap <= ROW_GAP * height) return true;
  if (gap > RULED_ROW_GAP * height) return false;
  return ruledApart(upper, lower, rules);
}

/** A rule runs between the two lines, under both. */
function ruledApart(upper: Line, lower: Line, rules: readonly Rule[]): boolean {
  const x0 = Math.max(upper.x0, lower.x0);
  const x1 = Math.min(upper.x1, lower.x1);
  return rules.some((rule) => rule.y0 >= upper.y1 - 1 && rule.y1 <= lower.y0 + 1 && rule.x0 <= x1 && rule.x1 >= x0);
}

/**
 * The column ranges widened by the line's segments, or undefined when a segment bridges two
 * columns or two segments fall in one.
 */
function mergeColumns(columns: readonly Column[], line: Line): Column[] | undefined {
  const next = columns.map((column) => ({ ...column }));
  const used = new Set<Column>();
  for (const segment of line.segments) {
    const hits = next.filter((column) => segment.x0 < column.x1 && segment.x1 > column.x0);
    if (hits.length > 1 || (hits.length === 1 && used.has(hits[0]!))) return undefined;
    if (hits.length === 1) {
      used.add(hits[0]!);
      hits[0]!.x0 = Math.min(hits[0]!.x0, segment.x0);
      hits[0]!.x1 = Math.max(hits[0]!.x1, segment.x1);
    } else {
      next.push({ x0: segment.x0, x1: segment.x1 });
    }
  }
  next.sort((a, b) => a.x0 - b.x0);
  return columnsApart(next, line) ? next : undefined;
}

function columnsApart(columns: readonly Column[], line: Line): boolean {
  const minimumGap = COLUMN_GAP * lineHeight(line);
  return columns.every((column, i) => i === 0 || column.x0 - columns[i - 1]!.x1 >= minimumGap);
}

/** Horizontal rules just above and just below the block, each about as wide as it. */
function isBracketed(block: Block, lines: readonly Line[], rules: readonly Rule[]): boolean {
  const first = lines[block.start]!;
  const last = lines[block.end - 1]!;
  const x0 = block.columns[0]!.x0;
  const x1 = block.columns[block.columns.length - 1]!.x1;
  const spans = (rule: Rule) => rule.x0 <= x0 + 2 && rule.x1 >= x1 - 2;
  const reach = 2 * lineHeight(first);
  const above = rules.some((rule) => spans(rule) && rule.y1 <= first.y0 + 1 && first.y0 - rule.y1 <= reach);
  const below = rules.some((rule) => spans(rule) && rule.y0 >= last.y1 - 1 && rule.y0 - last.y1 <= reach);
  return above && below;
}

/** Dot leaders leading to fewer entries than a row of figures has: a line of a table of contents. */
function hasLeaderDots(line: Line): boolean {
  const led = line.segments.findLastIndex((segment) => LEADER_DOTS.test(segment.text));
  return led >= 0 && line.segments.length - led - 1 < MIN_LED_ENTRIES;
}

/**
 * Table entries rather than running text or scattered labels: short cells, mostly not starting in
 * lowercase, filling most of the grid, no column of prose beside the others (a text column next
 * to a sidebar), and not a form of `key:` / value pairs.
 */
function readsLikeCells(lines: readonly Line[], columns: readonly Column[]): boolean {
  const texts = lines.flatMap((line) => line.segments.map((s) => s.text.trim()));
  const all = textShape(texts);
  // Prose cut at gaps is lowercase in every piece; one column of lowercase phrases beside columns of
  // short tokens (a manual's commands, what they print, what they mean) is a grid's.
  const lowercase = columns.length >= 3 ? columns.filter((column) => textShape(textsIn(lines, column)).lowercaseShare > MAX_LOWERCASE_START_SHARE) : [];
  const others = lowercase.length === 1 ? textShape(lines.flatMap((line) => line.segments.filter((s) => !(s.x0 < lowercase[0]!.x1 && s.x1 > lowercase[0]!.x0)).map((s) => s.text.trim()))) : undefined;
  const filled = texts.filter((t) => /[\p{L}\p{N}]/u.test(t)).length;
  const rows = overlappingRows(lines, columns[0]!).length;
  const phrased = others && others.meanChars <= MAX_MEAN_TOKEN_CHARS && rows >= MIN_PHRASED_ROWS ? others : all;
  const proseColumn = columns.some((column) => {
    const shape = textShape(textsIn(lines, column));
    return shape.meanChars > MAX_MEAN_PROSE_CELL_CHARS && shape.lowercaseShare >= MIN_PROSE_LOWERCASE_SHARE;
  });
  return (
    all.meanChars <= MAX_MEAN_CELL_CHARS &&
    phrased.lowercaseShare <= MAX_LOWERCASE_START_SHARE &&
    filled >= MIN_FILLED_SHARE * rows * columns.length &&
    !proseColumn &&
    keyColumnShare(lines) < 0.5
  );
}

/**
 * Two columns, unruled: labels set flush left beside the phrases they name ("Ticket sales" beside
 * "Grow by the rate of the last three seasons"; a file beside what it holds). Read as two separate columns
 * they would lose their pairing, so such a block is a table, told from what also lines up in two:
 * prose columns (their lines mostly run on in lowercase), side-by-side author blocks (centred, not
 * flush), lists (a marker alone in the first column), a table of contents or a statement (figures,
 * not phrases, on the right) and `key:` forms.
 */
function labelsBesidePhrases(lines: readonly Line[], columns: readonly Column[]): boolean {
  const paired = lines.filter((line) => line.segments.length === 2);
  if (paired.length < MIN_PHRASED_ROWS) return false;
  const labels = paired.map((line) => line.segments[0]!);
  const phrases = paired.map((line) => line.segments[1]!);
  const labelShape = textShape(labels.map((s) => s.text.trim()));
  const phraseShape = textShape(lines.flatMap((line) => line.segments.filter((s) => s.x0 >= columns[1]!.x0 - 1).map((s) => s.text.trim())));
  const em = median(paired.map(lineHeight));
  const flushLeft = labels.filter((s) => s.x0 - columns[0]!.x0 <= FLUSH_SLACK * em).length;
  const apart = median(labels.map((s) => columns[1]!.x0 - s.x1));
  return (
    labelShape.meanChars <= MAX_LABEL_CHARS &&
    labelShape.lowercaseShare <= MAX_LOWERCASE_START_SHARE &&
    phraseShape.lowercaseShare < MIN_PROSE_LOWERCASE_SHARE &&
    phraseShape.meanChars <= MAX_PHRASE_CHARS &&
    phrases.filter((s) => WORDED.test(s.text)).length >= MIN_WORDED_SHARE * phrases.length &&
    labels.filter((s) => LIST_MARKER.test(s.text.trim())).length < MIN_WORDED_SHARE * labels.length &&
    flushLeft >= MIN_FLUSH_SHARE * labels.length &&
    apart >= MIN_LABEL_GAP * em &&
    keyColumnShare(lines) < 0.5
  );
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[sorted.length >> 1] ?? 0;
}

/**
 * Mean length, and the share of texts starting with a letter that start in lowercase and run on
 * for a word or more: prose cut at a gap leaves pieces of several words, while a lone lowercase
 * word is a label (a unit, an identifier, a function's name such as `erf(x)`).
 */
function textShape(texts: readonly string[]): { meanChars: number; lowercaseShare: number } {
  const worded = texts.filter((t) => /^\p{L}/u.test(t));
  const lowercase = worded.filter((t) => /^\p{Ll}/u.test(t) && t.split(/\s+/u).filter((word) => /\p{L}{2}/u.test(word)).length >= 2).length;
  return {
    meanChars: texts.length ? texts.reduce((sum, t) => sum + t.length, 0) / texts.length : 0,
    lowercaseShare: worded.length ? lowercase / worded.length : 0,
  };
}

function textsIn(lines: readonly Line[], column: Column): string[] {
  return lines.flatMap((line) => line.segments.filter((s) => s.x0 < column.x1 && s.x1 > column.x0).map((s) => s.text.trim()));
}

/**
 * Lines grouped into rows where a label's lines overlap the row in height: a label wrapped round
 * the figures centred beside it (its first line above theirs, its second below, both within the
 * first column) is one row with them.
 */
function overlappingRows(lines: readonly Line[], first: Column): Line[][] {
  const rows: Line[][] = [];
  const labelOnly = (line: Line) => line.segments.length === 1 && line.x0 >= first.x0 - 1 && line.x1 <= first.x1 + 1;
  for (const line of lines) {
    const row = rows.at(-1);
    const overlaps = row !== undefined && line.y0 < Math.max(...row.map((other) => other.y1));
    if (row && overlaps && (labelOnly(line) || row.every(labelOnly))) row.push(line);
    else rows.push([line]);
  }
  return rows;
}

/** The largest share of lines in which the segment at one position ends with a colon (`Name:`). */
function keyColumnShare(lines: readonly Line[]): number {
  const counts = new Map<number, number>();
  for (const line of lines) {
    line.segments.forEach((segment, position) => {
      if (segment.text.trim().endsWith(':')) counts.set(position, (counts.get(position) ?? 0) + 1);
    });
  }
  return Math.max(0, ...counts.values()) / lines.length;
}

/**
 * Header lines right above the body, top to bottom: lines in about the body's type size whose
 * segments each head one column or a run of neighbouring columns (a grouped header such as
 * "Public" centred over "PK–8" and "9–12"). The body's own first lines are taken too when they
 * are sparse and group the columns below them: growBlock takes such a line when it happens to fit.
 */
function headerLinesAbove(lines: readonly Line[], body: Block, claimedUntil: number, rules: readonly Rule[]): { headers: CellSpan[][]; bodyStart: number } {
  const bodyHeight = lineHeight(lines[body.start]!);
  let bodyStart = body.start;
  const minimumBody = 2;
  while (bodyStart < body.end - minimumBody && 2 * lines[bodyStart]!.segments.length < body.columns.length) {
    const spans = headerSpans(lines[bodyStart]!, body.columns, rules);
    if (!spans || !spans.some((cell) => cell.colSpan > 1)) break;
    bodyStart++;
  }
  const headers: CellSpan[][] = [];
  const x0 = body.columns[0]!.x0;
  const x1 = body.columns[body.columns.length - 1]!.x1;
  const acrossBetween = (upper: Line, lower: Line) =>
    rules.some((rule) => rule.x0 <= x0 + 2 && rule.x1 >= x1 - 2 && rule.y0 >= upper.y1 - 1 && rule.y1 <= lower.y0 + 1);
  for (let i = bodyStart - 1; i >= claimedUntil && headers.length < MAX_HEADER_BLOCK_LINES; i--) {
    const line = lines[i]!;
    const below = lines[i + 1]!;
    // A rule across the table above its headings is its top rule: what lies above is a caption.
    if (headers.length > 0 && acrossBetween(line, below)) break;
    if (i < body.start) {
      if (!closeEnough(line, below, rules)) break;
      if (Math.abs(lineHeight(line) - bodyHeight) > 0.25 * bodyHeight) break;
    }
    const spans = headerSpans(line, body.columns, rules) ?? wrappedHeadingTop(line, lines.slice(i + 1, bodyStart + 1), body.columns);
    if (!spans) break;
    headers.unshift(spans);
  }
  return { headers, bodyStart };
}

/**
 * The header cells of one line over the columns, or undefined if the line does not fit them. A
 * segment heads the columns it overlaps or, when it is centred over a wider run of columns, that
 * run. Neighbouring runs of equal spacing are equally centred under a segment, so the runs are
 * chosen together: the segments' runs leave no column between two of them unheaded, lie as
 * close to the segments' middles as they can, and cover as many columns as that allows. A line
 * starting with a caption's label ("Table 2: ...") is the caption, not a header.
 */
function headerSpans(line: Line, columns: readonly Column[], rules: readonly Rule[]): CellSpan[] | undefined {
  const segments = line.segments;
  if (segments.length === 0 || hasLeaderDots(line) || CAPTION_LABEL.test(segments[0]!.text.trim())) return undefined;
  // Beside a heading that starts in capitals, a heading of a few words in lower case ("no working
  // smoke alarm") is one too: prose cut into columns leaves no capitalised label beside it.
  const capitalised = segments.some((segment) => /^[\p{Lu}\p{N}]/u.test(segment.text.trim()) && isHeaderText(segment.text));
  if (segments.some((segment) => !isHeaderText(segment.text, segments.length > 1 && capitalised))) return undefined;
  const overlapped = segments.map((segment) => columns.map((column, i) => (segment.x0 < column.x1 && segment.x1 > column.x0 ? i : -1)).filter((i) => i >= 0));
  const tolerance = CENTRED_HEADER_SLACK * lineHeight(line);
  const candidates = segments.map((segment, k) => {
    const spanned = spannedColumns(segment, segments, columns, rules);
    return spanned ? [{ ...spanned, offCentre: 0 }] : spanCandidates(segment, k, overlapped, columns, tolerance, segments.length > 1);
  });
  if (candidates.some((list) => list.length === 0)) return undefined;
  const covered = bestSpans(candidates, tolerance);
  if (!covered) return undefined;
  if (segments.length === 1 && !headsGroup(segments[0]!, covered[0]!, columns, tolerance)) return undefined;
  const cells: CellSpan[] = [];
  let col = 0;
  for (const { first, last } of covered) {
    for (; col < first; col++) cells.push({ row: 0, col, rowSpan: 1, colSpan: 1 });
    cells.push({ row: 0, col: first, rowSpan: 1, colSpan: last - first + 1 });
    col = last + 1;
  }
  for (; col < columns.length; col++) cells.push({ row: 0, col, rowSpan: 1, colSpan: 1 });
  return cells;
}

/**
 * The cells of a header line whose lone segment lies within the slot of one column right of the
 * first, over header lines with text in that column (`under`, down to the body's first): a line of
 * that column's heading, wrapped ("all listed" over "homes in area") and set higher than its
 * neighbours' headings. Over the first column it may as well be a title.
 */
function wrappedHeadingTop(line: Line, under: readonly Line[], columns: readonly Column[]): CellSpan[] | undefined {
  const segment = line.segments[0];
  if (line.segments.length !== 1 || !segment || !isHeaderText(segment.text) || CAPTION_LABEL.test(segment.text.trim())) return undefined;
  const col = columns.findIndex((_, i) => withinSlot(segment, columns, i));
  const column = columns[col];
  if (col <= 0 || !column || !under.some((below) => below.segments.some((other) => other.x0 < column.x1 && other.x1 > column.x0))) return undefined;
  return plainCells(1, columns.length);
}

/** The segment lies inside column `i`'s slot: the column and the near halves of the gaps beside it. */
function withinSlot(segment: Segment, columns: readonly Column[], i: number): boolean {
  const column = columns[i]!;
  const previous = columns[i - 1];
  const next = columns[i + 1];
  const left = previous ? (previous.x1 + column.x0) / 2 : column.x0;
  const right = next ? (column.x1 + next.x0) / 2 : column.x1;
  return segment.x0 >= left && segment.x1 <= right;
}

/**
 * Whether a line's lone segment heads the run of columns it was given as a group: not when the run
 * is one column (the line is a lone cell), every column (a caption centred over the table) or when
 * the segment is set left, starting at or before the first column, across several (a caption or
 * note set flush left above the table, as a paragraph is, however near the middle of a few
 * columns it happens to end).
 */
function headsGroup(segment: Segment, run: { first: number; last: number }, columns: readonly Column[], tolerance: number): boolean {
  if (run.first === run.last || (run.first === 0 && run.last === columns.length - 1)) return false;
  return !(run.first === 0 && segment.x0 <= columns[0]!.x0 + tolerance);
}

/** A label: short, holding a letter, figure or unit, not a run of words in lower case (a line of prose). */
function isHeaderText(text: string, lowercaseWordsAllowed = false): boolean {
  const trimmed = text.trim();
  const words = trimmed.split(/\s+/u);
  // A unit alone ("(%)", "$") heads a column as well as a word does.
  return trimmed.length <= MAX_GROUP_LABEL_CHARS && /[\p{L}\p{N}%$€£¥]/u.test(trimmed) && (lowercaseWordsAllowed || !(words.length >= PROSE_WORDS && /^\p{Ll}/u.test(trimmed)));
}

interface SpanCandidate {
  first: number;
  last: number;
  /** How far (points) the run's middle lies from the segment's. */
  offCentre: number;
}

/**
 * The runs of columns segment `k` may head: those taking in every column it overlaps and none
 * another segment overlaps, reaching under it, centred on it within `tolerance`; and, unless the
 * segment stands alone on its line, the columns it overlaps however centred.
 */
function spanCandidates(segment: Segment, k: number, overlapped: readonly number[][], columns: readonly Column[], tolerance: number, overlapCounts: boolean): SpanCandidate[] {
  const hit = overlapped[k]!;
  const before = overlapped.slice(0, k).flat();
  const after = overlapped.slice(k + 1).flat();
  const lowest = before.length > 0 ? Math.max(...before) + 1 : 0;
  const highest = after.length > 0 ? Math.min(...after) - 1 : columns.length - 1;
  if (hit.length > 0 && (hit[0]! < lowest || hit[hit.length - 1]! > highest)) return [];
  const centre = (segment.x0 + segment.x1) / 2;
  // Headers are centred over the cells' boxes, which reach halfway into the gaps beside the columns.
  const halfGap = (i: number) => (i <= 0 || i >= columns.length ? undefined : (columns[i]!.x0 - columns[i - 1]!.x1) / 2);
  const left = (i: number) => columns[i]!.x0 - (halfGap(i) ?? halfGap(i + 1) ?? 0);
  const right = (i: number) => columns[i]!.x1 + (halfGap(i + 1) ?? halfGap(i) ?? 0);
  const offCentre = (first: number, last: number) => Math.abs((left(first) + right(last)) / 2 - centre);
  const found: SpanCandidate[] = [];
  for (let first = lowest; first <= (hit[0] ?? highest); first++) {
    for (let last = Math.max(first, hit[hit.length - 1] ?? first); last <= highest; last++) {
      if (columns[first]!.x0 >= segment.x1 || columns[last]!.x1 <= segment.x0) continue;
      const off = offCentre(first, last);
      const isOverlap = first === hit[0] && last === hit[hit.length - 1];
      if (off <= tolerance || (isOverlap && overlapCounts)) found.push({ first, last, offCentre: off });
    }
  }
  return found;
}

/**
 * One run per segment, left to right and apart: fewest columns left unheaded between two runs,
 * then least off-centre in all, then most columns covered.
 */
function bestSpans(candidates: readonly SpanCandidate[][], tolerance: number): { first: number; last: number }[] | undefined {
  const gapCost = 10 * tolerance;
  const columnReward = 0.05 * tolerance;
  let paths: { spans: SpanCandidate[]; cost: number }[] = candidates[0]!.map((c) => ({ spans: [c], cost: c.offCentre - columnReward * (c.last - c.first + 1) }));
  for (const list of candidates.slice(1)) {
    const next: { spans: SpanCandidate[]; cost: number }[] = [];
    for (const candidate of list) {
      let best: { spans: SpanCandidate[]; cost: number } | undefined;
      for (const path of paths) {
        const previous = path.spans[path.spans.length - 1]!;
        if (candidate.first <= previous.last) continue;
        const cost = path.cost + gapCost * (candidate.first - previous.last - 1) + candidate.offCentre - columnReward * (candidate.last - candidate.first + 1);
        if (!best || cost < best.cost) best = { spans: [...path.spans, candidate], cost };
      }
      if (best) next.push(best);
    }
    paths = next;
  }
  const winner = paths.reduce<{ spans: SpanCandidate[]; cost: number } | undefined>((best, path) => (!best || path.cost < best.cost ? path : best), undefined);
  return winner?.spans.map(({ first, last }) => ({ first, last }));
}

/**
 * The body's lines as rows, one line each, except that the lines above a rule drawn across the
 * whole table under its first lines (booktabs' midrule) are one header row whose cells wrapped,
 * and that where rules are drawn between most rows, the lines between two rules are one row.
 */
function bodyRows(lines: readonly Line[], rules: readonly Rule[], columns: readonly Column[]): Line[][] {
  const x0 = Math.min(...lines.map((line) => line.x0));
  const x1 = Math.max(...lines.map((line) => line.x1));
  const across = rules.filter((rule) => rule.x0 <= x0 + 2 && rule.x1 >= x1 - 2);
  const ruleBelow = (i: number) => across.some((rule) => rule.y0 >= lines[i]!.y1 - 1 && rule.y1 <= lines[i + 1]!.y0 + 1);
  // Rules drawn between most rows part the rows: the lines between two rules are one row, wrapped,
  // unless blank space parts them too, or none of them is wrapped.
  const ruled = lines.slice(0, -1).map((_, i) => ruleBelow(i));
  if (ruled.filter(Boolean).length >= Math.max(2, RULED_ROWS_SHARE * ruled.length)) {
    const rows: Line[][] = [[]];
    lines.forEach((line, i) => {
      rows[rows.length - 1]!.push(line);
      const next = lines[i + 1];
      if (next && (ruled[i] || next.y0 - line.y1 > BLANK_LINE * lineHeight(line))) rows.push([]);
    });
    return rows.flatMap((row) => unwrappedRows(row, columns));
  }
  const last = Math.min(MAX_WRAPPED_HEADER_LINES, lines.length - 2);
  for (let i = 1; i < last; i++) {
    if (ruleBelow(i - 1)) break;
    if (ruleBelow(i)) return [lines.slice(0, i + 1), ...lines.slice(i + 1).map((line) => [line])];
  }
  return lines.map((line) => [line]);
}

/**
 * A row label that wrapped onto two lines leaves lines with text only in the first column beside
 * a line with the row's values and an empty first column (cells centred vertically), or under
 * the full line (a continuation starting in lower case). Such lines, set tight to each other,
 * are one row. A label line ending in a colon heads the rows below it and stays a row. In two
 * columns of labels beside phrases (`phrased`), a label and its phrase may also wrap at once.
 */
function mergeWrappedCells(rows: Line[][], columns: readonly Column[], phrased: boolean): Line[][] {
  if (columns.length < 2) return rows;
  const split = columns[1]!.x0;
  const labelOnly = (row: readonly Line[]) => row.every((line) => line.segments.every((s) => s.x1 <= split));
  const valuesOnly = (row: readonly Line[]) => row.every((line) => line.segments.every((s) => s.x0 >= split));
  const firstText = (row: readonly Line[]) => row[0]!.segments[0]!.text.trim();
  const lastText = (row: readonly Line[]) => row[row.length - 1]!.segments.at(-1)!.text.trim();
  const tight = (upper: readonly Line[], lower: readonly Line[]) => lower[0]!.y0 - upper[upper.length - 1]!.y1 <= 0.5 * lineHeight(upper[upper.length - 1]!);
  const pitch = rowPitch(rows);
  // A label's second line is set closer under its row than rows are to each other, at its indent or deeper.
  const wrapsLabel = (upper: readonly Line[], lower: readonly Line[]) =>
    !labelOnly(upper) &&
    lower[0]!.y0 - upper[upper.length - 1]!.y0 < WRAPPED_LINE_PITCH * pitch &&
    lower[0]!.segments[0]!.x0 >= upper[0]!.segments[0]!.x0 - 1;
  const merged: Line[][] = [];
  for (const row of rows) {
    const previous = merged.at(-1);
    const joinsPrevious =
      previous !== undefined &&
      tight(previous, row) &&
      ((valuesOnly(row) && labelOnly(previous) && !/:$/.test(lastText(previous))) ||
        (labelOnly(row) && (/^\p{Ll}/u.test(firstText(row)) || wrapsLabel(previous, row))) ||
        continuesCell(previous, row) ||
        (phrased && continuesEveryCell(previous, row)));
    if (joinsPrevious) {
      merged[merged.length - 1] = [...previous, ...row];
      continue;
    }
    merged.push([...row]);
  }
  return merged;
}

/** A lone piece in lowercase set tight under the row above, at the left edge of one of its cells but the first: that cell's wrapped text. */
function continuesCell(upper: readonly Line[], lower: readonly Line[]): boolean {
  const line = lower[0]!;
  const above = upper[upper.length - 1]!;
  if (lower.length !== 1 || line.segments.length !== 1 || line.y0 - above.y1 > 0.5 * lineHeight(above)) return false;
  const piece = line.segments[0]!;
  return /^\p{Ll}/u.test(piece.text.trim()) && upper.some((upperLine) => upperLine.segments.slice(1).some((segment) => Math.abs(segment.x0 - piece.x0) <= 2));
}

/**
 * A line whose every piece goes on in lowercase, set tight under the row above with a piece under
 * each of that row's cells: the row's label and phrase wrapped at once.
 */
function continuesEveryCell(upper: readonly Line[], lower: readonly Line[]): boolean {
  const line = lower[0]!;
  const above = upper[upper.length - 1]!;
  if (lower.length !== 1 || line.segments.length < 2 || line.segments.length !== above.segments.length || line.y0 - above.y1 > 0.5 * lineHeight(above)) return false;
  return line.segments.every((piece, i) => /^\p{Ll}/u.test(piece.text.trim()) && piece.x0 < above.segments[i]!.x1 && piece.x1 > above.segments[i]!.x0);
}

/** `dataFirst`: the body's first row is data, not the header's last row. */
function tableOf(rows: readonly (readonly Line[])[], columns: readonly Column[], headers: readonly CellSpan[][], dataFirst = false): AlignedTable {
  const top = (row: readonly Line[]) => row[0]!.y0;
  const bottom = (row: readonly Line[]) => row[row.length - 1]!.y1;
  const xs = [columns[0]!.x0, ...columns.slice(1).map((c, i) => (columns[i]!.x1 + c.x0) / 2), columns[columns.length - 1]!.x1];
  const ys = [top(rows[0]!), ...rows.slice(1).map((row, i) => (bottom(rows[i]!) + top(row)) / 2), bottom(rows[rows.length - 1]!)];
  const headerCells = headers.flatMap((cells, row) => cells.map((cell) => ({ ...cell, row })));
  // A group label reaching past the first column's edge spans the row, so that it is not cut in two.
  const spansRow = (row: readonly Line[]) => row.length === 1 && row[0]!.segments.length === 1 && row[0]!.segments[0]!.x1 > xs[1]!;
  const bodyCells = rows.slice(headers.length).flatMap((row, i) => {
    const at = i + headers.length;
    if (spansRow(row)) return [{ row: at, col: 0, rowSpan: 1, colSpan: columns.length }];
    return plainCells(1, columns.length).map((cell) => ({ ...cell, row: at }));
  });
  return {
    layout: { xs, ys, cells: [...headerCells, ...bodyCells], headerRows: headers.length + (dataFirst ? 0 : 1) },
    box: { x0: xs[0]!, y0: ys[0]!, x1: xs[xs.length - 1]!, y1: ys[ys.length - 1]! },
    // A run split into amounts lies in several segments; it is taken, and written, once.
    runIndices: [...new Set(rows.flatMap((row) => row.flatMap((line) => [...line.segments.flatMap((s) => s.runIndices), ...line.signIndices])))],
    cellRunIndices: [...new Set(rows.flatMap((row) => row.flatMap((line) => line.segments.flatMap((s) => s.runIndices))))],
  };
}

function centreY(box: Box): number {
  return (box.y0 + box.y1) / 2;
}

function lineHeight(box: Box): number {
  return Math.max(box.y1 - box.y0, 1);
}

/**
 * Header lines whose headings wrapped: a header line set closer above the row under it than rows
 * are to each other, each of its segments over one column that the row below heads too ("total
 * occupied" over "housing units"), is the top line of that row's cells, not a row of its own.
 */
function foldWrappedHeadings(rows: readonly Line[][], headers: readonly CellSpan[][], columns: readonly Column[]): { rows: Line[][]; headers: CellSpan[][] } {
  const folded = rows.map((row) => [...row]);
  const kept = [...headers];
  const pitch = rowPitch(rows.slice(headers.length));
  const columnsOf = (segment: Segment) => columns.filter((column) => segment.x0 < column.x1 && segment.x1 > column.x0);
  for (let i = headers.length - 1; i >= 0; i--) {
    const upper = folded[i]!;
    const lower = folded[i + 1]!;
    if (upper.length !== 1 || lower[0]!.y0 - upper[0]!.y0 >= WRAPPED_LINE_PITCH * pitch) continue;
    const wraps = upper[0]!.segments.every((segment) => {
      const under = columnsOf(segment);
      return under.length === 1 && lower[0]!.segments.some((below) => columnsOf(below).includes(under[0]!));
    });
    if (!wraps) continue;
    folded.splice(i, 2, [...upper, ...lower]);
    kept.splice(i, 1);
  }
  return { rows: folded, headers: kept };
}

/** The usual distance between the tops of one row and the next (their median). */
function rowPitch(rows: readonly (readonly Line[])[]): number {
  const steps = rows.slice(1).map((row, i) => row[0]!.y0 - rows[i]![rows[i]!.length - 1]!.y0).sort((a, b) => a - b);
  return steps.length > 0 ? steps[steps.length >> 1]! : Infinity;
}
