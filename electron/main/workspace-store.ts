/**
 * The workspace on disk, in the app's data folder: every event is applied with the shared reducer
 * and the document it touched is saved as it happens, atomically (temp file, fsync, rename), so a
 * crash or a kill -9 leaves either the previous save or the new one. Layout:
 *   workspace.json           the documents' order
 *   documents/<id>.json      one document: pages, engine output, edits, review marks
 *   images/<id>/<name>       image bytes of page results, kept out of the JSON
 */

import { mkdir, readFile, readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { writeFileAtomic } from '../cli/atomic-write.js';
import type { PageImage } from '../../shared/page.js';
import {
  applyWorkspaceEvent,
  settleInterrupted,
  type Workspace,
  type WorkspaceDocument,
  type WorkspaceEvent,
} from '../../shared/workspace.js';
import { CoalescedWrite } from './coalesced-write.js';

const ORDER_FILE = 'workspace.json';
const STORE_VERSION = 1;

interface OrderFile {
  version: number;
  documents: string[];
}

/**
 * Events whose effect survives a restore. Queued, started and streaming pages are settled back by
 * `settleInterrupted` after a crash, so saving them would only cost writes.
 */
const DURABLE_EVENTS = new Set<WorkspaceEvent['type']>([
  'document-added',
  'document-removed',
  'document-opened',
  'document-failed',
  'page-done',
  'page-failed',
  'convert-done',
  'page-edited',
  'page-reviewed',
]);

export class WorkspaceStore {
  private state: Workspace;
  private readonly documentWrites = new Map<string, CoalescedWrite>();
  private readonly pendingImages = new Map<string, PageImage[]>();
  private readonly orderWrite: CoalescedWrite;

  private constructor(
    readonly dir: string,
    restored: Workspace,
    /** Saved documents that could not be read back, with why. */
    readonly restoreProblems: readonly string[],
  ) {
    this.state = restored;
    this.orderWrite = new CoalescedWrite(() => this.writeOrder());
  }

  /** Reads the saved workspace (an empty one on first start) and settles conversions a crash cut off. */
  static async open(dir: string): Promise<WorkspaceStore> {
    await mkdir(path.join(dir, 'documents'), { recursive: true });
    const problems: string[] = [];
    const order = await readOrder(dir, problems);
    const documents: WorkspaceDocument[] = [];
    for (const id of order) {
      const document = await readDocument(dir, id, problems);
      if (document) documents.push(document);
    }
    await removeStaleTempFiles(path.join(dir, 'documents'));
    return new WorkspaceStore(dir, settleInterrupted({ documents }), problems);
  }

  get workspace(): Workspace {
    return this.state;
  }

  /**
   * Applies an event now and returns the event as applied (image bytes moved to files) with a
   * promise that resolves once the change is on disk.
   */
  apply(event: WorkspaceEvent): { applied: WorkspaceEvent; saved: Promise<void> } {
    const applied = this.setImagesAside(event);
    this.state = applyWorkspaceEvent(this.state, applied);
    if (!DURABLE_EVENTS.has(event.type)) return { applied, saved: Promise.resolve() };
    const docId = event.type === 'document-added' ? event.document.id : event.docId;
    let saved = this.documentWrite(docId).request();
    if (event.type === 'document-added' || event.type === 'document-removed') {
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

  /** Image bytes of a page result, as the engine produced them. */
  readImage(docId: string, name: string): Promise<Uint8Array> {
    return readFile(this.imageFile(docId, name));
  }

  private imageFile(docId: string, name: string): string {
    return path.join(this.dir, 'images', safeName(docId), safeName(name));
  }

  /** Strips image bytes from a finished page; they are written to files before the document is saved. */
  private setImagesAside(event: WorkspaceEvent): WorkspaceEvent {
    if (event.type !== 'page-done' || !event.result.images.some((image) => image.data)) return event;
    const withBytes = event.result.images.filter((image) => image.data);
    this.pendingImages.set(event.docId, [...(this.pendingImages.get(event.docId) ?? []), ...withBytes]);
    const images = event.result.images.map(({ data: _data, ...image }) => image);
    return { ...event, result: { ...event.result, images } };
  }

  private documentWrite(docId: string): CoalescedWrite {
    let write = this.documentWrites.get(docId);
    if (!write) {
      write = new CoalescedWrite(() => this.writeDocument(docId));
      this.documentWrites.set(docId, write);
    }
    return write;
  }

  private async writeDocument(docId: string): Promise<void> {
    const document = this.state.documents.find((candidate) => candidate.id === docId);
    const file = documentFile(this.dir, docId);
    if (!document) {
      this.pendingImages.delete(docId);
      await rm(file, { force: true });
      await rm(path.join(this.dir, 'images', safeName(docId)), { recursive: true, force: true });
      return;
    }
    const images = this.pendingImages.get(docId) ?? [];
    this.pendingImages.delete(docId);
    if (images.length > 0) {
      await mkdir(path.join(this.dir, 'images', safeName(docId)), { recursive: true });
      for (const image of images) await writeFileAtomic(this.imageFile(docId, image.name), image.data!);
    }
    await writeFileAtomic(file, JSON.stringify(document));
  }

  private async writeOrder(): Promise<void> {
    const order: OrderFile = { version: STORE_VERSION, documents: this.state.documents.map((document) => document.id) };
    await writeFileAtomic(path.join(this.dir, ORDER_FILE), JSON.stringify(order));
  }
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
  const file = documentFile(dir, id);
  try {
    const parsed = JSON.parse(await readFile(file, 'utf8')) as WorkspaceDocument;
    if (parsed.id === id && Array.isArray(parsed.pages)) return parsed;
    problems.push(`${file}: not a saved Folio document; it was left out.`);
  } catch (error) {
    problems.push(`${file}: could not be read (${(error as Error).message}); it was left out.`);
  }
  return undefined;
}

/** A write cut off by a kill leaves its temp file behind; the saved file beside it is whole. */
async function removeStaleTempFiles(folder: string): Promise<void> {
  for (const name of await readdir(folder)) {
    if (name.startsWith('.') && name.endsWith('.tmp')) await rm(path.join(folder, name), { force: true });
  }
}

function documentFile(dir: string, docId: string): string {
  return path.join(dir, 'documents', `${safeName(docId)}.json`);
}

/** Ids and image names come from us and the engine, but never lead a path out of the store. */
function safeName(name: string): string {
  return name.replace(/[\\/]/g, '_').replace(/^\.+/, '_');
}
