/**
 * OCR lines -> Markdown blocks, through the text engine's own layout: each word becomes a text
 * run in PDF points, and rows, columns, paragraphs, headings, lists and tables come from the same
 * code that lays out a born-digital page.
 */

import type { Block } from '../../../shared/page.js';
import type { TextRun } from '../layout/geometry.js';
import { fontStatistics, sizeKey } from '../layout/headings.js';
import { buildFragments } from '../layout/lines.js';
import { layoutPage, type DraftBlock, type PageElement } from '../layout/page-layout.js';
import { bandLinesOf, runningBlocks, runningLines } from '../layout/running-lines.js';
import type { BandLine } from '../layout/running-text.js';
import { detectTables } from '../layout/tables.js';
import { ocrWords } from './ocr-words.js';
import { isSureLine, isUnsure, readingConfidence } from './reading-confidence.js';
import type { RecognisedLine } from './text-recognition.js';

export interface OcrPage {
  /** Page size in points. */
  width: number;
  height: number;
  /** Points per image pixel. */
  scale: number;
  lines: readonly RecognisedLine[];
}

/** A text line's box is about this many times the font size (line box with DB's expansion). */
const THICKNESS_PER_EM = 1.3;
/** Line sizes within this ratio of each other are one size (see snapSizes). */
const SAME_SIZE = 1.25;
/**
 * Type is set in steady sizes when the middle half of a page's line heights lie within this ratio
 * (upper quartile over lower). Measured: printed scans, italics and dense pages with captions and
 * tables 1.02-1.22; handwriting-like scribbles 1.69-2.01, where a line's height tells nothing.
 */
const STEADY_TYPE = 1.4;

/**
 * `neighbours`: the band lines of the pages around this one (ocrBandLines, or a text page's), by
 * which running headers and footers are told from the page's own text; without them, only lone
 * page numbers are.
 */
export function ocrBlocks(page: OcrPage, keepHeaders = false, neighbours: readonly (readonly BandLine[])[] = []): Block[] {
  const skew = pageSkew(page.lines);
  const runs = ocrRuns(page, skew);
  const fragments = buildFragments(runs);
  const running = runningLines(fragments, neighbours, page.height);
  const body = new Set(fragments.filter((f) => !running.has(f)).flatMap((f) => f.runs));
  const bodyRuns = runs.filter((r) => body.has(r));
  const tables = detectTables(bodyRuns, [], page);
  const taken = new Set(tables.flatMap((t) => t.runIndices));
  const free = bodyRuns.filter((_, i) => !taken.has(i));
  const elements: PageElement[] = [
    ...buildFragments(free).map((line) => ({ ...line, kind: 'text' as const })),
    ...tables.map((t) => ({ ...t.box, kind: 'table' as const, markdown: t.markdown })),
  ];
  const drafts = [
    ...runningBlocks(running, 'top', keepHeaders),
    ...layoutPage(elements, statistics(bodyRuns)),
    ...runningBlocks(running, 'bottom', keepHeaders),
  ];
  return drafts.map((draft) => toBlock(draft, page, skew));
}

/** The page's top and bottom band lines, laid out as ocrBlocks lays them out, for its neighbours. */
export function ocrBandLines(page: OcrPage): BandLine[] {
  return bandLinesOf(buildFragments(ocrRuns(page, pageSkew(page.lines))), page.height);
}

/** The median line angle: a scan is turned as a whole, and its lines agree to a fraction of a degree. */
export function pageSkew(lines: readonly RecognisedLine[]): number {
  const angles = lines.map((l) => l.box.angle).sort((a, b) => a - b);
  return angles[Math.floor(angles.length / 2)] ?? 0;
}

/**
 * Each word as a text run, in points, on the page turned upright by `skew` (about its centre): the
 * layout groups rows by vertical overlap, and on a page turned by a degree the two ends of a long
 * line sit a line apart.
 */
