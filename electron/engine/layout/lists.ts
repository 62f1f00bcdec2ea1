/**
 * List items: markers (bullets and numbers) at the start of a line, items nested by the
 * indentation of their markers, continuation lines joined to their item.
 */

import type { TextRun } from './geometry.js';
import { makeLine, type Line } from './lines.js';

export interface ListMarker {
  /** The marker as printed, e.g. `•`, `3.`, `(ii)`. */
  text: string;
  ordered: boolean;
  /** The number of a numeric marker (`3.` -> 3). */
  number?: number;
  /** Bullets are unambiguous; `a.` or `(i)` at a line start may just be wrapped prose. */
  strong: boolean;
  /** The text after the marker. */
  rest: string;
}

const BULLET = /^([•◦▪▫■□●○‣⁃∙·➢➤►▸✓✔])\s*(.+)$/u;
const DASH_BULLET = /^([-*–—])\s+(.+)$/u;
const NUMBERED = /^(\(?)(\d{1,3})([.)])\s+(.+)$/u;
const LETTERED = /^(\(?)([a-zA-Z]|[ivxlcdm]{1,6}|[IVXLCDM]{1,6})([.)])\s+(.+)$/u;

export function listMarker(text: string): ListMarker | undefined {
  const bullet = BULLET.exec(text);
  if (bullet) return { text: bullet[1]!, ordered: false, strong: true, rest: bullet[2]! };
  const dash = DASH_BULLET.exec(text);
  if (dash) return { text: dash[1]!, ordered: false, strong: true, rest: dash[2]! };
  const numbered = NUMBERED.exec(text);
  // `(1)` needs both parentheses, as `(a)` does: `(1.` is not a marker.
  if (numbered && (numbered[1] === '' || numbered[3] === ')')) {
    return { text: numbered[1]! + numbered[2]! + numbered[3]!, ordered: true, number: Number(numbered[2]), strong: false, rest: numbered[4]! };
  }
  const lettered = LETTERED.exec(text);
  // `(a)` needs both parentheses; `a)` and `a.` are fine alone.
  if (lettered && (lettered[1] === '' || lettered[3] === ')')) {
    return { text: `${lettered[1]}${lettered[2]}${lettered[3]}`, ordered: true, strong: false, rest: lettered[4]! };
  }
  return undefined;
}

export interface ListItemDraft {
  marker: ListMarker;
  /** Where the marker starts, for nesting. */
  x0: number;
  /** The item's Markdown (marker left out). */
  markdown: string;
}

/** Nesting depth of each item from its marker's indentation: deeper markers open a sub-list. */
export function nestingDepths(items: readonly { x0: number }[], em: number): number[] {
  const stack: number[] = [];
  return items.map(({ x0 }) => {
    while (stack.length > 0 && x0 < stack[stack.length - 1]! - em * 0.5) stack.pop();
    const top = stack[stack.length - 1];
    if (top === undefined || x0 > top + em * 0.5) stack.push(x0);
    return stack.length - 1;
  });
}

/** Markdown for a list: numeric markers keep their numbers, others become bullets keeping letters. */
export function renderList(items: readonly ListItemDraft[], em: number): string {
  const depths = nestingDepths(items, em);
  // Column where each depth's content starts: a sub-list is indented to its parent's content.
  const columns: number[] = [];
  return items
    .map((item, i) => {
      const depth = depths[i]!;
      const indent = depth === 0 ? 0 : (columns[depth - 1] ?? 0);
      const { marker } = item;
      const bullet =
        marker.number !== undefined ? `${marker.number}${marker.text.endsWith(')') ? ')' : '.'} ` : '- ';
      columns[depth] = indent + bullet.length;
      columns.length = depth + 1;
      const label = marker.ordered && marker.number === undefined ? `${marker.text} ` : '';
      return `${' '.repeat(indent)}${bullet}${label}${item.markdown}`;
    })
    .join('\n');
}

/** The line without its marker's characters (the marker may be its own run or start a run). */
export function stripMarker(line: Line, marker: ListMarker): Line {
  let remaining = [...marker.text].length;
  const runs: TextRun[] = [];
  for (const run of line.runs) {
    if (remaining === 0) {
      runs.push(run);
      continue;
    }
    const chars = [...run.text];
    let i = 0;
    while (i < chars.length && remaining > 0) {
      if (chars[i]!.trim()) remaining--;
      i++;
    }
    const rest = chars.slice(i).join('').replace(/^\s+/, '');
    if (rest) {
      const cut = (run.x1 - run.x0) * (1 - rest.length / Math.max(1, chars.length));
      runs.push({ ...run, text: rest, x0: run.x0 + cut });
    }
  }
  return runs.length > 0 ? makeLine(runs) : line;
}
