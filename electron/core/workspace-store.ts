/**
 * The workspace on disk, in the app's data folder: every event is applied with the shared reducer
 * and what it changed is saved as it happens, atomically (temp file, fsync, rename), so a crash or
 * a kill -9 leaves either the previous save or the new one. Layout:
 *   workspace.json                   the documents' order
 *   documents/<id>/document.json     pages' states, edits, review marks, failures
 *   documents/<id>/pages/<n>.v<k>.json  version k of page n's engine result (shared/page-versions.ts),
 *                                    written once when the page is done, deleted when pruned
 *   documents/<id>/pages/<n>.json    a page's engine result saved before versions existed
 *   documents/<id>/images/<name>     image bytes of page results, kept out of the JSON
 *   removed/<id>/                    a document removed this session, set aside whole until the
 *                                    session ends so that an undo can put it back; emptied when
 *                                    the app closes and, after a crash, when it next starts
 * Results live apart so that an edit or a finished page rewrites a small file, not the output of a
 * 2,000-page document.
 */

import { mkdir, readFile, readdir, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import type { PageResult } from '../../shared/page.js';
import type { PageVersion } from '../../shared/page-versions.js';
import { applyWorkspaceEvent, settleInterrupted, type Workspace, type WorkspaceDocument, type WorkspaceEvent, type WorkspacePage } from '../../shared/workspace.js';
import { writeFileAtomic } from './output/atomic-write.js';
import { CoalescedWrite } from './coalesced-write.js';

const ORDER_FILE = 'workspace.json';
const REMOVED_FOLDER = 'removed';
/** The order file's key among unsaved documents (no document id is empty). */
const ORDER_KEY = '';
const STORE_VERSION = 2;

interface OrderFile {
  version: number;
  documents: string[];
}

/** A version as saved: an engine version's result, and so its Markdown, is in its own file. */
type StoredVersion = Omit<PageVersion, 'result' | 'markdown'> & { markdown?: string };
/**
 * A page as saved: its results are in their own files, and its engine Markdown is the current one's.
 * `resultSaved`: a page saved before versions existed, its one result in `pages/<n>.json`.
 */
type StoredPage = Omit<WorkspacePage, 'result' | 'engineMarkdown' | 'versions'> & { engineMarkdown?: string; resultSaved?: true; versions?: StoredVersion[] };
type StoredDocument = Omit<WorkspaceDocument, 'pages'> & { pages: StoredPage[] };

/**
 * Events whose effect survives a restore. Queued, started and streaming pages are settled back by
 * `settleInterrupted` after a crash, so saving them would only cost writes.
 */
const DURABLE_EVENTS = new Set<WorkspaceEvent['type']>([
  'document-added',
  'document-removed',
  'document-restored',
  'document-opened',
  'document-failed',
  'page-done',
  'page-failed',
  'convert-done',
  'page-edited',
  'version-kept',
  'page-reviewed',
]);

interface PendingFiles {
  images: Map<string, Uint8Array>;
}

export interface WorkspaceStoreOptions {
  /** How a file is written whole; tests inject a full disk here. */
  writeFile?: (file: string, data: string | Uint8Array) => Promise<void>;
}

/** A save that failed: what is on disk is the previous save, whole; what is in memory is kept for the next. */
export class WorkspaceSaveError extends Error {
  constructor(dir: string, error: unknown) {
    const { code, message } = error as NodeJS.ErrnoException;
    const cause =
      code === 'ENOSPC' || code === 'EDQUOT'
        ? `the disk holding ${dir} is full`
        : code === 'EROFS' || code === 'EACCES' || code === 'EPERM'
          ? `${dir} cannot be written (${code})`
          : `writing into ${dir} failed (${message})`;
    super(`Folio could not save the workspace: ${cause}. Nothing is lost: your edits and converted pages stay in this window and the last save on disk is intact; free some space (or make the folder writable) and they are saved with your next change.`);
    this.name = 'WorkspaceSaveError';
  }
}

export class WorkspaceStore {
  private state: Workspace;
  private readonly documentWrites = new Map<string, CoalescedWrite>();
  /** Images of finished pages, written before the document that refers to them. */
  private readonly pending = new Map<string, PendingFiles>();
  /** Per document, the version result files on disk (by file name) and the result each holds. */
  private readonly versionFiles = new Map<string, Map<string, PageResult>>();
  private readonly orderWrite: CoalescedWrite;
  /** Documents (and the order, as '') whose last save failed: saved again with the next change. */
  private readonly unsaved = new Set<string>();
  private readonly writeFile: (file: string, data: string | Uint8Array) => Promise<void>;

  private constructor(
    readonly dir: string,
    restored: Workspace,
    /** Saved documents that could not be read back (whole or in part), with why. */
    readonly restoreProblems: readonly string[],
    options: WorkspaceStoreOptions,
  ) {
    this.state = restored;
    this.writeFile = options.writeFile ?? writeFileAtomic;
    this.orderWrite = new CoalescedWrite(() => this.saving(ORDER_KEY, () => this.writeOrder()));
    for (const document of restored.documents) this.versionFiles.set(document.id, savedVersionFiles(document));
  }

  /** Reads the saved workspace (an empty one on first start) and settles conversions a crash cut off. */
  static async open(dir: string, options: WorkspaceStoreOptions = {}): Promise<WorkspaceStore> {
    await mkdir(path.join(dir, 'documents'), { recursive: true });
    // the removals of a session that crashed: final now, as they would have been at its quit
    await rm(path.join(dir, REMOVED_FOLDER), { recursive: true, force: true });
    await removeStaleTempFiles(dir);
    const { workspace, problems } = await readSavedWorkspace(dir);
    return new WorkspaceStore(dir, workspace, problems, options);
  }

  get workspace(): Workspace {
    return this.state;
  }

  /**
   * Applies an event now and returns the event as applied (image bytes moved to files) with a
   * promise that resolves once the change is on disk.
   */
  apply(event: WorkspaceEvent): { applied: WorkspaceEvent; saved: Promise<void> } {
    const applied = this.setFilesAside(event);
    this.state = applyWorkspaceEvent(this.state, applied);
    const docId = durableDocument(event);
    if (docId === undefined) return { applied, saved: Promise.resolve() };
    // what a failed save left unsaved is saved with this change (the disk may have room again)
    const retried = [...this.unsaved].filter((id) => id !== docId && id !== ORDER_KEY).map((id) => this.documentWrite(id).request());
    let saved: Promise<void> = Promise.all([this.documentWrite(docId).request(), ...retried]).then(() => undefined);
    if (event.type === 'document-added' || event.type === 'document-removed' || event.type === 'document-restored' || this.unsaved.has(ORDER_KEY)) {
      // a listed document always has its file: the order is written after it
      saved = saved.then(() => this.orderWrite.request());
    }
    return { applied, saved };
  }

  /** Waits for every write under way, e.g. before the app quits. */
  async flush(): Promise<void> {
    await Promise.all([...this.documentWrites.values()].map((write) => write.idle()));
    await this.orderWrite.idle();
  }

  /** Ends the session's removals: what was set aside for an undo is deleted. Call after `flush`, as the app quits. */
  async discardRemoved(): Promise<void> {
    await rm(path.join(this.dir, REMOVED_FOLDER), { recursive: true, force: true });
  }

  /** Image bytes of a page result, as the engine produced them. */
  readImage(docId: string, name: string): Promise<Uint8Array> {
    return readFile(path.join(documentFolder(this.dir, docId), 'images', safeName(name)));
  }

  /**
   * Keeps a finished page's image bytes for their own files (the event goes on without them) and
   * stamps results and edits with the time, for their versions.
   */
  private setFilesAside(event: WorkspaceEvent): WorkspaceEvent {
    if (event.type === 'page-edited') return { ...event, at: event.at ?? new Date().toISOString() };
    if (event.type !== 'page-done') return event;
    const pending = this.pendingFor(event.docId);
    for (const image of event.result.images) if (image.data) pending.images.set(image.name, image.data);
    const images = event.result.images.map(({ data: _data, ...image }) => image);
    const result = { ...event.result, images };
    return { ...event, result, at: event.at ?? new Date().toISOString() };
  }

  private pendingFor(docId: string): PendingFiles {
    let pending = this.pending.get(docId);
    if (!pending) {
      pending = { images: new Map() };
      this.pending.set(docId, pending);
    }
    return pending;
  }

  /** Runs one file's save; a failure is remembered for the next change and said in words the user can act on. */
  private async saving(key: string, write: () => Promise<void>): Promise<void> {
    try {
      await write();
      this.unsaved.delete(key);
    } catch (error) {
      this.unsaved.add(key);
      throw new WorkspaceSaveError(this.dir, error);
    }
  }

  private documentWrite(docId: string): CoalescedWrite {
    let write = this.documentWrites.get(docId);
    if (!write) {
      write = new CoalescedWrite(() => this.saving(docId, () => this.writeDocument(docId)));
      this.documentWrites.set(docId, write);
    }
    return write;
  }

  private async writeDocument(docId: string): Promise<void> {
    const folder = documentFolder(this.dir, docId);
    const aside = path.join(this.dir, REMOVED_FOLDER, safeName(docId));
    const document = this.state.documents.find((candidate) => candidate.id === docId);
    const pending = this.pending.get(docId);
    if (!document) {
      if (this.state.removed?.some((entry) => entry.document.id === docId)) {
        // set aside whole, results not yet written included, for an undo
        await mkdir(path.dirname(aside), { recursive: true });
        await moveFolder(folder, aside);
        return;
      }
      this.pending.delete(docId);
      await rm(folder, { recursive: true, force: true });
      return;
    }
    // a removal undone: its files come back before its document file refers to them
    await moveFolder(aside, folder);
    await mkdir(path.join(folder, 'pages'), { recursive: true });
    if (pending) {
      // each file leaves the pending set only once written: after a failed save the next one writes the rest
      if (pending.images.size > 0) await mkdir(path.join(folder, 'images'), { recursive: true });
      for (const [name, data] of [...pending.images]) {
        await this.writeFile(path.join(folder, 'images', safeName(name)), data);
        pending.images.delete(name);
      }
    }
    await this.writeVersionFiles(folder, document);
    await this.writeFile(path.join(folder, 'document.json'), JSON.stringify(toStored(document)));
    await this.removePrunedVersionFiles(folder, document);
  }

  /** Each engine version's result not on disk yet (or refreshed in place) is written, before the document that lists it. */
  private async writeVersionFiles(folder: string, document: WorkspaceDocument): Promise<void> {
    let written = this.versionFiles.get(document.id);
    if (!written) {
      written = new Map();
      this.versionFiles.set(document.id, written);
    }
    for (const page of document.pages) {
      for (const version of page.versions ?? []) {
        if (!version.result) continue;
        const name = versionFileName(page.page, version.id);
        if (written.get(name) === version.result) continue;
        // a file leaves the unwritten set only once written: after a failed save the next one writes the rest
        await this.writeFile(path.join(folder, 'pages', name), JSON.stringify(version.result));
        written.set(name, version.result);
      }
    }
  }

  /** Results of versions pruned from the list, deleted once the document no longer lists them. */
  private async removePrunedVersionFiles(folder: string, document: WorkspaceDocument): Promise<void> {
    const written = this.versionFiles.get(document.id);
    if (!written) return;
    const listed = new Set(document.pages.flatMap((page) => (page.versions ?? []).map((version) => versionFileName(page.page, version.id))));
    for (const name of [...written.keys()]) {
      if (listed.has(name)) continue;
      await rm(path.join(folder, 'pages', name), { force: true });
      written.delete(name);
    }
  }

  private async writeOrder(): Promise<void> {
    const order: OrderFile = { version: STORE_VERSION, documents: this.state.documents.map((document) => document.id) };
    await this.writeFile(path.join(this.dir, ORDER_FILE), JSON.stringify(order));
  }
}

/**
 * The saved workspace, read without writing anything (no temp files removed, no folder made), so
 * another process (`folio export-pairs`) may read it while the app runs. Conversions a crash cut
 * off are settled; `problems` names what could not be read back.
 */
export async function readSavedWorkspace(dir: string): Promise<{ workspace: Workspace; problems: string[] }> {
  const problems: string[] = [];
  const documents: WorkspaceDocument[] = [];
  for (const id of await readOrder(dir, problems)) {
    const document = await readDocument(dir, id, problems);
    if (document) documents.push(document);
  }
  return { workspace: settleInterrupted({ documents }), problems };
}

function toStored(document: WorkspaceDocument): StoredDocument {
  return {
    ...document,
    pages: document.pages.map(({ result, engineMarkdown, versions, ...page }): StoredPage => {
      if (versions) return { ...page, versions: versions.map(toStoredVersion), ...(!result && { engineMarkdown }) };
      return result ? { ...page, resultSaved: true as const } : { ...page, engineMarkdown };
    }),
  };
}

function toStoredVersion({ result, markdown, ...version }: PageVersion): StoredVersion {
  return result ? version : { ...version, markdown };
}

/** The version result files a document read back refers to. */
function savedVersionFiles(document: WorkspaceDocument): Map<string, PageResult> {
  const files = new Map<string, PageResult>();
  for (const page of document.pages) {
    for (const version of page.versions ?? []) if (version.result) files.set(versionFileName(page.page, version.id), version.result);
  }
  return files;
}

async function readOrder(dir: string, problems: string[]): Promise<string[]> {
  const file = path.join(dir, ORDER_FILE);
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  try {
    const parsed = JSON.parse(text) as Partial<OrderFile>;
    if (Array.isArray(parsed.documents)) return parsed.documents.filter((id): id is string => typeof id === 'string');
  } catch {
    // reported below
  }
  problems.push(`${file}: not a Folio workspace file; starting with an empty workspace.`);
  return [];
}

async function readDocument(dir: string, id: string, problems: string[]): Promise<WorkspaceDocument | undefined> {
  const folder = documentFolder(dir, id);
  const file = path.join(folder, 'document.json');
  let stored: StoredDocument;
  try {
    stored = JSON.parse(await readFile(file, 'utf8')) as StoredDocument;
  } catch (error) {
    problems.push(`${file}: could not be read (${(error as Error).message}); the document was left out.`);
    return undefined;
  }
  if (stored.id !== id || !Array.isArray(stored.pages)) {
    problems.push(`${file}: not a saved Folio document; it was left out.`);
    return undefined;
  }
  const pages: WorkspacePage[] = [];
  for (const { resultSaved, engineMarkdown, versions, ...page } of stored.pages) {
    if (versions) {
      pages.push(await readVersionedPage(folder, stored.name, page, versions, engineMarkdown, problems));
      continue;
    }
    if (!resultSaved) {
      pages.push({ ...page, engineMarkdown: engineMarkdown ?? '' });
      continue;
    }
    try {
      const result = JSON.parse(await readFile(pageFile(folder, page.page), 'utf8')) as PageResult;
      pages.push({ ...page, engineMarkdown: result.markdown, result });
    } catch (error) {
      // the page converts again on resume; the user's edit and review mark stay
      problems.push(`${pageFile(folder, page.page)}: could not be read (${(error as Error).message}); page ${page.page} of ${stored.name} needs converting again.`);
      pages.push({ ...page, state: 'pending', engineMarkdown: '' });
    }
  }
  return { ...stored, pages };
}

/**
 * A page saved with versions: each engine version's result is read from its file. A version whose
 * file cannot be read is left out; when it was the one shown the page converts again on resume,
 * and the person's edits, which live in the document file, all stay.
 */
async function readVersionedPage(
  folder: string,
  documentName: string,
  page: Omit<StoredPage, 'versions' | 'engineMarkdown' | 'resultSaved'>,
  stored: StoredVersion[],
  engineMarkdown: string | undefined,
  problems: string[],
): Promise<WorkspacePage> {
  const versions: PageVersion[] = [];
  for (const version of stored) {
    if (version.edited) {
      versions.push({ ...version, markdown: version.markdown ?? '' });
      continue;
    }
    const file = path.join(folder, 'pages', versionFileName(page.page, version.id));
    try {
      const result = JSON.parse(await readFile(file, 'utf8')) as PageResult;
      versions.push({ ...version, markdown: result.markdown, result });
    } catch (error) {
      problems.push(`${file}: could not be read (${(error as Error).message}); a version of page ${page.page} of ${documentName} was lost.`);
    }
  }
  const current = versions.find((version) => version.id === page.currentVersion);
  const base = current?.edited ? versions.find((version) => version.id === current.base) : current;
  const lostResult = page.currentVersion !== undefined && (!current || (current.base !== undefined && !base));
  const restored: WorkspacePage = { ...page, versions, engineMarkdown: base?.markdown ?? engineMarkdown ?? '', ...(base?.result && { result: base.result }) };
  if (!lostResult) return restored;
  // the page converts again on resume; the user's edit, review mark and other versions stay
  return { ...restored, state: 'pending', currentVersion: current?.edited ? current.id : undefined };
}

function versionFileName(page: number, version: number): string {
  return `${page}.v${version}.json`;
}

/** The document an event changes on disk, or undefined for one that only lives in memory. */
function durableDocument(event: WorkspaceEvent): string | undefined {
  if (!DURABLE_EVENTS.has(event.type)) return undefined;
  if (event.type === 'document-added') return event.document.id;
  return 'docId' in event ? event.docId : undefined;
}

/** Renames a document's folder; one that is not there (never written, or moved already) is nothing to move. */
async function moveFolder(from: string, to: string): Promise<void> {
  try {
    await rename(from, to);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
}

/** A write cut off by a kill leaves its temp file behind; the saved file beside it is whole. */
async function removeStaleTempFiles(dir: string): Promise<void> {
  const folders = [dir];
  for (const id of await readdir(path.join(dir, 'documents'))) {
    folders.push(path.join(dir, 'documents', id), path.join(dir, 'documents', id, 'pages'), path.join(dir, 'documents', id, 'images'));
  }
  for (const folder of folders) {
    const names = await readdir(folder).catch(() => [] as string[]);
    for (const name of names) if (name.startsWith('.') && name.endsWith('.tmp')) await rm(path.join(folder, name), { force: true });
  }
}

function documentFolder(dir: string, docId: string): string {
  return path.join(dir, 'documents', safeName(docId));
}

function pageFile(folder: string, page: number): string {
  return path.join(folder, 'pages', `${page}.json`);
}

/** Ids and image names come from us and the engine, but never lead a path out of the store. */
function safeName(name: string): string {
  return name.replace(/[\\/]/g, '_').replace(/^\.+/, '_');
}
