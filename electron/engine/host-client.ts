/**
 * The engine host's supervisor, running in the caller's process (CLI, tests, Electron main). It keeps
 * one host for a batch of documents and replaces it only when it must: a page that runs past its
 * time limit, or a host that crashes, fails that page alone; a fresh host reopens the document and
 * the remaining pages go on. pdf.js has both hangs and crashes on hostile files.
 */

import type { Failure } from '../../shared/failure.js';
import type { PageResult } from '../../shared/page.js';
import type { ConvertOptions, DocumentInfo } from '../../shared/protocol.js';
import { FailureError } from './failure-error.js';
import { HostEventQueue } from './host-event-queue.js';
import type { HostProcess, SpawnHost } from './host-process.js';

export const DEFAULT_PAGE_TIMEOUT_MS = 60_000;
export const DEFAULT_OPEN_TIMEOUT_MS = 60_000;

export interface HostClientOptions {
  spawnHost: SpawnHost;
  /** How long one page may take before its host is killed. */
  pageTimeoutMs?: number;
  /** How long starting a host and opening a document may take. */
  openTimeoutMs?: number;
}

export interface PageCallbacks {
  pageStarted?(page: number): void;
  pageDelta?(page: number, text: string): void;
  pageDone?(result: PageResult): void;
  pageFailed?(page: number, failure: Failure): void;
}

interface LiveHost {
  process: HostProcess;
  events: HostEventQueue;
  openDocuments: Set<string>;
}

/** A document open in the host; the client reopens it by itself in a fresh host after a restart. */
export interface OpenedDocument {
  readonly docId: string;
  readonly file: string;
  readonly password?: string;
  readonly info: DocumentInfo;
}

type DocumentRef = Omit<OpenedDocument, 'info'>;

export class HostClient {
  private host: LiveHost | undefined;
  private busy = false;
  private documentCount = 0;
  readonly pageTimeoutMs: number;
  readonly openTimeoutMs: number;

  constructor(private readonly options: HostClientOptions) {
    this.pageTimeoutMs = options.pageTimeoutMs ?? DEFAULT_PAGE_TIMEOUT_MS;
    this.openTimeoutMs = options.openTimeoutMs ?? DEFAULT_OPEN_TIMEOUT_MS;
  }

  /** Opens a document in the host; throws a FailureError saying why it cannot be opened, or the signal's reason when cancelled. */
  open(file: string, password?: string, signal?: AbortSignal): Promise<OpenedDocument> {
    return this.exclusive(async () => {
      const ref: DocumentRef = { docId: `doc-${++this.documentCount}`, file, password };
      const info = await this.openOn(await this.liveHost(signal), ref, signal);
      return { ...ref, info };
    });
  }

  /**
   * Converts pages in the order given, reporting each through the callbacks; a page that hangs or
   * crashes the host fails alone. Resolves with `cancelled: true` when the signal stopped it.
   * Throws a FailureError only when the document cannot be reopened after a restart.
   */
  convert(doc: OpenedDocument, pages: readonly number[], options: ConvertOptions, callbacks: PageCallbacks, signal?: AbortSignal): Promise<{ cancelled: boolean }> {
    return this.exclusive(async () => {
      const remaining = [...pages];
      while (remaining.length > 0 && !signal?.aborted) {
        let host: LiveHost;
        try {
          host = await this.hostWith(doc, signal);
        } catch (error) {
          if (signal?.aborted) break;
          throw error;
        }
        await this.convertOn(host, doc.docId, remaining, options, callbacks, signal);
      }
      return { cancelled: signal?.aborted ?? false };
    });
  }

  /** Tells the host to let go of the document; a host that has since been replaced never had it. */
  close(doc: OpenedDocument): void {
    if (!this.host?.openDocuments.delete(doc.docId)) return;
    this.host.process.send({ type: 'close', docId: doc.docId });
  }

  /** Ends the host process; the client starts a fresh one if used again. */
  dispose(): void {
    this.discardHost();
  }

  /** The host holding this document open, starting a host and reopening the document after a restart. */
  private async hostWith(ref: DocumentRef, signal: AbortSignal | undefined): Promise<LiveHost> {
    const host = await this.liveHost(signal);
    if (!host.openDocuments.has(ref.docId)) await this.openOn(host, ref, signal);
    return host;
  }

  /** The current host, or a fresh one when there is none or it died while idle (between documents). */
  private async liveHost(signal: AbortSignal | undefined): Promise<LiveHost> {
    if (this.host && !this.host.events.exited) return this.host;
    this.discardHost();
    return this.startHost(signal);
  }

  private discardHost(): void {
    this.host?.process.kill();
    this.host = undefined;
  }

  /** One operation at a time: the host's events are read by whoever runs now. */
  private async exclusive<T>(operation: () => Promise<T>): Promise<T> {
    if (this.busy) throw new Error('HostClient serves one document operation at a time; await the previous one first.');
    this.busy = true;
    try {
      return await operation();
    } finally {
      this.busy = false;
    }
  }

