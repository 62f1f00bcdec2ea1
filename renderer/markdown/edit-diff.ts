/**
 * What the user changed on a page: their Markdown against the engine's, as lines to show, with
 * word-level marks inside lines that were changed rather than added or removed outright.
 */

import { diffLines, diffWordsWithSpace } from 'diff';

export type DiffLineKind = 'same' | 'added' | 'removed';

export interface DiffSpan {
  text: string;
  /** Marked inside a changed line: the words that differ. */
  changed: boolean;
}

export interface DiffLine {
  kind: DiffLineKind;
  spans: DiffSpan[];
}

export interface EditDiff {
  lines: DiffLine[];
  added: number;
  removed: number;
}

export function editDiff(engineMarkdown: string, editedMarkdown: string): EditDiff {
  const lines: DiffLine[] = [];
  let added = 0;
  let removed = 0;
  const parts = diffLines(engineMarkdown, editedMarkdown);
  for (let index = 0; index < parts.length; index++) {
    const part = parts[index]!;
    const next = parts[index + 1];
    if (part.removed && next?.added) {
      // a replaced run of lines: pair them up so the changed words can be marked
      const before = splitLines(part.value);
      const after = splitLines(next.value);
      removed += before.length;
      added += after.length;
      const paired = Math.min(before.length, after.length);
      for (let line = 0; line < paired; line++) {
        const words = diffWordsWithSpace(before[line]!, after[line]!);
        lines.push({ kind: 'removed', spans: words.filter((word) => !word.added).map((word) => ({ text: word.value, changed: word.removed })) });
        lines.push({ kind: 'added', spans: words.filter((word) => !word.removed).map((word) => ({ text: word.value, changed: word.added })) });
      }
      for (const text of before.slice(paired)) lines.push({ kind: 'removed', spans: [{ text, changed: false }] });
      for (const text of after.slice(paired)) lines.push({ kind: 'added', spans: [{ text, changed: false }] });
      index++;
      continue;
    }
    const kind: DiffLineKind = part.added ? 'added' : part.removed ? 'removed' : 'same';
    for (const text of splitLines(part.value)) {
      lines.push({ kind, spans: [{ text, changed: false }] });
      if (kind === 'added') added++;
      if (kind === 'removed') removed++;
    }
  }
  return { lines, added, removed };
}

function splitLines(text: string): string[] {
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  return lines;
}

/** Unchanged lines folded away, keeping `context` lines around each change. */
export type DiffRow = DiffLine | { kind: 'gap'; hidden: number };

export function foldUnchanged(lines: readonly DiffLine[], context = 2): DiffRow[] {
  const keep = lines.map((line) => line.kind !== 'same');
  lines.forEach((line, index) => {
    if (line.kind === 'same') return;
    for (let offset = -context; offset <= context; offset++) {
      if (index + offset >= 0 && index + offset < lines.length) keep[index + offset] = true;
    }
  });
  const rows: DiffRow[] = [];
  let hidden = 0;
  lines.forEach((line, index) => {
    if (keep[index]) {
      if (hidden > 0) rows.push({ kind: 'gap', hidden });
      hidden = 0;
      rows.push(line);
    } else hidden++;
  });
  if (hidden > 0) rows.push({ kind: 'gap', hidden });
  return rows;
}
