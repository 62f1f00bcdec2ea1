/**
 * The renderer's state: the workspace as main last reported it (kept in step with the one shared
 * reducer), what the person is looking at, and the actions they take. Everything goes through the
 * `FolioApi` it is given, so tests drive it with a fake and the app with `window.folio`.
 */

import { createStore, type StoreApi } from 'zustand/vanilla';
import type { AppInfo, ConvertRequest, FolioApi, PickedFile, Unsubscribe } from '../../shared/app-api.js';
import { DEFAULT_SETTINGS, type Settings } from '../../shared/settings.js';
import {
  applyWorkspaceEvent,
  EMPTY_WORKSPACE,
  pagesToResume,
  type Workspace,
  type WorkspaceDocument,
  type WorkspaceEvent,
  type WorkspacePage,
} from '../../shared/workspace.js';
import type { RunTiming } from './conversion-progress.js';
import { EMPTY_HISTORY, recordEdit, redoEdit, undoEdit, type EditHistory } from './edit-history.js';
import { asksBeforeRemoving, removalLoss } from './removal-loss.js';
import { currentVersionId } from '../../shared/page-versions.js';
import { afterSaved, withFailure, type SaveFailure } from './save-state.js';

/** Which side moved to a page, so the other follows and the mover does not jump back. */
export type PageOrigin = 'pages' | 'markdown' | 'navigation';

export interface PageFocus {
  page: number;
  origin: PageOrigin;
  /** Bumped on every request, so asking for the same page twice still scrolls. */
  serial: number;
}

export type Dialog = 'settings' | 'export' | 'pairs' | null;

/** CSS pixels per PDF point, or as wide as the page pane. */
export type Zoom = number | 'fit-width';

export interface BlockRef {
  page: number;
  /** Index into the page result's blocks. */
  block: number;
}

export interface FolioState {
  workspace: Workspace;
  loaded: boolean;
  appInfo: AppInfo | null;
  settings: Settings;
  selectedDocId: string | null;
  focus: PageFocus;
  /** The Markdown pane shows rendered previews or editable sources. */
  view: 'preview' | 'source';
  /** Per document: the conversion run under way or last finished, for pages/s. */
  runs: Record<string, RunTiming>;
  /** Edits typed but not yet on disk: waiting for a pause in typing, or being saved. */
  unsavedEdits: number;
  /** Saves that did not reach the disk (save-state.ts): the status bar and the save notice both read these. */
  saveFailures: readonly SaveFailure[];
  /** The last thing that went wrong that the person should know about; null when none. */
  notice: string | null;
  /** Something the person should know that is no failure (a file dropped twice); null when none. */
  info: string | null;
  /** The document whose removal waits for the person to confirm it (it has edits or review marks). */
  removing: string | null;
  dialog: Dialog;
  history: EditHistory;
  zoom: Zoom;
  showThumbnails: boolean;
  /** The block under the pointer in the Markdown, outlined on the page. */
  hoveredBlock: BlockRef | null;
  /** A block clicked on the page, for the Markdown to scroll to. */
  revealedBlock: (BlockRef & { serial: number }) | null;
  /** The page whose editor is open beside its preview. */
  editingPage: number | null;
  /** Passwords given for encrypted documents, by id, for the page preview: in memory only. */
  passwords: Record<string, string>;
}