export function ocrRuns(page: OcrPage, skew = 0): TextRun[] {
  const raw = page.lines.map((line) => (line.box.thickness * page.scale) / THICKNESS_PER_EM);
  // Size makes headings only on steady type read surely: a guessed line's height is a scrawl's, not type's.
  const sizeTells = isSteady(raw) && !isUnsure(readingConfidence(page.lines));
  const sizes = snapSizes(raw, page.lines.map((line) => sizeTells && isSureLine(line)));
  const upright = turn(-skew, page.width / 2, page.height / 2);
  const runs: TextRun[] = [];
  page.lines.forEach((line, i) => {
    const { box } = line;
    const [cx, cy] = upright(box.cx * page.scale, box.cy * page.scale);
    const slope = Math.tan(box.angle - skew);
    const length = box.length * page.scale;
    // Runs are as tall as the type (its snapped size), not the detector's padded box, so lines in
    // neighbouring columns do not overlap into one row.
    const half = sizes[i]! * 0.55;
    const words = ocrWords(line.chars, line.blanks, box.thickness);
    words.forEach((word, w) => {
      const u0 = word.u0 * page.scale - length / 2;
      const u1 = word.u1 * page.scale - length / 2;
      const y = cy + ((u0 + u1) / 2) * slope;
      runs.push({
        // The recogniser's own word break travels as a trailing space, as pdf.js gives them.
        text: w < words.length - 1 ? `${word.text} ` : word.text,
        x0: cx + u0,
        y0: y - half,
        x1: cx + u1,
        y1: y + half,
        fontSize: sizes[i]!,
        fontName: 'OCR',
        bold: false,
        italic: false,
        monospace: false,
      });
    });
  });
  return runs;
}

function turn(angle: number, ox: number, oy: number): (x: number, y: number) => [number, number] {
  const cos = Math.cos(angle);
  const sin = Math.sin(angle);
  return (x, y) => [ox + (x - ox) * cos - (y - oy) * sin, oy + (x - ox) * sin + (y - oy) * cos];
}

/**
 * Sizes snapped: everything near the page's median (body text) takes the median, and larger sizes
 * cluster among themselves (sorted, split where one is SAME_SIZE larger than its cluster's first),
 * each cluster taking its median. A line's box grows with ascenders and descenders, so raw sizes
 * jitter by a fifth; only clearly larger type becomes a heading, and only a line `mayBeLarger`
 * allows (read surely, on a page of steady type) is set larger than the body at all.
 */
function snapSizes(sizes: readonly number[], mayBeLarger: readonly boolean[]): number[] {
  const order = sizes.map((_, i) => i).sort((a, b) => sizes[a]! - sizes[b]!);
  const body = sizes[order[Math.floor(order.length / 2)]!] ?? 0;
  const out = new Array<number>(sizes.length);
  let group: number[] = [];
  const flush = () => {
    const median = sizeKey(sizes[group[Math.floor(group.length / 2)]!]!);
    for (const i of group) out[i] = median;
    group = [];
  };
  for (const i of order) {
    if (sizes[i]! <= body * SAME_SIZE || !mayBeLarger[i]) {
      out[i] = sizeKey(body);
      continue;
    }
    if (group.length > 0 && sizes[i]! > sizes[group[0]!]! * SAME_SIZE) flush();
    group.push(i);
  }
  if (group.length > 0) flush();
  return out;
}

function isSteady(sizes: readonly number[]): boolean {
  const sorted = [...sizes].sort((a, b) => a - b);
  const quartile = (p: number) => sorted[Math.floor((sorted.length - 1) * p)]!;
  return sorted.length < 4 || quartile(0.75) <= quartile(0.25) * STEADY_TYPE;
}

function statistics(runs: readonly TextRun[]) {
  const charsBySize = new Map<number, number>();
  for (const run of runs) charsBySize.set(run.fontSize, (charsBySize.get(run.fontSize) ?? 0) + run.text.length);
  return fontStatistics(charsBySize, [...charsBySize.keys()]);
}

/** A block's box turned back onto the scanned page, where the UI draws it. */
function toBlock(draft: DraftBlock, page: OcrPage, skew: number): Block {
  const back = turn(skew, page.width / 2, page.height / 2);
  const { x0, y0, x1, y1 } = draft.box;
  const corners = [back(x0, y0), back(x1, y0), back(x0, y1), back(x1, y1)];
  const round = (v: number) => Math.round(v * 100) / 100;
  const xs = corners.map(([x]) => x);
  const ys = corners.map(([, y]) => y);
  const bbox = [
    round(Math.max(0, Math.min(...xs))),
    round(Math.max(0, Math.min(...ys))),
    round(Math.min(page.width, Math.max(...xs))),
    round(Math.min(page.height, Math.max(...ys))),
  ] as const;
  const block: Block = { kind: draft.kind, bbox, markdown: draft.markdown };
  if (draft.level !== undefined) block.level = draft.level;
  return block;
}
