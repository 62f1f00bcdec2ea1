import { describe, expect, it } from 'vitest';
import type { PageResult } from './page.js';
import {
  EMPTY_WORKSPACE,
  applyWorkspaceEvent,
  pageMarkdown,
  pagesToResume,
  settleInterrupted,
  type Workspace,
  type WorkspaceEvent,
} from './workspace.js';

const docId = 'doc-1';

function result(page: number, markdown: string): PageResult {
  return { page, width: 612, height: 792, markdown, blocks: [], images: [], stats: { engine: 'text', device: 'cpu', timeMs: 5, chars: markdown.length } };
}

function apply(events: WorkspaceEvent[], start: Workspace = EMPTY_WORKSPACE): Workspace {
  return events.reduce(applyWorkspaceEvent, start);
}

const opened: WorkspaceEvent[] = [
  { type: 'document-added', document: { id: docId, path: '/tmp/a.pdf', name: 'a.pdf', kind: 'pdf', addedAt: '2026-11-30T00:00:00Z', pages: [], converting: false } },
  { type: 'document-opened', docId, info: { pageCount: 3 } },
];

function page(workspace: Workspace, number: number) {
  const found = workspace.documents[0]?.pages[number - 1];
  if (!found) throw new Error(`no page ${number}`);
  return found;
}

