/**
 * Whether the person's work is on disk, said one way everywhere: the status bar and the red notice
 * are both read from the same saves in flight and the same failed saves, so one cannot say "All
 * changes saved" while the other says saving failed.
 */

/** A save that did not reach the disk; it stays until a later save of the same thing succeeds. */
export type SaveFailure =
  | { kind: 'edit' | 'review'; docId: string; page: number; message: string }
  /** Main's own save of the workspace (behind a conversion) failed. */
  | { kind: 'workspace'; message: string };

export type SaveState = { kind: 'saved' } | { kind: 'saving'; count: number } | { kind: 'failed'; failures: readonly SaveFailure[] };

export function saveState(unsaved: number, failures: readonly SaveFailure[]): SaveState {
  if (failures.length > 0) return { kind: 'failed', failures };
  return unsaved > 0 ? { kind: 'saving', count: unsaved } : { kind: 'saved' };
}

/** Two failures of the same thing are one: the newer replaces the older. */
export function failureKey(failure: SaveFailure): string {
  return failure.kind === 'workspace' ? 'workspace' : `${failure.kind}:${failure.docId}#${failure.page}`;
}

export function withFailure(failures: readonly SaveFailure[], failure: SaveFailure): SaveFailure[] {
  const key = failureKey(failure);
  return [...failures.filter((entry) => failureKey(entry) !== key), failure];
}

/**
 * After a save succeeded: that thing's failure goes, and so does main's workspace failure, since
 * main writes the whole workspace on every save it answers.
 */
export function afterSaved(failures: readonly SaveFailure[], saved: 'edit' | 'review', docId: string, page: number): readonly SaveFailure[] {
  const key = failureKey({ kind: saved, docId, page, message: '' });
  const left = failures.filter((entry) => entry.kind !== 'workspace' && failureKey(entry) !== key);
  return left.length === failures.length ? failures : left;
}

/** The status bar's words. */
export function saveStatusText(state: SaveState): string {
  switch (state.kind) {
    case 'saved':
      return 'All changes saved';
    case 'saving':
      return 'Saving…';
    case 'failed':
      return `Not saved: ${unsavedWhat(state.failures)}`;
  }
}

/** The notice's words: what is not on disk, why, and that it is still here. */
export function saveNoticeText(failures: readonly SaveFailure[]): string {
  const last = failures.at(-1);
  if (!last) return '';
  const workspaceOnly = failures.every((failure) => failure.kind === 'workspace');
  if (workspaceOnly) return last.message;
  return `${capitalise(unsavedWhat(failures))} could not be saved (${last.message.replace(/\.$/, '')}). Your changes are kept in this window: keep it open and try again.`;
}

function unsavedWhat(failures: readonly SaveFailure[]): string {
  const pages = [...new Set(failures.flatMap((failure) => (failure.kind === 'workspace' ? [] : [failure.page])))].sort((a, b) => a - b);
  if (pages.length === 0) return 'the workspace';
  if (pages.length === 1) return `page ${pages[0]}`;
  return `pages ${pages.slice(0, -1).join(', ')} and ${pages.at(-1)}`;
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
