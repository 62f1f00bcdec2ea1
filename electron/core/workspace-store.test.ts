import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { afterEach, describe, expect, it } from 'vitest';
import type { PageResult } from '../../shared/page.js';
import type { WorkspaceDocument, WorkspaceEvent } from '../../shared/workspace.js';
import { WorkspaceStore } from './workspace-store.js';

const root = path.resolve(import.meta.dirname, '../..');
const builtStore = path.join(root, 'dist/electron/core/workspace-store.js');

const folders: string[] = [];
afterEach(async () => {
  await Promise.all(folders.splice(0).map((folder) => rm(folder, { recursive: true, force: true })));
});

async function tempFolder(): Promise<string> {
  const folder = await mkdtemp(path.join(os.tmpdir(), 'folio-store-'));
  folders.push(folder);
  return folder;
}

function newDocument(id: string): WorkspaceDocument {
  return { id, path: `/docs/${id}.pdf`, name: `${id}.pdf`, kind: 'pdf', addedAt: '2026-01-01T00:00:00.000Z', pages: [], converting: false };
}

function pageResult(page: number, markdown: string, imageBytes?: Uint8Array): PageResult {
  return {
    page,
    width: 612,
    height: 792,
    markdown,
    blocks: [],
    images: imageBytes ? [{ name: `page-${page}-image-1.png`, bbox: [0, 0, 10, 10], mime: 'image/png', data: imageBytes }] : [],
    stats: { engine: 'text', device: 'cpu', timeMs: 1, chars: markdown.length },
  };
}

/** Applies events in order and waits until the last is on disk. */
async function applyAll(store: WorkspaceStore, events: WorkspaceEvent[]): Promise<void> {
  const saves = events.map((event) => store.apply(event).saved);
  await Promise.all(saves);
}

