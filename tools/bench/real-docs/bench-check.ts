/**
 * A check of the real-document benchmark as the builder makes it: an olmOCR-Bench test of one page,
 * with the ground truth it was read from rendered as Markdown (`truth`), on which it must pass.
 */

export type CheckSpec =
  | { type: 'present' | 'absent'; text: string; max_diffs?: number; first_n?: number; last_n?: number }
  | { type: 'order'; before: string; after: string; max_diffs?: number }
  | { type: 'table'; cell: string; up?: string; down?: string; left?: string; right?: string; top_heading?: string }
  | { type: 'math'; math: string };

export interface BuiltCheck {
  /** 1-based page of the PDF. */
  page: number;
  spec: CheckSpec;
  /** The ground truth behind the check, rendered as Markdown (HTML tables, `$$` math). */
  truth: string;
}

/** Picks `limit` items spread evenly over `items`, in their order (all of them when there are fewer). */
export function spread<T>(items: readonly T[], limit: number): T[] {
  if (items.length <= limit) return [...items];
  return Array.from({ length: limit }, (_, i) => items[Math.floor(((i + 0.5) * items.length) / limit)]!);
}

/** The edits a present or order text may differ by: 3% of its length (a compound's hyphen lost at a line break, a ligature kept as one glyph). */
export function textMaxDiffs(text: string): number {
  return Math.floor(Array.from(text).length * 0.03);
}
