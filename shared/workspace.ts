/**
 * The workspace: every open document, its pages' engine output, the user's edits and review marks.
 * One pure reducer applies events to it, in main (which saves each result) and in the renderer
 * (which draws it), so both hold the same state by construction.
 */

import type { Failure } from './failure.js';
import type { ConversionEvent } from './page-event.js';
import type { DocumentInfo } from './protocol.js';
import { shownEngineMarkdown, withEdit, withResult, withVersionKept } from './page-versions.js';
import type { PageState, WorkspacePage } from './workspace-page.js';

export type { PageState, WorkspacePage } from './workspace-page.js';

export type DocumentKind = 'pdf' | 'image';

export interface WorkspaceDocument {
  id: string;
  path: string;
  /** The file name, for display. */
  name: string;
  kind: DocumentKind;
  /** ISO time the user added it. */
  addedAt: string;
  info?: DocumentInfo;
  /** Why the document could not be opened (damaged, encrypted...). */
  failure?: Failure;
  /** One per page once the document is open, in page order. */
  pages: WorkspacePage[];
  converting: boolean;
}

export interface Workspace {
  documents: WorkspaceDocument[];
  /**
   * Documents removed in this session, newest last, with where they stood in the list: kept (in
   * memory, and their files set aside on disk) until the session ends, so a removal can be undone.
   * Never saved: a removal becomes final when the app quits or, after a crash, when it next starts.
   */
  removed?: RemovedDocument[];
  /** The conversion queue, in order: the converting document first, then those waiting. Never saved. */
  queue?: string[];
}

export interface RemovedDocument {
  document: WorkspaceDocument;
  /** Its place in the list when it was removed, for an undo to put it back there. */
  index: number;
}

export const EMPTY_WORKSPACE: Workspace = { documents: [] };

export type WorkspaceEvent =
  | { type: 'document-added'; document: WorkspaceDocument }
  | { type: 'document-removed'; docId: string }
  /** A document removed in this session put back, with its edits and review marks. */
  | { type: 'document-restored'; docId: string }
  /** The conversion queue changed: the document converting first, then those waiting, in order. */
  | { type: 'queue-changed'; docIds: string[] }
  | { type: 'document-opened'; docId: string; info: DocumentInfo }
  | { type: 'document-failed'; docId: string; failure: Failure }
  | { type: 'pages-queued'; docId: string; pages: number[] }
  | ConversionEvent
  /** `at`: the ISO time of the edit, for its version. */
  | { type: 'page-edited'; docId: string; page: number; markdown: string | null; at?: string }
  /** The person chose which of the page's versions it shows (shared/page-versions.ts). */
  | { type: 'version-kept'; docId: string; page: number; version: number }
  | { type: 'page-reviewed'; docId: string; page: number; reviewed: boolean }
  /** Main could not save the workspace (a full disk): nothing changes in it, the user is told why. */
  | { type: 'save-failed'; message: string };

