import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ConvertRequest, FolioApi, MenuCommand, PickedFile } from '../../shared/app-api.js';
import { DEFAULT_SETTINGS, type Settings } from '../../shared/settings.js';
import { pageVersions } from '../../shared/page-versions.js';
import { applyWorkspaceEvent, EMPTY_WORKSPACE, pageMarkdown, type Workspace, type WorkspaceDocument, type WorkspaceEvent } from '../../shared/workspace.js';
import { createFolioStore, EDIT_SAVE_DELAY_MS, findPage } from './folio-store.js';
import { saveNoticeText, saveState, saveStatusText } from './save-state.js';

/** Main as the renderer sees it: keeps its own workspace with the shared reducer and echoes events. */
class FakeMain implements FolioApi {
  workspace: Workspace = EMPTY_WORKSPACE;
  settings: Settings = DEFAULT_SETTINGS;
  readonly calls: string[] = [];
  readonly converts: ConvertRequest[] = [];
  private readonly listeners = new Set<(event: WorkspaceEvent) => void>();

  emit(event: WorkspaceEvent): void {
    this.workspace = applyWorkspaceEvent(this.workspace, event);
    for (const listener of this.listeners) listener(event);
  }

  async appInfo() {
    // as main answers: for the device setting
    return this.settings.device === 'auto'
      ? { version: '0.1.0', device: 'cpu', deviceReason: 'auto: cpu, the only device that answered (not available: cuda:0: CUDA libraries not installed)' }
      : { version: '0.1.0', device: this.settings.device, deviceReason: `${this.settings.device} was asked for` };
  }
  async getWorkspace() {
    return this.workspace;
  }
  async pathForFile(file: PickedFile) {
    return `/uploads/${file.name}`;
  }
  async openDocuments(paths: string[]) {
    const ids = paths.map((_, index) => `doc-${index + 1}`);
    paths.forEach((path, index) => this.emit({ type: 'document-added', document: blankDocument(ids[index]!, path) }));
    // opening finishes later, as the engine host answers
    setTimeout(() => ids.forEach((docId) => this.emit({ type: 'document-opened', docId, info: { pageCount: 3 } })), 0);
    return ids;
  }
  async removeDocument(docId: string) {
    this.calls.push(`removeDocument ${docId}`);
    this.emit({ type: 'document-removed', docId });
  }
  async restoreDocument(docId: string) {
    this.calls.push(`restoreDocument ${docId}`);
    this.emit({ type: 'document-restored', docId });
  }
  async unlockDocument(docId: string, password: string) {
    this.calls.push(`unlockDocument ${docId}`);
    if (password !== 'right') {
      this.emit({ type: 'document-failed', docId, failure: { code: 'wrong-password', message: 'the password given does not open it.' } });
      return false;
    }
    // the workspace event arrives after the call's answer, as it may over IPC
    setTimeout(() => this.emit({ type: 'document-opened', docId, info: { pageCount: 3 } }), 0);
    return true;
  }
  async readDocument(): Promise<never> {
    throw new Error('not used');
  }
  async convert(request: ConvertRequest) {
    this.converts.push(request);
  }
  async cancel(docId: string) {
    this.calls.push(`cancel ${docId}`);
  }
  async setEdit(docId: string, page: number, markdown: string | null) {
    this.calls.push(`setEdit ${docId} ${page} ${JSON.stringify(markdown)}`);
    this.emit({ type: 'page-edited', docId, page, markdown });
  }
  async setReviewed(docId: string, page: number, reviewed: boolean) {
    this.emit({ type: 'page-reviewed', docId, page, reviewed });
  }
  async keepVersion(docId: string, page: number, version: number) {
    this.calls.push(`keepVersion ${docId} ${page} ${version}`);
    this.emit({ type: 'version-kept', docId, page, version });
  }
  async getSettings() {
    return this.settings;
  }
  async setSettings(patch: Partial<Settings>) {
    this.settings = { ...this.settings, ...patch };
    return this.settings;
  }
  async chooseExportFolder() {
    return null;
  }
  async defaultExportFolder() {
    return null;
  }
  async exportDocument(): Promise<never> {
    throw new Error('not used');
  }
  async exportTrainingPairs(): Promise<never> {
    throw new Error('not used');
  }
  async hasApiKey() {
    return false;
  }
  async setApiKey(): Promise<never> {
    throw new Error('not used');
  }
  async testRemoteServer(): Promise<never> {
    throw new Error('not used');
  }
  async exportDocuments(): Promise<never> {
    throw new Error('not used');
  }
  async showInFolder() {
    return false;
  }
  async chooseModelFolder() {
    return null;
  }
  async checkModelFolder(folder: string) {
    return { folder, problem: null };
  }
  async useDemoModel(): Promise<never> {
    throw new Error('not used');
  }
  async modelLibrary(): Promise<never> {
    throw new Error('not used');
  }
  async inspectModel(): Promise<never> {
    throw new Error('not used');
  }
  async getModel(): Promise<never> {
    throw new Error('not used');
  }
  async cancelModelDownload(): Promise<never> {
    throw new Error('not used');
  }
  async removeModel(): Promise<never> {
    throw new Error('not used');
  }
  async discardModelDownload(): Promise<never> {
    throw new Error('not used');
  }
  onWorkspaceEvent(listener: (event: WorkspaceEvent) => void) {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  }
  onMenuCommand(_listener: (command: MenuCommand) => void) {
    return () => undefined;
  }
}

