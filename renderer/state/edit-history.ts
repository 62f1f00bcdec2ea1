/**
 * Undo and redo for the user's edits across pages: each entry is one page going from one Markdown
 * to another (`null`: the engine's). Typing in one page within a short pause is one entry, so undo
 * steps back a thought, not a keystroke; inside the editor CodeMirror keeps its own finer history.
 */

export interface EditChange {
  docId: string;
  page: number;
  before: string | null;
  after: string | null;
  /** When it was made (ms), for coalescing. */
  at: number;
  /** Made by typing, so more typing may join it; a revert stands alone. */
  typing?: boolean;
  /**
   * A change of the version the page shows ("Keep this one", shared/page-versions.ts) rather than
   * of its text: undone by showing `before` again. `before` and `after` above are then the edits
   * shown before and after, for reference only.
   */
  version?: { before: number; after: number };
}

export interface EditHistory {
  done: readonly EditChange[];
  undone: readonly EditChange[];
}

export const EMPTY_HISTORY: EditHistory = { done: [], undone: [] };

const COALESCE_MS = 1500;
const LIMIT = 200;

/** `typing`: a keystroke's worth of change, folded into the step before it on the same page. */
export function recordEdit(history: EditHistory, change: EditChange, typing = true): EditHistory {
  const last = history.done.at(-1);
  if (typing && last?.typing && last.docId === change.docId && last.page === change.page && change.at - last.at < COALESCE_MS) {
    const merged = { ...last, after: change.after, at: change.at };
    return { done: [...history.done.slice(0, -1), merged], undone: [] };
  }
  return { done: [...history.done, { ...change, typing }].slice(-LIMIT), undone: [] };
}

/** The change to reverse (apply its `before`), or null when there is nothing to undo. */
export function undoEdit(history: EditHistory): { history: EditHistory; change: EditChange } | null {
  const change = history.done.at(-1);
  if (!change) return null;
  return { history: { done: history.done.slice(0, -1), undone: [...history.undone, change] }, change };
}

/** The change to repeat (apply its `after`), or null when there is nothing to redo. */
export function redoEdit(history: EditHistory): { history: EditHistory; change: EditChange } | null {
  const change = history.undone.at(-1);
  if (!change) return null;
  return { history: { done: [...history.done, change], undone: history.undone.slice(0, -1) }, change };
}