describe('WorkspaceStore', () => {
  it('saves edits and review marks before their promise resolves, and reads them back', async () => {
    const dir = await tempFolder();
    const store = await WorkspaceStore.open(dir);
    await applyAll(store, [
      { type: 'document-added', document: newDocument('a') },
      { type: 'document-opened', docId: 'a', info: { pageCount: 2 } },
    ]);
    await store.apply({ type: 'page-edited', docId: 'a', page: 2, markdown: 'my words' }).saved;
    await store.apply({ type: 'page-reviewed', docId: 'a', page: 1, reviewed: true }).saved;
    // read straight from disk: nothing may be pending in memory once the promises resolved
    const saved = JSON.parse(await readFile(path.join(dir, 'documents/a/document.json'), 'utf8')) as WorkspaceDocument;
    expect(saved.pages[1]!.editedMarkdown).toBe('my words');
    expect(saved.pages[0]!.reviewed).toBe(true);
    const reopened = await WorkspaceStore.open(dir);
    expect(reopened.workspace).toEqual(store.workspace);
  });

  it('keeps image bytes in files beside the workspace, not in its JSON or its events', async () => {
    const dir = await tempFolder();
    const store = await WorkspaceStore.open(dir);
    const bytes = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 1, 2, 3]);
    await applyAll(store, [
      { type: 'document-added', document: newDocument('a') },
      { type: 'document-opened', docId: 'a', info: { pageCount: 1 } },
      { type: 'pages-queued', docId: 'a', pages: [1] },
      { type: 'page-started', docId: 'a', page: 1 },
    ]);
    const { applied, saved } = store.apply({ type: 'page-done', docId: 'a', result: pageResult(1, '![](folio-image:page-1-image-1.png)', bytes) });
    await saved;
    expect(applied.type === 'page-done' && applied.result.images[0]).toEqual({ name: 'page-1-image-1.png', bbox: [0, 0, 10, 10], mime: 'image/png' });
    expect(await readFile(path.join(dir, 'documents/a/pages/1.v1.json'), 'utf8')).not.toContain('"data"');
    expect(await readFile(path.join(dir, 'documents/a/document.json'), 'utf8')).not.toContain('folio-image');
    expect(new Uint8Array(await store.readImage('a', 'page-1-image-1.png'))).toEqual(bytes);
  });

  it('keeps every result and edit of a page as versions on disk; the version kept is the one read back after a restart', async () => {
    const dir = await tempFolder();
    const store = await WorkspaceStore.open(dir);
    const vlm = { ...pageResult(1, 'Th3 t0tal'), stats: { engine: 'vlm' as const, device: 'cpu', model: 'nano-demo', timeMs: 9, chars: 9 } };
    await applyAll(store, [
      { type: 'document-added', document: newDocument('a') },
      { type: 'document-opened', docId: 'a', info: { pageCount: 1 } },
      { type: 'page-done', docId: 'a', result: pageResult(1, 'The total') },
      { type: 'page-edited', docId: 'a', page: 1, markdown: 'The total: 42' },
      { type: 'page-edited', docId: 'a', page: 1, markdown: null },
      { type: 'page-done', docId: 'a', result: vlm },
    ]);
    expect(store.workspace.documents[0]!.pages[0]!.engineMarkdown).toBe('Th3 t0tal');
    expect((await readdir(path.join(dir, 'documents/a/pages'))).sort()).toEqual(['1.v1.json', '1.v3.json']);
    await store.apply({ type: 'version-kept', docId: 'a', page: 1, version: 2 }).saved;

    const reopened = (await WorkspaceStore.open(dir)).workspace.documents[0]!.pages[0]!;
    expect(reopened).toMatchObject({ state: 'done', currentVersion: 2, editedMarkdown: 'The total: 42', engineMarkdown: 'The total' });
    expect(reopened.result?.stats.engine).toBe('text');
    expect(reopened.versions!.map(({ id, engine, model, edited, markdown }) => ({ id, engine, model, edited, markdown }))).toEqual([
      { id: 1, engine: 'text', model: undefined, edited: false, markdown: 'The total' },
      { id: 2, engine: 'text', model: undefined, edited: true, markdown: 'The total: 42' },
      { id: 3, engine: 'vlm', model: 'nano-demo', edited: false, markdown: 'Th3 t0tal' },
    ]);
    // every version says when it was made
    for (const version of reopened.versions!) expect(Date.parse(version.at!)).not.toBeNaN();
    expect(reopened).toEqual(store.workspace.documents[0]!.pages[0]);
  });

  it('deletes the result file of a version pruned from the list', async () => {
    const dir = await tempFolder();
    const store = await WorkspaceStore.open(dir);
    await applyAll(store, [
      { type: 'document-added', document: newDocument('a') },
      { type: 'document-opened', docId: 'a', info: { pageCount: 1 } },
      ...Array.from({ length: 12 }, (_, run): WorkspaceEvent => ({ type: 'page-done', docId: 'a', result: pageResult(1, `run ${run}`) })),
    ]);
    const files = (await readdir(path.join(dir, 'documents/a/pages'))).sort((a, b) => Number(a.slice(3, -5)) - Number(b.slice(3, -5)));
    expect(files).toEqual(Array.from({ length: 10 }, (_, index) => `1.v${index + 3}.json`));
    const reopened = (await WorkspaceStore.open(dir)).workspace.documents[0]!.pages[0]!;
    expect(reopened.versions).toHaveLength(10);
    expect(reopened.engineMarkdown).toBe('run 11');
  });

  it('reads a page saved before versions existed, and keeps its result and edit as versions when it is re-run', async () => {
    const dir = await tempFolder();
    await mkdir(path.join(dir, 'documents/a/pages'), { recursive: true });
    await writeFile(path.join(dir, 'workspace.json'), JSON.stringify({ version: 2, documents: ['a'] }));
    const document = { ...newDocument('a'), info: { pageCount: 1 }, pages: [{ page: 1, state: 'done', reviewed: true, editedMarkdown: 'old, fixed', resultSaved: true }] };
    await writeFile(path.join(dir, 'documents/a/document.json'), JSON.stringify(document));
    await writeFile(path.join(dir, 'documents/a/pages/1.json'), JSON.stringify(pageResult(1, 'old')));
    const store = await WorkspaceStore.open(dir);
    expect(store.workspace.documents[0]!.pages[0]).toMatchObject({ engineMarkdown: 'old', editedMarkdown: 'old, fixed', reviewed: true });
    await store.apply({ type: 'page-done', docId: 'a', result: pageResult(1, 'new') }).saved;

    const reopened = (await WorkspaceStore.open(dir)).workspace.documents[0]!.pages[0]!;
    expect(reopened.versions!.map((version) => [version.id, version.edited, version.markdown])).toEqual([
      [1, false, 'old'],
      [2, true, 'old, fixed'],
      [3, false, 'new'],
    ]);
    // the edit stays shown, now against the new result
    expect(reopened).toMatchObject({ editedMarkdown: 'old, fixed', engineMarkdown: 'new', currentVersion: 2 });
  });

  it('restores a conversion cut off by a crash as resumable: converting pages become pending, finished ones stay', async () => {
    const dir = await tempFolder();
    const store = await WorkspaceStore.open(dir);
    await applyAll(store, [
      { type: 'document-added', document: newDocument('a') },
      { type: 'document-opened', docId: 'a', info: { pageCount: 3 } },
      { type: 'pages-queued', docId: 'a', pages: [1, 2, 3] },
      { type: 'page-started', docId: 'a', page: 1 },
      { type: 'page-done', docId: 'a', result: pageResult(1, 'first') },
      { type: 'page-started', docId: 'a', page: 2 },
      { type: 'page-delta', docId: 'a', page: 2, text: 'half a sent' },
    ]);
    const restored = (await WorkspaceStore.open(dir)).workspace.documents[0]!;
    expect(restored.converting).toBe(false);
    expect(restored.pages.map((page) => [page.state, page.engineMarkdown])).toEqual([
      ['done', 'first'],
      ['pending', ''],
      ['pending', ''],
    ]);
  });

  it('sets a removed document aside until the session ends, and forgets it then, its images included', async () => {
    const dir = await tempFolder();
    const store = await WorkspaceStore.open(dir);
    await applyAll(store, [
      { type: 'document-added', document: newDocument('a') },
      { type: 'document-added', document: newDocument('b') },
      { type: 'document-opened', docId: 'a', info: { pageCount: 1 } },
      { type: 'page-done', docId: 'a', result: pageResult(1, 'x', new Uint8Array([1])) },
    ]);
    await store.apply({ type: 'document-removed', docId: 'a' }).saved;
    expect(await readdir(path.join(dir, 'documents'))).toEqual(['b']);
    expect(await readdir(path.join(dir, 'removed/a'))).toEqual(expect.arrayContaining(['document.json', 'pages', 'images']));
    await store.flush();
    await store.discardRemoved();
    expect(existsSync(path.join(dir, 'removed'))).toBe(false);
    expect((await WorkspaceStore.open(dir)).workspace.documents.map((document) => document.id)).toEqual(['b']);
  });

  it('puts a removed document back where it was, with its edit, review mark, result and image, on disk too', async () => {
    const dir = await tempFolder();
    const store = await WorkspaceStore.open(dir);
    await applyAll(store, [
      { type: 'document-added', document: newDocument('a') },
      { type: 'document-added', document: newDocument('b') },
      { type: 'document-opened', docId: 'a', info: { pageCount: 2 } },
      { type: 'page-done', docId: 'a', result: pageResult(1, 'engine', new Uint8Array([7, 8])) },
      { type: 'page-edited', docId: 'a', page: 1, markdown: 'mine' },
      { type: 'page-reviewed', docId: 'a', page: 2, reviewed: true },
      // removed while page 2 converts: the undo finds it resumable
      { type: 'pages-queued', docId: 'a', pages: [2] },
      { type: 'page-started', docId: 'a', page: 2 },
    ]);
    await store.apply({ type: 'document-removed', docId: 'a' }).saved;
    // a page the cancelled conversion still finishes after the removal changes nothing
    await store.apply({ type: 'page-done', docId: 'a', result: pageResult(2, 'late') }).saved;
    await store.apply({ type: 'document-restored', docId: 'a' }).saved;
    expect(existsSync(path.join(dir, 'removed/a'))).toBe(false);

    const reopened = await WorkspaceStore.open(dir);
    expect(reopened.workspace.documents.map((document) => document.id)).toEqual(['a', 'b']);
    const [first, second] = reopened.workspace.documents[0]!.pages;
    expect(first).toMatchObject({ state: 'done', engineMarkdown: 'engine', editedMarkdown: 'mine' });
    expect(second).toMatchObject({ state: 'pending', reviewed: true });
    expect([...(await reopened.readImage('a', 'page-1-image-1.png'))]).toEqual([7, 8]);
  });

  it('makes the removals of a session that crashed final when it next starts', async () => {
    const dir = await tempFolder();
    const store = await WorkspaceStore.open(dir);
    await applyAll(store, [
      { type: 'document-added', document: newDocument('a') },
      { type: 'document-added', document: newDocument('b') },
    ]);
    await store.apply({ type: 'document-removed', docId: 'a' }).saved;
    // no flush, no discardRemoved: the process died here
    const reopened = await WorkspaceStore.open(dir);
    expect(reopened.workspace.documents.map((document) => document.id)).toEqual(['b']);
    expect(reopened.workspace.removed).toBeUndefined();
    expect(existsSync(path.join(dir, 'removed'))).toBe(false);
    expect(await readdir(path.join(dir, 'documents'))).toEqual(['b']);
  });

  it('leaves out a damaged document file and says which, keeping the rest', async () => {
    const dir = await tempFolder();
    const store = await WorkspaceStore.open(dir);
    await applyAll(store, [
      { type: 'document-added', document: newDocument('a') },
      { type: 'document-added', document: newDocument('b') },
    ]);
    await writeFile(path.join(dir, 'documents/a/document.json'), '{"id": "a", "pag');
    const reopened = await WorkspaceStore.open(dir);
    expect(reopened.workspace.documents.map((document) => document.id)).toEqual(['b']);
    expect(reopened.restoreProblems).toEqual([expect.stringMatching(/documents\/a\/document\.json: could not be read .*left out/)]);
  });

  it('survives kill -9 in the middle of saving: the workspace reads back whole, with every acknowledged edit', async () => {
    if (!existsSync(builtStore)) throw new Error(`${builtStore} is missing; run "npm run build" before this test.`);
    const dir = await tempFolder();
    let cutMidWrite = 0;
    // a kill lands mid-write (a temp file left behind) on about a third of the attempts
    for (let attempt = 0; attempt < 20 && cutMidWrite < 2; attempt++) {
      const acknowledged = await runWriterUntilKilled(dir, 20 + attempt * 15);
      const documents = path.join(dir, 'documents/big');
      if ((await readdir(documents)).some((name) => name.endsWith('.tmp'))) cutMidWrite++;
      const restored = await WorkspaceStore.open(dir);
      expect(restored.restoreProblems).toEqual([]);
      const pages = restored.workspace.documents[0]!.pages;
      expect(pages).toHaveLength(40);
      expect(pages[1]).toMatchObject({ state: 'done', engineMarkdown: 'Engine output' });
      expect(pages[39]!.editedMarkdown).toMatch(/^An edit long enough/);
      const saved = Number(/^edit (\d+)$/.exec(pages[0]!.editedMarkdown ?? '')?.[1]);
      expect(saved).toBeGreaterThanOrEqual(acknowledged);
      expect((await readdir(documents)).filter((name) => name.endsWith('.tmp'))).toEqual([]);
    }
    expect(cutMidWrite).toBe(2);
  });
});

