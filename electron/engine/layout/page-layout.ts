/**
 * The page's elements (text fragments, tables, images) -> Markdown blocks in reading order:
 * columns first, then within each column paragraphs, headings, lists, code and captions.
 */

import type { BlockKind } from '../../../shared/page.js';
import { unionBox, type Box } from './geometry.js';
import { headingLevel, MAX_HEADING_LINES, sizeKey, type FontStatistics, type Outline } from './headings.js';
import { escapeBlockStart, renderInline, type InlineOptions } from './inline-markdown.js';
import { joinFragments, type Line } from './lines.js';
import { renderList, stripMarker, type ListItemDraft } from './lists.js';
import { columnMetrics, describeLine, splitParagraphs, type ColumnMetrics, type LineGroup, type LineInfo } from './paragraphs.js';
import { readingOrder } from './reading-order.js';

export type PageElement =
  | (Line & { kind: 'text' })
  | (Box & { kind: 'table'; markdown: string })
  | (Box & { kind: 'formula'; markdown: string })
  | (Box & { kind: 'image'; markdown: string });

export interface DraftBlock {
  kind: BlockKind;
  box: Box;
  markdown: string;
  level?: number;
  /** Text size of a paragraph, to tell footnotes from body text. */
  fontSize?: number;
}

const CAPTION = /^(figure|fig\.|table|tab\.|chart|listing|algorithm|scheme|plate)\s*[0-9IVX]+[a-z]?\s*[.:|]/i;
const HEADING_INLINE: InlineOptions = { codeSpans: false, emphasis: false };

/** `outline`: the document's numbered heading levels so far, updated as headings are met. */
export function layoutPage(elements: readonly PageElement[], stats: FontStatistics, outline: Outline = {}): DraftBlock[] {
  const em = stats.bodySize || 10;
  const blocks: DraftBlock[] = [];
  for (const leaf of readingOrder(elements, em)) {
    const column = layoutColumn(leaf, stats, outline);
    // Footnotes at the foot of a column sit between a paragraph and its continuation.
    let last = blocks.length - 1;
    while (last > 0 && isFootnote(blocks[last]!, em)) last--;
    const before = blocks[last];
    const first = column[0];
    if (before && first && continues(before, first)) {
      blocks[last] = joinParagraphs(before, first);
      column.shift();
    }
    blocks.push(...column);
  }
  return blocks;
}

function isFootnote(block: DraftBlock, em: number): boolean {
  return block.kind === 'paragraph' && block.fontSize !== undefined && block.fontSize < em * 0.9;
}