export function applyWorkspaceEvent(workspace: Workspace, event: WorkspaceEvent): Workspace {
  switch (event.type) {
    case 'document-added':
      if (workspace.documents.some((document) => document.id === event.document.id)) return workspace;
      return { ...workspace, documents: [...workspace.documents, event.document] };
    case 'document-removed': {
      const index = workspace.documents.findIndex((document) => document.id === event.docId);
      if (index < 0) return workspace;
      const removed = { document: workspace.documents[index]!, index };
      return { ...workspace, documents: workspace.documents.filter((_, at) => at !== index), removed: [...(workspace.removed ?? []), removed] };
    }
    case 'document-restored': {
      const removed = workspace.removed?.find((entry) => entry.document.id === event.docId);
      if (!removed || workspace.documents.some((document) => document.id === event.docId)) return workspace;
      // its conversion was cancelled with the removal: unfinished pages are resumable, as after a crash
      const document = { ...removed.document, converting: false, pages: removed.document.pages.map(settlePage) };
      const documents = workspace.documents.slice();
      documents.splice(Math.min(removed.index, documents.length), 0, document);
      return { ...workspace, documents, removed: workspace.removed!.filter((entry) => entry !== removed) };
    }
    case 'queue-changed':
      return { ...workspace, queue: event.docIds };
    case 'document-opened':
      return updateDocument(workspace, event.docId, (document) => ({
        ...document,
        info: event.info,
        failure: undefined,
        // reopening keeps what was converted and edited
        pages: document.pages.length === event.info.pageCount ? document.pages : freshPages(event.info.pageCount),
      }));
    case 'document-failed':
      return updateDocument(workspace, event.docId, (document) => ({ ...document, failure: event.failure, converting: false }));
    case 'pages-queued': {
      const queued = new Set(event.pages);
      return updateDocument(workspace, event.docId, (document) => ({
        ...document,
        converting: true,
        pages: document.pages.map((page) => (queued.has(page.page) ? { ...page, state: 'queued' as const, failure: undefined } : page)),
      }));
    }
    case 'engine-preparing':
    case 'engine-ready':
      // what the engine does before a page is the run's to show (the renderer's), not the document's to keep
      return workspace;
    case 'page-started':
      return updatePage(workspace, event.docId, event.page, (page) => ({ ...page, state: 'converting', engineMarkdown: '', failure: undefined }));
    case 'page-delta':
      // deltas may travel on another channel than the page's start and end: a late one is stale
      return updatePage(workspace, event.docId, event.page, (page) =>
        page.state === 'converting' ? { ...page, engineMarkdown: page.engineMarkdown + event.text } : page,
      );
    case 'page-done':
      // the previous result stays a version: a re-run never destroys the only good text
      return updatePage(workspace, event.docId, event.result.page, (page) => ({ ...withResult(page, event.result, event.at), state: 'done' }));
    case 'page-failed':
      // a failed re-run shows the text the page had before it
      return updatePage(workspace, event.docId, event.page, (page) => ({ ...page, state: 'failed', failure: event.failure, engineMarkdown: shownEngineMarkdown(page) }));
    case 'convert-done':
      return updateDocument(workspace, event.docId, (document) => ({ ...document, converting: false, pages: document.pages.map(settlePage) }));
    case 'page-edited':
      return updatePage(workspace, event.docId, event.page, (page) => withEdit(page, event.markdown, event.at));
    case 'version-kept':
      return updatePage(workspace, event.docId, event.page, (page) => withVersionKept(page, event.version));
    case 'page-reviewed':
      return updatePage(workspace, event.docId, event.page, (page) => ({ ...page, reviewed: event.reviewed }));
    case 'save-failed':
      return workspace;
  }
}

/** After a crash or a killed process nothing is converting: unfinished pages become resumable. */
export function settleInterrupted(workspace: Workspace): Workspace {
  return {
    documents: workspace.documents.map((document) => ({ ...document, converting: false, pages: document.pages.map(settlePage) })),
  };
}

/** What the page shows and exports: the user's Markdown when they edited it, else the engine's. */
export function pageMarkdown(page: WorkspacePage): string {
  return page.editedMarkdown ?? page.engineMarkdown;
}

/** Pages a resume converts: every page not done yet. */
export function pagesToResume(document: WorkspaceDocument): number[] {
  return document.pages.filter((page) => page.state !== 'done').map((page) => page.page);
}

function settlePage(page: WorkspacePage): WorkspacePage {
  if (page.state !== 'queued' && page.state !== 'converting') return page;
  // a page cut off mid-stream keeps no half output, so it is never mistaken for a finished one
  return { ...page, state: page.result ? 'done' : 'pending', engineMarkdown: page.result?.markdown ?? '' };
}

function freshPages(count: number): WorkspacePage[] {
  return Array.from({ length: count }, (_, index) => ({ page: index + 1, state: 'pending', engineMarkdown: '', reviewed: false }));
}

function updateDocument(workspace: Workspace, docId: string, change: (document: WorkspaceDocument) => WorkspaceDocument): Workspace {
  let changed = false;
  const documents = workspace.documents.map((document) => {
    if (document.id !== docId) return document;
    changed = true;
    return change(document);
  });
  return changed ? { ...workspace, documents } : workspace;
}

function updatePage(workspace: Workspace, docId: string, pageNumber: number, change: (page: WorkspacePage) => WorkspacePage): Workspace {
  return updateDocument(workspace, docId, (document) => {
    const index = pageNumber - 1;
    const page = document.pages[index];
    if (!page) return document;
    const pages = document.pages.slice();
    pages[index] = change(page);
    return { ...document, pages };
  });
}