/**
 * A child process saves edit after edit to a large document (so that a save takes a while) and
 * prints each number once its save resolved; `killDelayMs` after its third acknowledgement it gets
 * SIGKILL, usually while the next save is under way. Returns the last number acknowledged.
 */
async function runWriterUntilKilled(dir: string, killDelayMs: number): Promise<number> {
  const script = `
    import { WorkspaceStore } from ${JSON.stringify(builtStore)};
    const store = await WorkspaceStore.open(${JSON.stringify(dir)});
    let number = Number(/^edit (\\d+)$/.exec(store.workspace.documents[0]?.pages[0]?.editedMarkdown ?? '')?.[1] ?? 0);
    if (store.workspace.documents.length === 0) {
      store.apply({ type: 'document-added', document: { id: 'big', path: '/big.pdf', name: 'big.pdf', kind: 'pdf', addedAt: '', pages: [], converting: false } });
      await store.apply({ type: 'document-opened', docId: 'big', info: { pageCount: 40 } }).saved;
      // edits live in the document file itself, so large ones make each of its saves take a while
      const filler = 'An edit long enough to make every save of this document take a while. '.repeat(4000);
      store.apply({ type: 'page-started', docId: 'big', page: 2 });
      store.apply({ type: 'page-done', docId: 'big', result: { page: 2, width: 1, height: 1, markdown: 'Engine output', blocks: [], images: [], stats: { engine: 'text', device: 'cpu', timeMs: 1, chars: 1 } } });
      for (let page = 3; page <= 40; page++) store.apply({ type: 'page-edited', docId: 'big', page, markdown: filler });
    }
    for (;;) {
      number++;
      await store.apply({ type: 'page-edited', docId: 'big', page: 1, markdown: 'edit ' + number }).saved;
      process.stdout.write(number + '\\n');
    }
  `;
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let seen = 0;
  let last = 0;
  // read to the end: closing the pipe early would end the child by EPIPE between saves, not by the kill
  for await (const line of createInterface({ input: child.stdout })) {
    last = Number(line);
    if (++seen === 3) setTimeout(() => child.kill('SIGKILL'), killDelayMs);
  }
  await exited;
  return last;
}