export interface FolioActions {
  /** Loads the workspace, settings and app info and follows workspace events; returns the unsubscribe. */
  connect(): Promise<Unsubscribe>;
  openFiles(files: readonly PickedFile[]): Promise<void>;
  selectDocument(docId: string): void;
  /** Removes the document, first asking when it has edits or review marks (see `removing`). */
  askToRemove(docId: string): Promise<void>;
  cancelRemove(): void;
  /** Removes at once; `restoreDocument` undoes it until the session ends. */
  removeDocument(docId: string): Promise<void>;
  restoreDocument(docId: string): Promise<void>;
  /** Opens an encrypted document with its password; the outcome arrives as a workspace event. */
  unlockDocument(docId: string, password: string): Promise<void>;
  goToPage(page: number, origin: PageOrigin): void;
  stepPage(delta: number): void;
  convert(request: ConvertRequest): Promise<void>;
  cancel(docId: string): Promise<void>;
  resume(docId: string): Promise<void>;
  /** The person's Markdown for a page; saved after a short pause in typing. */
  editPage(docId: string, page: number, markdown: string): void;
  revertPage(docId: string, page: number): Promise<void>;
  /** Shows (and exports) another of the page's versions; the one it replaces stays a version. */
  keepVersion(docId: string, page: number, version: number): Promise<void>;
  setReviewed(docId: string, page: number, reviewed: boolean): Promise<void>;
  /** Saves every edit still waiting for its pause. */
  flushEdits(): Promise<void>;
  /** Saves again what failed to save (see `saveFailures`). */
  retrySaves(): Promise<void>;
  undo(): Promise<boolean>;
  redo(): Promise<boolean>;
  updateSettings(patch: Partial<Settings>): Promise<void>;
  toggleView(): void;
  openDialog(dialog: Dialog): void;
  dismissNotice(): void;
  dismissInfo(): void;
  report(message: string): void;
  setZoom(zoom: Zoom): void;
  toggleThumbnails(): void;
  hoverBlock(block: BlockRef | null): void;
  revealBlock(block: BlockRef): void;
  setEditingPage(page: number | null): void;
}

export type FolioStore = StoreApi<FolioState & FolioActions>;

/** Typing settles for this long before the edit is saved. */
export const EDIT_SAVE_DELAY_MS = 400;

export interface StoreOptions {
  now?: () => number;
  /**
   * Events from main are applied together at most this often (ms): a fast engine sends hundreds
   * a second, and drawing after each would slow the conversion it shows. 0: each at once.
   */
  batchMs?: number;
}