  private async startHost(signal: AbortSignal | undefined): Promise<LiveHost> {
    const process = this.options.spawnHost();
    const host: LiveHost = { process, events: new HostEventQueue(process), openDocuments: new Set() };
    this.host = host;
    const deadline = Date.now() + this.openTimeoutMs;
    for (;;) {
      const taken = await host.events.take(deadline, signal);
      if (taken.kind === 'event' && taken.event.type === 'ready') return host;
      if (taken.kind === 'event') continue;
      this.discardHost();
      if (taken.kind === 'aborted') throw signal?.reason;
      if (taken.kind === 'exit') throw new FailureError('engine-crashed', `The engine host exited before it was ready (${taken.description}).`);
      throw new FailureError('timeout', `The engine host did not start within ${seconds(this.openTimeoutMs)}.`);
    }
  }

  private async openOn(host: LiveHost, ref: DocumentRef, signal: AbortSignal | undefined): Promise<DocumentInfo> {
    host.process.send({ type: 'open', docId: ref.docId, path: ref.file, password: ref.password });
    const deadline = Date.now() + this.openTimeoutMs;
    for (;;) {
      const taken = await host.events.take(deadline, signal);
      if (taken.kind === 'event') {
        const event = taken.event;
        if (!('docId' in event) || event.docId !== ref.docId) continue;
        if (event.type === 'opened') {
          host.openDocuments.add(ref.docId);
          return event.info;
        }
        if (event.type === 'open-failed') throw new FailureError(event.failure.code, event.failure.message);
        if (event.type === 'request-rejected') throw new FailureError('internal', event.message);
        continue;
      }
      this.discardHost();
      if (taken.kind === 'aborted') throw signal?.reason;
      if (taken.kind === 'exit') throw new FailureError('engine-crashed', `${ref.file}: the engine crashed while opening it (${taken.description}).`);
      throw new FailureError('timeout', `${ref.file}: could not be opened within ${seconds(this.openTimeoutMs)}; it may be damaged or built to stall PDF readers.`);
    }
  }

  /**
   * Runs one conversion on one host until it finishes, is cancelled, or loses its host; `remaining`
   * shrinks as pages finish. Pages finish in order even when several are in flight, so the time limit
   * applies to the oldest unfinished page, counted from its own start.
   */
  private async convertOn(host: LiveHost, docId: string, remaining: number[], options: ConvertOptions, callbacks: PageCallbacks, signal: AbortSignal | undefined): Promise<void> {
    host.process.send({ type: 'convert', docId, pages: [...remaining], options });
    let progressAt = Date.now();
    const startedAt = new Map<number, number>();
    const deadline = () => (startedAt.get(remaining[0] ?? -1) ?? progressAt) + this.pageTimeoutMs;
    let cancelSent = false;
    const finish = (page: number) => {
      const index = remaining.indexOf(page);
      if (index >= 0) remaining.splice(index, 1);
      startedAt.delete(page);
      progressAt = Date.now();
    };
    for (;;) {
      const taken = await host.events.take(deadline(), cancelSent ? undefined : signal);
      if (taken.kind === 'aborted') {
        host.process.send({ type: 'cancel', docId });
        cancelSent = true;
        continue;
      }
      if (taken.kind === 'timeout' || taken.kind === 'exit') {
        this.discardHost();
        const page = remaining.shift();
        if (cancelSent || signal?.aborted || page === undefined) return;
        const failure = taken.kind === 'timeout' ? this.timeoutFailure() : crashFailure(taken.description);
        callbacks.pageFailed?.(page, failure);
        return;
      }
      const event = taken.event;
      if (!('docId' in event) || event.docId !== docId) continue;
      switch (event.type) {
        case 'page-started':
          startedAt.set(event.page, Date.now());
          callbacks.pageStarted?.(event.page);
          break;
        case 'page-delta':
          callbacks.pageDelta?.(event.page, event.text);
          break;
        case 'page-done':
          finish(event.result.page);
          callbacks.pageDone?.(event.result);
          break;
        case 'page-failed':
          finish(event.page);
          callbacks.pageFailed?.(event.page, event.failure);
          break;
        case 'convert-done':
          // A cancelled conversion leaves pages behind that nobody wants any more.
          if (event.cancelled) remaining.length = 0;
          return;
        case 'request-rejected':
          throw new FailureError('internal', event.message);
      }
    }
  }

  private timeoutFailure(): Failure {
    return {
      code: 'timeout',
      message: `took longer than ${seconds(this.pageTimeoutMs)}, so its engine was stopped; the other pages went on in a fresh one.`,
    };
  }
}

function crashFailure(description: string): Failure {
  return {
    code: 'engine-crashed',
    message: `the engine crashed (${description}); the other pages went on in a fresh one.`,
  };
}

function seconds(ms: number): string {
  return `${Math.round(ms / 100) / 10} s`;
}