/** A paragraph cut by a column break: no sentence end before the break, a lower-case word after it. */
function continues(before: DraftBlock, after: DraftBlock): boolean {
  return (
    before.kind === 'paragraph' &&
    after.kind === 'paragraph' &&
    !/[.!?:;"”’)\]]$/.test(before.markdown) &&
    /^\p{Ll}/u.test(after.markdown)
  );
}

function joinParagraphs(before: DraftBlock, after: DraftBlock): DraftBlock {
  const hyphenated = /\p{L}-$/u.test(before.markdown);
  const markdown = hyphenated ? before.markdown.slice(0, -1) + after.markdown : `${before.markdown} ${after.markdown}`;
  return { ...before, box: unionBox([before.box, after.box]), markdown };
}

/** One leaf of the reading order: its text lines and any tables or images, top to bottom. */
function layoutColumn(leaf: readonly PageElement[], stats: FontStatistics, outline: Outline): DraftBlock[] {
  const fragments: Line[] = [];
  const others: DraftBlock[] = [];
  for (const element of leaf) {
    if (element.kind === 'text') fragments.push(element);
    else others.push({ kind: element.kind, box: element, markdown: element.markdown });
  }
  const lines = joinFragments(fragments).map(describeLine);
  const blocks: DraftBlock[] = [];
  let pending: LineInfo[] = [];
  const flush = () => {
    if (pending.length > 0) blocks.push(...textBlocks(pending, stats, outline));
    pending = [];
  };
  let o = 0;
  others.sort((a, b) => a.box.y0 - b.box.y0);
  for (const info of lines) {
    while (o < others.length && others[o]!.box.y0 < info.line.y0) {
      flush();
      blocks.push(others[o++]!);
    }
    pending.push(info);
  }
  flush();
  blocks.push(...others.slice(o));
  return blocks;
}

function textBlocks(lines: readonly LineInfo[], stats: FontStatistics, outline: Outline): DraftBlock[] {
  const metrics = columnMetrics(lines, stats.bodySize);
  const blocks: DraftBlock[] = [];
  const groups = splitParagraphs(lines, metrics);
  const wraps = groups.map((group) => wrapsInColumn(group, lines.length, metrics));
  // Plain text that runs on: a bold block that wraps (a long bold note) says nothing of the body's style.
  const prose = groups.map((group, i) => !group.item && boldShare(group) < 0.9 && (group.lines.length > MAX_HEADING_LINES || wraps[i]!));
  for (let i = 0; i < groups.length; i++) {
    const group = groups[i]!;
    // "1. Introduction" in bold on its own is a numbered heading, not a one-item list.
    const lone = group.item && group.lines.length === 1 && !groups[i + 1]?.item && !groups[i - 1]?.item;
    // A heading is set apart from the text beside it: a line set as the paragraph before or after it is text.
    const setAsProse = [i - 1, i + 1].some((k) => prose[k] === true && sameStyle(group, groups[k]!));
    const heading = (!group.item || lone) && !setAsProse && headingBlock(group, stats, outline, wraps[i]!);
    if (heading) {
      blocks.push(heading);
      continue;
    }
    if (group.item) {
      const items: LineGroup[] = [group];
      while (groups[i + 1]?.item) items.push(groups[++i]!);
      blocks.push(listBlock(items, metrics));
      continue;
    }
    if (isCode(group)) {
      const code: LineGroup[] = [group];
      while (groups[i + 1] && isCode(groups[i + 1]!)) code.push(groups[++i]!);
      blocks.push(codeBlock(code));
      continue;
    }
    blocks.push(textBlock(group));
  }
  return blocks;
}

function groupBox(groups: readonly LineGroup[]): Box {
  return unionBox(groups.flatMap((g) => g.lines.map((l) => l.line)));
}

/** Lines of a column this many besides a group's own measure its right edge. */
const MEASURE_LINES = 3;

/**
 * A line of the group runs to the column's right edge and the next goes on at its left (or left
 * of it, after a first-line indent): the group wraps as prose does. A centred title's shorter
 * second line starts right of the first; a column of only the group has no edge of its own to run to.
 */
function wrapsInColumn(group: LineGroup, columnLines: number, metrics: ColumnMetrics): boolean {
  if (columnLines - group.lines.length < MEASURE_LINES) return false;
  return group.lines.some((info, i) => {
    const next = group.lines[i + 1];
    return next !== undefined && info.line.x1 >= metrics.right - metrics.em && next.line.x0 <= info.line.x0 + 0.5 * metrics.em;
  });
}

function boldShare(group: LineGroup): number {
  const chars = group.lines.reduce((n, l) => n + l.text.length, 0) || 1;
  return group.lines.reduce((n, l) => n + l.boldShare * l.text.length, 0) / chars;
}

/** Set in one size and weight. */
function sameStyle(a: LineGroup, b: LineGroup): boolean {
  const size = (group: LineGroup) => sizeKey(Math.max(...group.lines.map((l) => l.line.fontSize)));
  return size(a) === size(b) && boldShare(a) >= 0.9 === boldShare(b) >= 0.9;
}

function headingBlock(group: LineGroup, stats: FontStatistics, outline: Outline, wraps: boolean): DraftBlock | undefined {
  if (group.lines.length > MAX_HEADING_LINES) return undefined;
  // A contents entry ("1 Introduction ....... 1") is set like its heading but points to it.
  const last = group.lines[group.lines.length - 1]!;
  if (last.spread && /\d$/.test(last.text)) return undefined;
  const lines = group.lines.map((l) => l.line);
  const text = group.lines.map((l) => l.text).join(' ');
  const level = headingLevel({ text, lines, boldShare: boldShare(group), wraps }, stats, outline);
  if (level === undefined) return undefined;
  const markdown = `${'#'.repeat(level)} ${renderInline(lines, HEADING_INLINE)}`;
  return { kind: 'heading', box: unionBox(lines), level, markdown };
}

function textBlock(group: LineGroup): DraftBlock {
  const lines = group.lines.map((l) => l.line);
  const markdown = escapeBlockStart(renderInline(lines));
  const kind = CAPTION.test(group.lines[0]!.text) ? 'caption' : 'paragraph';
  return { kind, box: unionBox(lines), markdown, fontSize: Math.max(...lines.map((l) => l.fontSize)) };
}

function listBlock(items: readonly LineGroup[], metrics: ColumnMetrics): DraftBlock {
  const drafts: ListItemDraft[] = items.map((item) => {
    const first = item.lines[0]!;
    const marker = first.marker!;
    const lines = [stripMarker(first.line, marker), ...item.lines.slice(1).map((l) => l.line)];
    return { marker, x0: first.line.x0, markdown: renderInline(lines) };
  });
  return { kind: 'list', box: groupBox(items), markdown: renderList(drafts, metrics.em) };
}

function isCode(group: LineGroup): boolean {
  return group.lines.length >= 2 && group.lines.every((l) => l.monoShare >= 0.9);
}

/** Code keeps its indentation: leading spaces from the offset in character widths. */
function codeBlock(groups: readonly LineGroup[]): DraftBlock {
  const lines = groups.flatMap((g) => g.lines);
  const runs = lines.flatMap((l) => l.line.runs);
  const chars = runs.reduce((n, r) => n + r.text.length, 0) || 1;
  const charWidth = runs.reduce((w, r) => w + (r.x1 - r.x0), 0) / chars || 6;
  const left = Math.min(...lines.map((l) => l.line.x0));
  const body: string[] = [];
  for (const group of groups) {
    if (body.length > 0) body.push('');
    for (const info of group.lines) body.push(' '.repeat(Math.max(0, Math.round((info.line.x0 - left) / charWidth))) + codeLine(info.line, charWidth));
  }
  const fence = body.some((l) => l.includes('```')) ? '~~~~' : '```';
  return { kind: 'code', box: groupBox(groups), markdown: `${fence}\n${body.join('\n')}\n${fence}` };
}

function codeLine(line: Line, charWidth: number): string {
  let text = '';
  let right: number | undefined;
  for (const run of line.runs) {
    if (right !== undefined) {
      const spaces = Math.round((run.x0 - right) / charWidth);
      if (spaces > 0 && !/\s$/.test(text)) text += ' '.repeat(spaces);
    }
    text += run.text;
    right = run.x1;
  }
  return text.replace(/\s+$/, '');
}