describe('workspace reducer', () => {
  it('grows a page from its deltas and settles on the final result', () => {
    const streaming = apply([
      ...opened,
      { type: 'pages-queued', docId, pages: [1, 2, 3] },
      { type: 'page-started', docId, page: 1 },
      { type: 'page-delta', docId, page: 1, text: '# Ti' },
      { type: 'page-delta', docId, page: 1, text: 'tle\n' },
    ]);
    expect(page(streaming, 1)).toMatchObject({ state: 'converting', engineMarkdown: '# Title\n' });
    expect(page(streaming, 2).state).toBe('queued');
    const done = applyWorkspaceEvent(streaming, { type: 'page-done', docId, result: result(1, '# Title\n\nBody.') });
    expect(page(done, 1)).toMatchObject({ state: 'done', engineMarkdown: '# Title\n\nBody.' });
    const late = applyWorkspaceEvent(done, { type: 'page-delta', docId, page: 1, text: 'Body.' });
    expect(page(late, 1).engineMarkdown).toBe('# Title\n\nBody.');
  });

  it('keeps edits across a re-run and drops an edit equal to the engine output', () => {
    const edited = apply([
      ...opened,
      { type: 'page-done', docId, result: result(2, 'teh cat') },
      { type: 'page-edited', docId, page: 2, markdown: 'the cat' },
      { type: 'page-started', docId, page: 2 },
      { type: 'page-done', docId, result: result(2, 'the cot') },
    ]);
    expect(pageMarkdown(page(edited, 2))).toBe('the cat');
    const rerun = applyWorkspaceEvent(edited, { type: 'page-done', docId, result: result(2, 'the cat') });
    expect(page(rerun, 2).editedMarkdown).toBeUndefined();
    const reverted = applyWorkspaceEvent(edited, { type: 'page-edited', docId, page: 2, markdown: null });
    expect(pageMarkdown(page(reverted, 2))).toBe('the cot');
  });

  it('keeps the text a page had when its re-run fails, and every result as a version', () => {
    const failed = apply([
      ...opened,
      { type: 'page-done', docId, result: result(1, 'Good text.') },
      { type: 'pages-queued', docId, pages: [1] },
      { type: 'page-started', docId, page: 1 },
      { type: 'page-delta', docId, page: 1, text: 'Garb' },
      { type: 'page-failed', docId, page: 1, failure: { code: 'engine-crashed', message: 'The engine crashed' } },
    ]);
    expect(page(failed, 1)).toMatchObject({ state: 'failed', engineMarkdown: 'Good text.' });
    expect(pageMarkdown(page(failed, 1))).toBe('Good text.');
    const kept = applyWorkspaceEvent(failed, { type: 'version-kept', docId, page: 1, version: 1 });
    expect(page(kept, 1)).toMatchObject({ state: 'done', engineMarkdown: 'Good text.', currentVersion: 1 });
  });

  it('puts unfinished pages back on cancel, keeping a re-run page its earlier output', () => {
    const cancelled = apply([
      ...opened,
      { type: 'page-done', docId, result: result(1, 'one') },
      { type: 'pages-queued', docId, pages: [1, 2, 3] },
      { type: 'page-started', docId, page: 1 },
      { type: 'page-delta', docId, page: 1, text: 'on' },
      { type: 'convert-done', docId, cancelled: true },
    ]);
    expect(page(cancelled, 1)).toMatchObject({ state: 'done', engineMarkdown: 'one' });
    expect(page(cancelled, 2)).toMatchObject({ state: 'pending', engineMarkdown: '' });
    expect(cancelled.documents[0]?.converting).toBe(false);
    expect(pagesToResume(cancelled.documents[0]!)).toEqual([2, 3]);
  });

  it('makes a workspace saved mid-conversion resumable after a crash', () => {
    const saved = apply([...opened, { type: 'pages-queued', docId, pages: [1, 2] }, { type: 'page-started', docId, page: 1 }, { type: 'page-delta', docId, page: 1, text: 'half' }]);
    const restored = settleInterrupted(saved);
    expect(restored.documents[0]?.converting).toBe(false);
    expect(restored.documents[0]?.pages.map((p) => [p.state, p.engineMarkdown])).toEqual([['pending', ''], ['pending', ''], ['pending', '']]);
  });

  it('keeps converted pages when a document is reopened and ignores events for unknown documents', () => {
    const converted = apply([...opened, { type: 'page-done', docId, result: result(3, 'three') }, { type: 'page-reviewed', docId, page: 3, reviewed: true }]);
    const reopened = applyWorkspaceEvent(converted, { type: 'document-opened', docId, info: { pageCount: 3 } });
    expect(page(reopened, 3)).toMatchObject({ engineMarkdown: 'three', reviewed: true });
    expect(applyWorkspaceEvent(reopened, { type: 'page-delta', docId: 'other', page: 1, text: 'x' })).toBe(reopened);
  });

  it('keeps a removed document for an undo that puts it back where it was, resumable, and only once', () => {
    const second: WorkspaceEvent = { type: 'document-added', document: { id: 'doc-2', path: '/tmp/b.pdf', name: 'b.pdf', kind: 'pdf', addedAt: '2026-11-30T00:00:00Z', pages: [], converting: false } };
    const converting = apply([...opened, second, { type: 'pages-queued', docId, pages: [1, 2] }, { type: 'page-started', docId, page: 1 }, { type: 'page-edited', docId, page: 3, markdown: 'mine' }]);
    const removed = apply([{ type: 'document-removed', docId }], converting);
    expect(removed.documents.map((document) => document.id)).toEqual(['doc-2']);
    expect(removed.removed).toEqual([{ document: converting.documents[0], index: 0 }]);
    // a second removal of it, or an event for it, changes nothing
    expect(apply([{ type: 'document-removed', docId }, { type: 'page-delta', docId, page: 1, text: 'late' }], removed)).toEqual(removed);

    const restored = apply([{ type: 'document-restored', docId }], removed);
    expect(restored.documents.map((document) => document.id)).toEqual([docId, 'doc-2']);
    expect(restored.removed).toEqual([]);
    expect(restored.documents[0]!.converting).toBe(false);
    expect(restored.documents[0]!.pages.map((candidate) => candidate.state)).toEqual(['pending', 'pending', 'pending']);
    expect(page(restored, 3).editedMarkdown).toBe('mine');
    expect(apply([{ type: 'document-restored', docId }], restored)).toBe(restored);
  });

  it('keeps the queue order main announces, beside the documents', () => {
    const queued = apply([...opened, { type: 'queue-changed', docIds: [docId] }]);
    expect(queued.queue).toEqual([docId]);
    expect(apply([{ type: 'page-done', docId, result: result(1, 'x') }], queued).queue).toEqual([docId]);
  });
});