function blankDocument(id: string, path: string): WorkspaceDocument {
  return { id, path, name: path.split('/').pop()!, kind: 'pdf', addedAt: '2026-01-01T00:00:00Z', pages: [], converting: false };
}

function pdfFile(name: string): PickedFile {
  return Object.assign(new Blob(['%PDF-1.7']), { name });
}

async function settle(): Promise<void> {
  await vi.advanceTimersByTimeAsync(0);
}

describe('the renderer store', () => {
  let main: FakeMain;
  let clock: number;
  beforeEach(() => {
    vi.useFakeTimers();
    main = new FakeMain();
    clock = 0;
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  async function connectedStore() {
    const store = createFolioStore(main, { now: () => clock, batchMs: 0 });
    await store.getState().connect();
    return store;
  }

  it('loads the saved workspace and follows streamed events with the shared reducer', async () => {
    main.emit({ type: 'document-added', document: blankDocument('saved', '/a.pdf') });
    main.emit({ type: 'document-opened', docId: 'saved', info: { pageCount: 2 } });
    const store = await connectedStore();
    expect(store.getState().selectedDocId).toBe('saved');
    main.emit({ type: 'pages-queued', docId: 'saved', pages: [1, 2] });
    main.emit({ type: 'page-started', docId: 'saved', page: 1 });
    main.emit({ type: 'page-delta', docId: 'saved', page: 1, text: '# Hel' });
    main.emit({ type: 'page-delta', docId: 'saved', page: 1, text: 'lo' });
    expect(findPage(store.getState().workspace, 'saved', 1)).toMatchObject({ state: 'converting', engineMarkdown: '# Hello' });
    expect(store.getState().workspace).toEqual(main.workspace);
  });

  it('asks main about the device again when the device setting changes, so the status bar follows it', async () => {
    const store = await connectedStore();
    await vi.waitFor(() => expect(store.getState().appInfo?.device).toBe('cpu'));
    await store.getState().updateSettings({ device: 'webgpu' });
    await vi.waitFor(() => expect(store.getState().appInfo).toMatchObject({ device: 'webgpu', deviceReason: 'webgpu was asked for' }));
  });

  it('keeps the latest of two quick settings changes when the first one\'s answer comes last', async () => {
    const store = await connectedStore();
    const answers: Array<() => void> = [];
    const write = main.setSettings.bind(main);
    // main answers each write only when the test says, so the first answer can arrive after the second change
    main.setSettings = (patch) => new Promise((resolve) => answers.push(() => void write(patch).then(resolve)));
    const first = store.getState().updateSettings({ pageShare: 0.42 });
    const second = store.getState().updateSettings({ pageShare: 0.44 });
    expect(store.getState().settings.pageShare).toBe(0.44);
    answers[0]!();
    await first;
    expect(store.getState().settings.pageShare).toBe(0.44);
    answers[1]!();
    await second;
    expect(store.getState().settings.pageShare).toBe(0.44);
  });

  it('opens dropped files, selects the first and converts each once it has opened', async () => {
    const store = await connectedStore();
    await store.getState().openFiles([pdfFile('a.pdf'), pdfFile('b.pdf')]);
    await settle();
    expect(store.getState().selectedDocId).toBe('doc-1');
    expect(main.converts).toEqual([{ docId: 'doc-1' }, { docId: 'doc-2' }]);
  });

  it('does not convert a document that failed to open', async () => {
    const store = await connectedStore();
    main.openDocuments = async (paths) => {
      main.emit({ type: 'document-added', document: blankDocument('bad', paths[0]!) });
      main.emit({ type: 'document-failed', docId: 'bad', failure: { code: 'damaged', message: 'The file is damaged.' } });
      return ['bad'];
    };
    await store.getState().openFiles([pdfFile('bad.pdf')]);
    expect(main.converts).toEqual([]);
    expect(store.getState().workspace.documents[0]?.failure?.message).toBe('The file is damaged.');
  });

  it('keeps an encrypted document’s password for its preview, converts it once unlocked, and keeps the password while its removal can be undone', async () => {
    const store = await connectedStore();
    main.openDocuments = async (paths) => {
      main.emit({ type: 'document-added', document: blankDocument('locked', paths[0]!) });
      main.emit({ type: 'document-failed', docId: 'locked', failure: { code: 'encrypted', message: 'encrypted.' } });
      return ['locked'];
    };
    await store.getState().openFiles([pdfFile('locked.pdf')]);
    await store.getState().unlockDocument('locked', 'wrong');
    await settle();
    expect(main.converts).toEqual([]);
    expect(store.getState().workspace.documents[0]?.failure?.code).toBe('wrong-password');

    const unlocked = store.getState().unlockDocument('locked', 'right');
    await settle();
    await unlocked;
    expect(main.converts).toEqual([{ docId: 'locked' }]);
    expect(store.getState().workspace.documents[0]?.failure).toBeUndefined();
    expect(store.getState().passwords).toEqual({ locked: 'right' });
    await store.getState().removeDocument('locked');
    await store.getState().restoreDocument('locked');
    expect(store.getState().passwords).toEqual({ locked: 'right' });
  });

  it('asks before removing a document with edits or review marks, and puts it back with them on undo', async () => {
    main.emit({ type: 'document-added', document: blankDocument('a', '/a.pdf') });
    main.emit({ type: 'document-opened', docId: 'a', info: { pageCount: 2 } });
    main.emit({ type: 'page-done', docId: 'a', result: pageResult(1, 'engine') });
    main.emit({ type: 'document-added', document: blankDocument('b', '/b.pdf') });
    main.emit({ type: 'document-opened', docId: 'b', info: { pageCount: 1 } });
    const store = await connectedStore();
    store.getState().editPage('a', 1, 'typed just before');
    await store.getState().askToRemove('a');
    expect(store.getState().removing).toBe('a');
    store.getState().cancelRemove();
    expect(store.getState().removing).toBeNull();
    expect(main.calls).toEqual([]);

    await store.getState().askToRemove('a');
    await store.getState().removeDocument('a');
    // the edit waiting for its pause was saved first, so it is among what an undo brings back
    expect(main.calls).toEqual(['setEdit a 1 "typed just before"', 'removeDocument a']);
    expect(store.getState().workspace.documents.map((document) => document.id)).toEqual(['b']);
    expect(store.getState().workspace.removed?.map((entry) => entry.document.name)).toEqual(['a.pdf']);
    expect(store.getState().selectedDocId).toBe('b');
    expect(store.getState().removing).toBeNull();

    await store.getState().restoreDocument('a');
    expect(store.getState().workspace.documents.map((document) => document.id)).toEqual(['a', 'b']);
    expect(findPage(store.getState().workspace, 'a', 1)?.editedMarkdown).toBe('typed just before');
    expect(store.getState().workspace.removed).toEqual([]);
    expect(store.getState().selectedDocId).toBe('a');
    expect(store.getState().workspace).toEqual(main.workspace);
  });

  it('leaves the edits of a removed document to its own undo, and undoes them once it is back', async () => {
    main.emit({ type: 'document-added', document: blankDocument('a', '/a.pdf') });
    main.emit({ type: 'document-opened', docId: 'a', info: { pageCount: 1 } });
    main.emit({ type: 'page-done', docId: 'a', result: pageResult(1, 'engine') });
    const store = await connectedStore();
    store.getState().editPage('a', 1, 'mine');
    await store.getState().removeDocument('a');
    expect(await store.getState().undo()).toBe(true);
    expect(store.getState().notice).toBe('That edit is in a.pdf, which was removed; put it back with Undo beside its name in the list to undo its edits.');
    expect(store.getState().selectedDocId).toBeNull();
    await store.getState().restoreDocument('a');
    expect(await store.getState().undo()).toBe(true);
    expect(findPage(main.workspace, 'a', 1)?.editedMarkdown).toBeUndefined();
  });

  it('removes a document without edits or review marks at once, and keeps it listed when main refuses', async () => {
    main.emit({ type: 'document-added', document: blankDocument('a', '/a.pdf') });
    main.emit({ type: 'document-opened', docId: 'a', info: { pageCount: 1 } });
    main.emit({ type: 'page-done', docId: 'a', result: pageResult(1, 'engine only') });
    const store = await connectedStore();
    main.removeDocument = async () => {
      throw new Error('the bridge closed');
    };
    await store.getState().askToRemove('a');
    expect(store.getState().removing).toBeNull();
    expect(store.getState().notice).toBe('The document could not be removed: the bridge closed');
    expect(store.getState().workspace.documents).toHaveLength(1);
  });

  it('says when a dropped file is already open, by name or as the same bytes under another, and shows it', async () => {
    const store = await connectedStore();
    await store.getState().openFiles([pdfFile('a.pdf'), pdfFile('b.pdf')]);
    expect(store.getState().info).toBeNull();
    main.openDocuments = async () => ['doc-2', 'doc-1'];
    await store.getState().openFiles([pdfFile('b.pdf'), pdfFile('copy of a.pdf')]);
    expect(store.getState().info).toBe(
      'b.pdf is already open; it is shown instead of being added twice. copy of a.pdf is the same file as a.pdf, which is already open; it is shown instead of being added twice.',
    );
    expect(store.getState().selectedDocId).toBe('doc-2');
    expect(store.getState().workspace.documents).toHaveLength(2);
  });

  it('shows an edit at once and saves it after a pause in typing, once', async () => {
    main.emit({ type: 'document-added', document: blankDocument('d', '/d.pdf') });
    main.emit({ type: 'document-opened', docId: 'd', info: { pageCount: 1 } });
    main.emit({ type: 'page-done', docId: 'd', result: pageResult(1, 'engine text') });
    const store = await connectedStore();
    store.getState().editPage('d', 1, 'my tex');
    store.getState().editPage('d', 1, 'my text');
    expect(findPage(store.getState().workspace, 'd', 1)?.editedMarkdown).toBe('my text');
    expect(main.calls).toEqual([]);
    expect(store.getState().unsavedEdits).toBe(1);
    await vi.advanceTimersByTimeAsync(EDIT_SAVE_DELAY_MS);
    expect(main.calls).toEqual(['setEdit d 1 "my text"']);
    expect(store.getState().unsavedEdits).toBe(0);
  });

  it('flushes an edit still waiting for its pause', async () => {
    main.emit({ type: 'document-added', document: blankDocument('d', '/d.pdf') });
    main.emit({ type: 'document-opened', docId: 'd', info: { pageCount: 1 } });
    const store = await connectedStore();
    store.getState().editPage('d', 1, 'typed');
    await store.getState().flushEdits();
    expect(main.calls).toEqual(['setEdit d 1 "typed"']);
    await vi.advanceTimersByTimeAsync(EDIT_SAVE_DELAY_MS * 2);
    expect(main.calls).toHaveLength(1);
  });

  it('undoes a revert and redoes it, saving each step', async () => {
    main.emit({ type: 'document-added', document: blankDocument('d', '/d.pdf') });
    main.emit({ type: 'document-opened', docId: 'd', info: { pageCount: 1 } });
    main.emit({ type: 'page-done', docId: 'd', result: pageResult(1, 'engine') });
    main.emit({ type: 'page-edited', docId: 'd', page: 1, markdown: 'mine' });
    const store = await connectedStore();
    await store.getState().revertPage('d', 1);
    expect(findPage(store.getState().workspace, 'd', 1)?.editedMarkdown).toBeUndefined();
    expect(await store.getState().undo()).toBe(true);
    expect(findPage(store.getState().workspace, 'd', 1)?.editedMarkdown).toBe('mine');
    expect(findPage(main.workspace, 'd', 1)?.editedMarkdown).toBe('mine');
    expect(await store.getState().redo()).toBe(true);
    expect(findPage(main.workspace, 'd', 1)?.editedMarkdown).toBeUndefined();
    expect(await store.getState().redo()).toBe(false);
  });

  it('keeps another version of a page, and undoes and redoes that like an edit, saving each step', async () => {
    main.emit({ type: 'document-added', document: blankDocument('d', '/d.pdf') });
    main.emit({ type: 'document-opened', docId: 'd', info: { pageCount: 1 } });
    main.emit({ type: 'page-done', docId: 'd', result: pageResult(1, 'text layer') });
    main.emit({ type: 'page-done', docId: 'd', result: pageResult(1, 'model') });
    const store = await connectedStore();
    store.getState().editPage('d', 1, 'model, corrected');
    await store.getState().keepVersion('d', 1, 1);
    // the edit waiting for its pause was saved first, as a version of its own
    expect(main.calls).toEqual(['setEdit d 1 "model, corrected"', 'keepVersion d 1 1']);
    const page = () => findPage(store.getState().workspace, 'd', 1)!;
    expect(pageMarkdown(page())).toBe('text layer');
    expect(pageVersions(page()).map((version) => version.markdown)).toEqual(['text layer', 'model', 'model, corrected']);

    expect(await store.getState().undo()).toBe(true);
    expect(pageMarkdown(page())).toBe('model, corrected');
    expect(pageMarkdown(findPage(main.workspace, 'd', 1)!)).toBe('model, corrected');
    expect(await store.getState().redo()).toBe(true);
    expect(pageMarkdown(findPage(main.workspace, 'd', 1)!)).toBe('text layer');
    expect(main.calls.slice(2)).toEqual(['keepVersion d 1 3', 'keepVersion d 1 1']);
    expect(store.getState().workspace).toEqual(main.workspace);
  });

  it('applies a burst of streamed events together, in order', async () => {
    main.emit({ type: 'document-added', document: blankDocument('d', '/d.pdf') });
    main.emit({ type: 'document-opened', docId: 'd', info: { pageCount: 1 } });
    const store = createFolioStore(main, { batchMs: 30 });
    await store.getState().connect();
    const updates = vi.fn();
    store.subscribe(updates);
    main.emit({ type: 'pages-queued', docId: 'd', pages: [1] });
    main.emit({ type: 'page-started', docId: 'd', page: 1 });
    for (const text of ['a', 'b', 'c']) main.emit({ type: 'page-delta', docId: 'd', page: 1, text });
    expect(updates).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(30);
    expect(updates).toHaveBeenCalledTimes(1);
    expect(findPage(store.getState().workspace, 'd', 1)?.engineMarkdown).toBe('abc');
    // a change made here lands after what main already said
    store.getState().editPage('d', 1, 'mine');
    main.emit({ type: 'page-delta', docId: 'd', page: 1, text: 'd' });
    await store.getState().setReviewed('d', 1, true);
    expect(findPage(store.getState().workspace, 'd', 1)).toMatchObject({ engineMarkdown: 'abcd', editedMarkdown: 'mine', reviewed: true });
  });

  it('times the pages of a run for the progress bar', async () => {
    main.emit({ type: 'document-added', document: blankDocument('d', '/d.pdf') });
    main.emit({ type: 'document-opened', docId: 'd', info: { pageCount: 2 } });
    const store = await connectedStore();
    clock = 1000;
    main.emit({ type: 'pages-queued', docId: 'd', pages: [1, 2] });
    clock = 3000;
    main.emit({ type: 'page-done', docId: 'd', result: pageResult(1, 'a') });
    expect(store.getState().runs['d']).toEqual({ startedAt: 1000, finishedAt: [3000] });
  });

  it('times a document that waited its turn from when it began converting', async () => {
    main.emit({ type: 'document-added', document: blankDocument('a', '/a.pdf') });
    main.emit({ type: 'document-opened', docId: 'a', info: { pageCount: 1 } });
    main.emit({ type: 'document-added', document: blankDocument('b', '/b.pdf') });
    main.emit({ type: 'document-opened', docId: 'b', info: { pageCount: 1 } });
    const store = await connectedStore();
    clock = 1000;
    main.emit({ type: 'pages-queued', docId: 'a', pages: [1] });
    main.emit({ type: 'queue-changed', docIds: ['a'] });
    main.emit({ type: 'pages-queued', docId: 'b', pages: [1] });
    main.emit({ type: 'queue-changed', docIds: ['a', 'b'] });
    clock = 90_000;
    main.emit({ type: 'page-done', docId: 'a', result: pageResult(1, 'a') });
    main.emit({ type: 'convert-done', docId: 'a', cancelled: false });
    main.emit({ type: 'pages-queued', docId: 'b', pages: [1] });
    main.emit({ type: 'queue-changed', docIds: ['b'] });
    expect(store.getState().runs['b']).toEqual({ startedAt: 90_000, finishedAt: [] });
    expect(store.getState().workspace.queue).toEqual(['b']);
  });

  it('keeps what the engine does before a page (opening the model) for the progress bar while it lasts', async () => {
    main.emit({ type: 'document-added', document: blankDocument('d', '/d.pdf') });
    main.emit({ type: 'document-opened', docId: 'd', info: { pageCount: 1 } });
    const store = await connectedStore();
    main.emit({ type: 'pages-queued', docId: 'd', pages: [1] });
    main.emit({ type: 'engine-preparing', docId: 'd', page: 1, detail: 'opening the model (measuring cpu, 1 of 2)', bytes: 3_000_000 });
    expect(store.getState().runs['d']?.preparing).toBe('opening the model (measuring cpu, 1 of 2)');
    main.emit({ type: 'engine-ready', docId: 'd', page: 1 });
    expect(store.getState().runs['d']?.preparing).toBeUndefined();
  });

  it('tells the person when main could not save the workspace, and keeps the page it was saving', async () => {
    main.emit({ type: 'document-added', document: blankDocument('d', '/d.pdf') });
    main.emit({ type: 'document-opened', docId: 'd', info: { pageCount: 1 } });
    const store = await connectedStore();
    main.emit({ type: 'page-done', docId: 'd', result: pageResult(1, 'kept') });
    main.emit({ type: 'save-failed', message: 'Folio could not save the workspace: the disk holding /data is full. Nothing is lost.' });
    await settle();
    const failures = store.getState().saveFailures;
    expect(saveNoticeText(failures)).toBe('Folio could not save the workspace: the disk holding /data is full. Nothing is lost.');
    expect(saveStatusText(saveState(store.getState().unsavedEdits, failures))).toBe('Not saved: the workspace');
    expect(store.getState().workspace.documents[0]!.pages[0]!.engineMarkdown).toBe('kept');
  });

  it('says an edit is not saved while main cannot be reached, in the notice and the status alike, until a retry saves it', async () => {
    main.emit({ type: 'document-added', document: blankDocument('d', '/d.pdf') });
    main.emit({ type: 'document-opened', docId: 'd', info: { pageCount: 2 } });
    main.emit({ type: 'page-done', docId: 'd', result: pageResult(2, 'engine text') });
    const store = await connectedStore();
    const setEdit = main.setEdit.bind(main);
    main.setEdit = async () => {
      throw new Error('The Folio bridge closed the connection');
    };
    store.getState().editPage('d', 2, 'my text');
    await vi.advanceTimersByTimeAsync(EDIT_SAVE_DELAY_MS);
    const state = () => saveState(store.getState().unsavedEdits, store.getState().saveFailures);
    expect(saveStatusText(state())).toBe('Not saved: page 2');
    expect(saveNoticeText(store.getState().saveFailures)).toBe(
      'Page 2 could not be saved (The Folio bridge closed the connection). Your changes are kept in this window: keep it open and try again.',
    );
    // typing on does not make it look saved while saves still fail
    store.getState().editPage('d', 2, 'my text, longer');
    await vi.advanceTimersByTimeAsync(EDIT_SAVE_DELAY_MS);
    expect(saveStatusText(state())).toBe('Not saved: page 2');
    main.setEdit = setEdit;
    await store.getState().retrySaves();
    expect(main.calls).toContain('setEdit d 2 "my text, longer"');
    expect(store.getState().saveFailures).toEqual([]);
    expect(saveStatusText(state())).toBe('All changes saved');
  });

  it('tells the person when main refuses an action', async () => {
    const store = await connectedStore();
    main.cancel = async () => {
      throw new Error('no conversion is running');
    };
    await store.getState().cancel('d');
    expect(store.getState().notice).toBe('The conversion could not be cancelled: no conversion is running');
  });
});

function pageResult(page: number, markdown: string) {
  return {
    page,
    width: 612,
    height: 792,
    markdown,
    blocks: [],
    images: [],
    stats: { engine: 'text' as const, device: 'cpu', timeMs: 5, chars: markdown.length },
  };
}