export function createFolioStore(api: FolioApi, { now = Date.now, batchMs = 32 }: StoreOptions = {}): FolioStore {
  const pendingEdits = new Map<string, { timer: ReturnType<typeof setTimeout>; save: () => Promise<void> }>();
  let savesInFlight = 0;
  // settings writes so far: an answer to an earlier one must not undo a later change made meanwhile
  let settingsWrites = 0;

  return createStore<FolioState & FolioActions>()((set, get, store) => {
    let queued: WorkspaceEvent[] = [];
    let flushTimer: ReturnType<typeof setTimeout> | undefined;

    const flushQueued = () => {
      clearTimeout(flushTimer);
      flushTimer = undefined;
      if (queued.length === 0) return;
      const events = queued;
      queued = [];
      const time = now();
      set((state) => {
        let { workspace, runs } = state;
        for (const event of events) {
          runs = nextRuns(workspace, runs, event, time);
          workspace = applyWorkspaceEvent(workspace, event);
        }
        return { workspace, runs };
      });
    };

    /** An event from main: applied with the others that arrive within `batchMs`. */
    const enqueue = (event: WorkspaceEvent) => {
      if (event.type === 'save-failed') set((state) => ({ saveFailures: withFailure(state.saveFailures, { kind: 'workspace', message: event.message }) }));
      queued.push(event);
      if (batchMs === 0) flushQueued();
      else flushTimer ??= setTimeout(flushQueued, batchMs);
    };

    /** A change made here: applied at once, after anything main said before it. */
    const receive = (event: WorkspaceEvent) => {
      queued.push(event);
      flushQueued();
    };

    const failWith = (what: string) => (error: unknown) => {
      set({ notice: `${what}: ${errorText(error)}` });
    };

    const saveEdit = async (docId: string, page: number, markdown: string | null) => {
      savesInFlight++;
      publishUnsaved();
      try {
        await api.setEdit(docId, page, markdown);
        set((state) => ({ saveFailures: afterSaved(state.saveFailures, 'edit', docId, page) }));
      } catch (error) {
        set((state) => ({ saveFailures: withFailure(state.saveFailures, { kind: 'edit', docId, page, message: errorText(error) }) }));
      } finally {
        savesInFlight--;
        publishUnsaved();
      }
    };

    /** Applies an edit here at once (main echoes the same event; the reducer makes it a no-op). */
    const applyEdit = (docId: string, page: number, markdown: string | null, typing: boolean) => {
      const before = findPage(get().workspace, docId, page);
      if (!before) return;
      receive({ type: 'page-edited', docId, page, markdown });
      const after = findPage(get().workspace, docId, page);
      if (before.editedMarkdown === after?.editedMarkdown) return;
      set((state) => ({
        history: recordEdit(state.history, { docId, page, before: before.editedMarkdown ?? null, after: after?.editedMarkdown ?? null, at: now() }, typing),
      }));
    };

    const cancelPendingEdit = (docId: string, page: number) => {
      const key = `${docId}#${page}`;
      const pending = pendingEdits.get(key);
      if (!pending) return;
      clearTimeout(pending.timer);
      pendingEdits.delete(key);
      publishUnsaved();
    };

    const publishUnsaved = () => {
      const unsavedEdits = savesInFlight + pendingEdits.size;
      if (get().unsavedEdits !== unsavedEdits) set({ unsavedEdits });
    };

    /** An undo or redo of an edit in a removed document waits for the document to be put back. */
    const editable = (docId: string): boolean => {
      if (get().workspace.documents.some((document) => document.id === docId)) return true;
      const removed = get().workspace.removed?.find((entry) => entry.document.id === docId);
      set({ notice: `That edit is in ${removed?.document.name ?? 'a document no longer open'}${removed ? ', which was removed; put it back with Undo beside its name in the list to undo its edits' : ''}.` });
      return false;
    };

    const replayEdit = async (docId: string, page: number, markdown: string | null) => {
      cancelPendingEdit(docId, page);
      receive({ type: 'page-edited', docId, page, markdown });
      get().selectDocument(docId);
      get().goToPage(page, 'navigation');
      await saveEdit(docId, page, markdown);
    };

    /** Shows a page's version again from an undo or redo; a version pruned meanwhile is refused by main, in words. */
    const replayVersion = async (docId: string, page: number, version: number) => {
      receive({ type: 'version-kept', docId, page, version });
      get().selectDocument(docId);
      get().goToPage(page, 'navigation');
      await api.keepVersion(docId, page, version).catch(failWith(`Page ${page} could not go back to that version`));
    };

    return {
      workspace: EMPTY_WORKSPACE,
      loaded: false,
      appInfo: null,
      settings: DEFAULT_SETTINGS,
      selectedDocId: null,
      focus: { page: 1, origin: 'navigation', serial: 0 },
      view: 'preview',
      runs: {},
      unsavedEdits: 0,
      saveFailures: [],
      notice: null,
      info: null,
      removing: null,
      dialog: null,
      history: EMPTY_HISTORY,
      zoom: 'fit-width',
      showThumbnails: true,
      hoveredBlock: null,
      revealedBlock: null,
      editingPage: null,
      passwords: {},

      async connect() {
        // events that arrive while the snapshot loads are applied on top of it, in order
        const early: WorkspaceEvent[] = [];
        let snapshotLoaded = false;
        const unsubscribe = api.onWorkspaceEvent((event) => (snapshotLoaded ? enqueue(event) : early.push(event)));
        try {
          const [workspace, settings] = await Promise.all([api.getWorkspace(), api.getSettings()]);
          const current = early.reduce(applyWorkspaceEvent, workspace);
          snapshotLoaded = true;
          set((state) => ({
            workspace: current,
            settings,
            loaded: true,
            selectedDocId: state.selectedDocId ?? current.documents[0]?.id ?? null,
          }));
        } catch (error) {
          snapshotLoaded = true;
          set({ loaded: true });
          failWith('The workspace could not be loaded')(error);
        }
        api.appInfo().then((appInfo) => set({ appInfo }), failWith('The engine did not report its device'));
        return unsubscribe;
      },

      async openFiles(files) {
        if (files.length === 0) return;
        try {
          const paths = await Promise.all(files.map((file) => api.pathForFile(file)));
          const open = new Map(get().workspace.documents.map((document) => [document.id, document.name]));
          const ids = await api.openDocuments(paths);
          // main answers a file already open (by path, or the same bytes from elsewhere) with its document
          const again = ids.flatMap((docId, index) => (open.has(docId) ? [alreadyOpen(files[index]!.name, open.get(docId)!)] : []));
          set({ info: again.length > 0 ? again.join(' ') : null });
          if (ids[0]) get().selectDocument(ids[0]);
          for (const docId of ids) void convertOnceOpen(docId);
        } catch (error) {
          failWith(`Could not open ${files.map((file) => file.name).join(', ')}`)(error);
        }
      },

      selectDocument(docId) {
        if (get().selectedDocId === docId) return;
        set((state) => ({ selectedDocId: docId, editingPage: null, hoveredBlock: null, focus: { page: 1, origin: 'navigation', serial: state.focus.serial + 1 } }));
      },

      async askToRemove(docId) {
        const document = get().workspace.documents.find((candidate) => candidate.id === docId);
        if (!document) return;
        if (asksBeforeRemoving(removalLoss(document))) set({ removing: docId });
        else await get().removeDocument(docId);
      },

      cancelRemove() {
        set({ removing: null });
      },

      async removeDocument(docId) {
        set({ removing: null });
        // an edit still waiting for its pause goes with the document, and comes back with it
        await get().flushEdits();
        const index = get().workspace.documents.findIndex((document) => document.id === docId);
        try {
          await api.removeDocument(docId);
        } catch (error) {
          failWith('The document could not be removed')(error);
          return;
        }
        receive({ type: 'document-removed', docId });
        set((state) => {
          if (state.selectedDocId !== docId) return {};
          // the one that took its place in the list, or the last
          const documents = state.workspace.documents;
          return { selectedDocId: (documents[index] ?? documents.at(-1))?.id ?? null, editingPage: null, hoveredBlock: null };
        });
      },

      async restoreDocument(docId) {
        try {
          await api.restoreDocument(docId);
        } catch (error) {
          failWith('The document could not be put back')(error);
          return;
        }
        receive({ type: 'document-restored', docId });
        get().selectDocument(docId);
      },

      async unlockDocument(docId, password) {
        // a document never converted converts once unlocked, as one dropped does once opened
        const untouched = get().workspace.documents.find((document) => document.id === docId)?.pages.every((page) => page.state === 'pending');
        set((state) => ({ passwords: { ...state.passwords, [docId]: password } }));
        const opened = await api.unlockDocument(docId, password).catch(failWith('The document could not be opened'));
        if (opened && untouched) await convertOnceOpen(docId, (document) => document.info !== undefined && document.failure === undefined);
      },

      goToPage(page, origin) {
        const document = selectedDocument(get());
        const last = Math.max(1, document?.pages.length ?? 1);
        const clamped = Math.min(last, Math.max(1, page));
        set((state) => ({ focus: { page: clamped, origin, serial: state.focus.serial + 1 } }));
      },

      stepPage(delta) {
        get().goToPage(get().focus.page + delta, 'navigation');
      },

      async convert(request) {
        await api.convert(request).catch(failWith('The conversion could not start'));
      },

      async cancel(docId) {
        await api.cancel(docId).catch(failWith('The conversion could not be cancelled'));
      },

      async resume(docId) {
        const document = get().workspace.documents.find((candidate) => candidate.id === docId);
        if (!document || pagesToResume(document).length === 0) return;
        await get().convert({ docId });
      },

      editPage(docId, page, markdown) {
        applyEdit(docId, page, markdown, true);
        cancelPendingEdit(docId, page);
        const key = `${docId}#${page}`;
        const save = async () => {
          pendingEdits.delete(key);
          const current = findPage(get().workspace, docId, page);
          await saveEdit(docId, page, current?.editedMarkdown ?? null);
        };
        pendingEdits.set(key, { timer: setTimeout(() => void save(), EDIT_SAVE_DELAY_MS), save });
        publishUnsaved();
      },

      async revertPage(docId, page) {
        cancelPendingEdit(docId, page);
        applyEdit(docId, page, null, false);
        await saveEdit(docId, page, null);
      },

      async keepVersion(docId, page, version) {
        // an edit still waiting for its pause becomes its version first, so the switch loses none of it
        await get().flushEdits();
        const before = findPage(get().workspace, docId, page);
        const shown = before && currentVersionId(before);
        receive({ type: 'version-kept', docId, page, version });
        const after = findPage(get().workspace, docId, page);
        if (before && after && shown !== undefined && shown !== version) {
          // one step of undo, like an edit: Ctrl+Z shows the version it replaced again
          const change = { docId, page, before: before.editedMarkdown ?? null, after: after.editedMarkdown ?? null, at: now(), version: { before: shown, after: version } };
          set((state) => ({ history: recordEdit(state.history, change, false) }));
        }
        await api.keepVersion(docId, page, version).catch(failWith(`The version chosen for page ${page} could not be saved`));
      },

      async setReviewed(docId, page, reviewed) {
        receive({ type: 'page-reviewed', docId, page, reviewed });
        try {
          await api.setReviewed(docId, page, reviewed);
          set((state) => ({ saveFailures: afterSaved(state.saveFailures, 'review', docId, page) }));
        } catch (error) {
          set((state) => ({ saveFailures: withFailure(state.saveFailures, { kind: 'review', docId, page, message: errorText(error) }) }));
        }
      },

      async flushEdits() {
        const waiting = [...pendingEdits.values()];
        for (const pending of waiting) clearTimeout(pending.timer);
        await Promise.all(waiting.map((pending) => pending.save()));
      },

      async retrySaves() {
        await get().flushEdits();
        // each is saved as it stands now, which may be newer than what failed
        await Promise.all(
          get().saveFailures.map((failure) => {
            if (failure.kind === 'workspace') return undefined;
            const page = findPage(get().workspace, failure.docId, failure.page);
            if (!page) {
              // its document was removed: nothing is left to save
              set((state) => ({ saveFailures: afterSaved(state.saveFailures, failure.kind, failure.docId, failure.page) }));
              return undefined;
            }
            return failure.kind === 'edit' ? saveEdit(failure.docId, failure.page, page.editedMarkdown ?? null) : get().setReviewed(failure.docId, failure.page, page.reviewed);
          }),
        );
      },

      async undo() {
        const step = undoEdit(get().history);
        if (!step) return false;
        if (!editable(step.change.docId)) return true;
        set({ history: step.history });
        const { docId, page, before, version } = step.change;
        if (version) await replayVersion(docId, page, version.before);
        else await replayEdit(docId, page, before);
        return true;
      },

      async redo() {
        const step = redoEdit(get().history);
        if (!step) return false;
        if (!editable(step.change.docId)) return true;
        set({ history: step.history });
        const { docId, page, after, version } = step.change;
        if (version) await replayVersion(docId, page, version.after);
        else await replayEdit(docId, page, after);
        return true;
      },

      async updateSettings(patch) {
        set((state) => ({ settings: { ...state.settings, ...patch } }));
        const write = ++settingsWrites;
        try {
          const saved = await api.setSettings(patch);
          if (write === settingsWrites) set({ settings: saved });
        } catch (error) {
          failWith('The settings could not be saved')(error);
          return;
        }
        // what the status bar says of the device depends on the device setting and the package
        if ('device' in patch || 'modelDir' in patch) api.appInfo().then((appInfo) => set({ appInfo }), failWith('The engine did not report its device'));
      },

      toggleView() {
        set((state) => ({ view: state.view === 'preview' ? 'source' : 'preview' }));
      },

      openDialog(dialog) {
        set({ dialog });
      },

      dismissNotice() {
        set({ notice: null });
      },

      dismissInfo() {
        set({ info: null });
      },

      report(message) {
        set({ notice: message });
      },

      setZoom(zoom) {
        set({ zoom });
      },

      toggleThumbnails() {
        set((state) => ({ showThumbnails: !state.showThumbnails }));
      },

      hoverBlock(block) {
        const current = get().hoveredBlock;
        if (current?.page === block?.page && current?.block === block?.block) return;
        set({ hoveredBlock: block });
      },

      revealBlock(block) {
        set((state) => ({ revealedBlock: { ...block, serial: (state.revealedBlock?.serial ?? 0) + 1 } }));
      },

      setEditingPage(page) {
        set({ editingPage: page });
      },
    };

    /**
     * A new document converts as soon as it has opened; one that fails to open shows why instead.
     * `settled` says when the opening's outcome is in the workspace (by default: info or a failure).
     */
    function convertOnceOpen(docId: string, settled = (document: WorkspaceDocument) => document.info !== undefined || document.failure !== undefined): Promise<void> {
      return new Promise((resolve) => {
        let stop: Unsubscribe = () => undefined;
        const check = (state: FolioState) => {
          const document = state.workspace.documents.find((candidate) => candidate.id === docId);
          if (!document || !settled(document)) return false;
          stop();
          if (document.info && !document.converting && pagesToResume(document).length > 0) {
            void get().convert({ docId }).then(resolve);
          } else resolve();
          return true;
        };
        if (!check(get())) stop = store.subscribe((state) => void check(state));
      });
    }
  });
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Why a dropped file did not become a second document. */
function alreadyOpen(dropped: string, open: string): string {
  return dropped === open
    ? `${dropped} is already open; it is shown instead of being added twice.`
    : `${dropped} is the same file as ${open}, which is already open; it is shown instead of being added twice.`;
}

export function selectedDocument(state: FolioState): WorkspaceDocument | undefined {
  return state.workspace.documents.find((document) => document.id === state.selectedDocId);
}

export function findPage(workspace: Workspace, docId: string, page: number): WorkspacePage | undefined {
  return workspace.documents.find((document) => document.id === docId)?.pages[page - 1];
}

/** A run starts when pages are queued on an idle document, or when it reaches the head of the queue; each page done in it is timed; what the engine prepares is shown while it does. */
function nextRuns(workspace: Workspace, runs: Record<string, RunTiming>, event: WorkspaceEvent, time: number): Record<string, RunTiming> {
  if (event.type === 'engine-preparing' || event.type === 'engine-ready' || event.type === 'convert-done') {
    const run = runs[event.docId];
    if (!run) return runs;
    return { ...runs, [event.docId]: { ...run, preparing: event.type === 'engine-preparing' ? event.detail : undefined } };
  }
  if (event.type === 'pages-queued') {
    const document = workspace.documents.find((candidate) => candidate.id === event.docId);
    if (document?.converting && runs[event.docId]) return runs;
    return { ...runs, [event.docId]: { startedAt: time, finishedAt: [] } };
  }
  if (event.type === 'queue-changed') {
    const head = event.docIds[0];
    if (head === undefined || head === workspace.queue?.[0]) return runs;
    // a document that waited its turn is timed from when it began converting, not from when it was queued
    return { ...runs, [head]: { startedAt: time, finishedAt: [] } };
  }
  if (event.type === 'page-done') {
    const run = runs[event.docId];
    if (!run) return runs;
    return { ...runs, [event.docId]: { ...run, finishedAt: [...run.finishedAt, time] } };
  }
  return runs;
}
