/**
 * Running headers and footers among a page's laid-out lines, for every engine that has lines: the
 * text engine's (from the text layer) and lite's (from OCR). The lines in the top and bottom bands
 * are compared with the neighbours' band lines (running-text.ts) and come back as header and footer
 * blocks, whose Markdown is empty unless they are kept, so the UI still sees where they were.
 */

import { escapeMarkdownText } from '../../../shared/markdown-escape.js';
import { escapeBlockStart, lineText } from './inline-markdown.js';
import { dominantFontSize, type Line } from './lines.js';
import { marginLineNumbers } from './margin-line-numbers.js';
import type { DraftBlock } from './page-layout.js';
import {
  bandOf,
  contentExtent,
  isMarginText,
  isPageNumber,
  isStampText,
  runningText,
  sameRow,
  toBandLine,
  type Band,
  type BandCandidate,
  type BandLine,
  type CandidateFacts,
  type RunningPlace,
} from './running-text.js';

/** How many pages on each side are compared for running headers and footers. */
export const NEIGHBOUR_PAGES = 2;

/** The lines in the page's top and bottom bands, with their text. */
export function bandCandidates(lines: readonly Line[], pageHeight: number): BandCandidate<Line>[] {
  const candidates: BandCandidate<Line>[] = [];
  const content = contentExtent(lines);
  for (const line of lines) {
    const band = bandOf(line, pageHeight, content);
    if (band) candidates.push({ item: line, text: lineText(line), band });
  }
  return candidates;
}

/** The signatures a neighbour compares its own band lines with. */
export function bandLinesOf(lines: readonly Line[], pageHeight: number): BandLine[] {
  return bandCandidates(lines, pageHeight).map((c) => toBandLine(c.text, c.item, c.band));
}

/** A line this close (baseline pitch in its font sizes) to the next, in the same size, is the same text. */
const BODY_PITCH = 1.8;
/** Smaller than the body by this factor: a banner's or running head's size. */
const SMALLER = 0.9;

/** A line's height in its font sizes, at most, for measuring blank space in lines. */
const LINE_HEIGHT = 1.25;

/** Running text is a small part of a page; more than this share of its characters is its body. */
const RUNNING_SHARE = 0.5;

/**
 * The page's running lines and the band each is in, and its margin line numbers ('side'). Running
 * heads and footers are a small part of a page's text: where the lines found carry most of it, the
 * page is one of a template-made document (a mail merge, certificates, invoices) whose neighbours
 * repeat its body, digits aside, and only page numbers and margin matter are taken. A page's only
 * text is never taken unless it is all download stamps and page counts.
 */
export function runningLines(lines: readonly Line[], neighbours: readonly (readonly BandLine[])[], pageHeight: number): Map<Line, RunningPlace> {
  const result = new Map<Line, RunningPlace>();
  const numbering = marginLineNumbers(lines);
  for (const line of numbering) result.set(line, 'side');
  const text = numbering.size === 0 ? lines : lines.filter((line) => !numbering.has(line));
  const candidates = bandCandidates(text, pageHeight);
  if (candidates.length === 0) return result;
  let running = [...runningText(candidates, neighbours, pageHeight, candidateFacts(text, pageHeight))];
  const pageChars = characters(text);
  if (characters(running) > RUNNING_SHARE * pageChars) {
    running = running.filter((line) => isPageNumber(lineText(line)) || isMarginText(lineText(line)));
  }
  // a page's only text stays, unless all of it is stamps (a download stamp, 'Page 1 of 1')
  if (characters(running) >= pageChars && !running.every((line) => isStampText(lineText(line)))) return result;
  for (const line of running) result.set(line, candidates.find((c) => c.item === line)!.band);
  return result;
}

function characters(lines: readonly Line[]): number {
  return lines.reduce((n, line) => n + lineText(line).replace(/\s+/g, '').length, 0);
}

/**
 * Per candidate: whether it continues the body (the next line towards the page's middle, in the
 * same column, is set in the same size at line spacing, and is body or continues it), and whether
 * it is set smaller than the page's body text.
 */
function candidateFacts(lines: readonly Line[], pageHeight: number): (candidate: BandCandidate<Line>) => CandidateFacts {
  // The body is the page's prose: a manual's listings, in a smaller monospace, may outweigh its sentences.
  const runs = lines.flatMap((l) => l.runs);
  const prose = runs.filter((run) => !run.monospace);
  const bodySize = dominantFontSize(prose.length > 0 ? prose : runs);
  const content = contentExtent(lines);
  const continues = new Map<Line, boolean>();
  const leadsInward = (line: Line, band: Band): boolean => {
    const inward = paragraphNext(lines, line, band);
    return inward !== undefined && (bandOf(inward, pageHeight, content) !== band || continuesBody(inward, band));
  };
  // A row continues the body when one of its lines does: a table's column headings, repeated on
  // each page of a long table, are one row, and only some of them sit over a line at body spacing
  // (the row label's heading over the first group label; the figures' headings further up).
  const continuesBody = (line: Line, band: Band): boolean => {
    const known = continues.get(line);
    if (known !== undefined) return known;
    continues.set(line, false);
    const mates = lines.filter((other) => other !== line && sameRow(other, line) && Math.abs(other.fontSize - line.fontSize) <= 0.1 * line.fontSize);
    const result = leadsInward(line, band) || mates.some((mate) => leadsInward(mate, band));
    continues.set(line, result);
    return result;
  };
  return (candidate) => ({
    continuesBody: continuesBody(candidate.item, candidate.band),
    // a listing's line is small beside the prose but no banner
    smallerThanBody: candidate.item.fontSize <= bodySize * SMALLER && !candidate.item.runs.every((run) => run.monospace),
    largerThanBody: candidate.item.fontSize >= bodySize / SMALLER,
    gapInward: gapInward(lines, candidate.item, candidate.band),
    wrapsInto: paragraphNext(lines, candidate.item, candidate.band),
  });
}

/** The next line towards the page's middle when it is of the line's paragraph: its size, at line spacing, aligned with it. */
function paragraphNext(lines: readonly Line[], line: Line, band: Band): Line | undefined {
  const inward = nextInward(lines, line, band);
  const same =
    inward !== undefined &&
    Math.abs(inward.fontSize - line.fontSize) <= 0.1 * line.fontSize &&
    Math.abs(inward.y0 - line.y0) <= BODY_PITCH * line.fontSize &&
    alignedWith(line, inward);
  return same ? inward : undefined;
}

/**
 * Blank space between the line and the nearest line towards the page's middle, wherever across, in
 * the line's heights: its box's, or a line's of its size where the box is taller (a link's area or
 * a tall glyph beside a footer's text).
 */
function gapInward(lines: readonly Line[], line: Line, band: Band): number {
  const height = Math.max(Math.min(line.y1 - line.y0, LINE_HEIGHT * line.fontSize), 1);
  let gap = Infinity;
  for (const other of lines) {
    if (other === line || sameRow(other, line)) continue;
    if (band === 'top' && other.y0 > line.y0) gap = Math.min(gap, other.y0 - line.y1);
    if (band === 'bottom' && other.y1 < line.y1) gap = Math.min(gap, line.y0 - other.y1);
  }
  return gap / height;
}

/**
 * A line of the same text block as the line next to it: sharing its left or right edge, or
 * spanning half its width. A page number centred under a paragraph shares neither.
 */
function alignedWith(line: Line, other: Line): boolean {
  const tolerance = 1.5 * line.fontSize;
  return (
    Math.abs(line.x0 - other.x0) <= tolerance || Math.abs(line.x1 - other.x1) <= tolerance || line.x1 - line.x0 >= 0.5 * (other.x1 - other.x0)
  );
}

/** The nearest line below (top band) or above (bottom band) that shares some of the line's width. */
function nextInward(lines: readonly Line[], line: Line, band: Band): Line | undefined {
  let best: Line | undefined;
  for (const other of lines) {
    if (other === line || Math.min(other.x1, line.x1) <= Math.max(other.x0, line.x0)) continue;
    const inward = band === 'top' ? other.y0 > line.y0 + 0.5 * (line.y1 - line.y0) : other.y1 < line.y1 - 0.5 * (line.y1 - line.y0);
    if (!inward) continue;
    if (!best || (band === 'top' ? other.y0 < best.y0 : other.y1 > best.y1)) best = other;
  }
  return best;
}

export function runningBlocks(running: ReadonlyMap<Line, RunningPlace>, band: Band, keep: boolean): DraftBlock[] {
  const lines = [...running].filter(([, b]) => b === band).map(([line]) => line);
  return inRows(lines).map((line) => ({
    kind: band === 'top' ? ('header' as const) : ('footer' as const),
    box: line,
    markdown: keep ? escapeBlockStart(escapeMarkdownText(lineText(line))) : '',
  }));
}

/**
 * Top to bottom, and left to right along a row: OCR puts the two halves of one header a point or
 * two apart in height, which must not decide their order.
 */
function inRows(lines: readonly Line[]): Line[] {
  const rows: Line[][] = [];
  for (const line of [...lines].sort((a, b) => a.y0 - b.y0)) {
    const row = rows.at(-1);
    if (row && sameRow(row[0]!, line)) row.push(line);
    else rows.push([line]);
  }
  return rows.flatMap((row) => row.sort((a, b) => a.x0 - b.x0));
}
