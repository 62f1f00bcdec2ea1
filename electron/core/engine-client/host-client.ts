/**
 * The engine host's supervisor, running in the caller's process (CLI, tests, Electron main). It keeps
 * one host for a batch of documents and replaces it only when it must: a page that runs past its
 * time limit, or a host that crashes, fails that page alone; a fresh host reopens the document and
 * the remaining pages go on. pdf.js has both hangs and crashes on hostile files. Several documents
 * may convert on one host at once (the remote engine's batch), one operation per document.
 */

import type { Failure } from '../../../shared/failure.js';
import type { PageEvent, PageEventType } from '../../../shared/page-event.js';
import type { ConvertOptions, DeviceProbeRequest, DocumentInfo, HostEvent } from '../../../shared/protocol.js';
import { FailureError } from '../failure-error.js';
import { preparationLimitMs } from '../page-time-limit.js';
import type { HostEventQueue } from './host-event-queue.js';
import { HostEventRoutes } from './host-event-routes.js';
import type { HostProcess, SpawnHost } from './host-process.js';
import { PageClock } from './page-clock.js';

export const DEFAULT_PAGE_TIMEOUT_MS = 60_000;
export const DEFAULT_OPEN_TIMEOUT_MS = 60_000;
/**
 * The pauses before each new try when a host dies while starting or while opening a document: an
 * OOM kill or a crash during a restart is often passing, a fault that repeats is not, so the tries
 * are few and spaced out, and then the pages that are left fail with the reason.
 */
export const DEFAULT_RETRY_DELAYS_MS: readonly number[] = [500, 1000, 2000];

export interface HostClientOptions {
  spawnHost: SpawnHost;
  /** How long one page may take before its host is killed. */
  pageTimeoutMs?: number;
  /** How long starting a host and opening a document may take. */
  openTimeoutMs?: number;
  /** The pause before each retry after a host died while starting or opening a document; tries = pauses + 1. */
  retryDelaysMs?: readonly number[];
  /** How long an engine may prepare (open a model package of `bytes` on disk) before its first page; default: preparationLimitMs. */
  preparationLimitMs?: (bytes: number) => number;
  /**
   * After this long with nothing asked of it, the host is ended, giving back what its models and
   * documents held (a model's sessions stay allocated until their process ends); the next request
   * starts a fresh one and reopens its documents. Default: never.
   */
  idleReleaseMs?: number;
}

type PageEventOf<T extends PageEventType> = Extract<PageEvent, { type: T }>;

/**
 * Each page event's fields but its document's id (the caller converts one document per call), in the
 * order its callback takes them.
 */
interface PageCallbackArgs {
  'engine-preparing': [
    page: PageEventOf<'engine-preparing'>['page'],
    detail: PageEventOf<'engine-preparing'>['detail'],
    bytes: PageEventOf<'engine-preparing'>['bytes'],
  ];
  'engine-ready': [page: PageEventOf<'engine-ready'>['page']];
  'page-started': [page: PageEventOf<'page-started'>['page']];
  'page-delta': [page: PageEventOf<'page-delta'>['page'], text: PageEventOf<'page-delta'>['text']];
  'page-done': [result: PageEventOf<'page-done'>['result']];
  'page-failed': [page: PageEventOf<'page-failed'>['page'], failure: PageEventOf<'page-failed'>['failure']];
}

/** `page-delta` -> `pageDelta`, `engine-ready` -> `engineReady`. */
type CallbackName<T extends PageEventType> = T extends `${infer Subject}-${infer Rest}` ? `${Subject}${Capitalize<Rest>}` : never;

/** What a conversion's caller hears of its pages: one optional callback per page event of shared/page-event.ts. */
export type PageCallbacks = { [T in PageEventType as CallbackName<T>]?: (...args: CallbackArgs<T>) => void };

/** The constraint makes a page event without an entry in PageCallbackArgs an error here. */
type CallbackArgs<T extends keyof PageCallbackArgs> = PageCallbackArgs[T];

interface LiveHost {
  process: HostProcess;
  events: HostEventRoutes;
  openDocuments: Set<string>;
  /** Killed by this client for one document's page: to the other documents on it, no crash of theirs. */
  replaced: boolean;
}

/** A document open in the host; the client reopens it by itself in a fresh host after a restart. */
export interface OpenedDocument {
  readonly docId: string;
  readonly file: string;
  readonly password?: string;
  readonly info: DocumentInfo;
}

type DocumentRef = Omit<OpenedDocument, 'info'>;

export interface RenderedPage {
  width: number;
  height: number;
  png: Uint8Array;
}

/** The host's answer to `probe-device`, as the protocol carries it. */
export type DeviceProbe = Omit<Extract<HostEvent, { type: 'device' }>, 'type'>;

export class HostClient {
  private host: LiveHost | undefined;
  private starting: Promise<LiveHost> | undefined;
  private readonly converting = new Set<string>();
  private documentCount = 0;
  /** Requests under way (opening, converting, rendering, probing); the idle timer runs only at none. */
  private busy = 0;
  private idleTimer: ReturnType<typeof setTimeout> | undefined;
  readonly pageTimeoutMs: number;
  readonly openTimeoutMs: number;
  private readonly retryDelaysMs: readonly number[];
  private readonly preparationLimitMs: (bytes: number) => number;

  constructor(private readonly options: HostClientOptions) {
    this.pageTimeoutMs = options.pageTimeoutMs ?? DEFAULT_PAGE_TIMEOUT_MS;
    this.openTimeoutMs = options.openTimeoutMs ?? DEFAULT_OPEN_TIMEOUT_MS;
    this.retryDelaysMs = options.retryDelaysMs ?? DEFAULT_RETRY_DELAYS_MS;
    this.preparationLimitMs = options.preparationLimitMs ?? preparationLimitMs;
  }

  /** Opens a document in the host; throws a FailureError saying why it cannot be opened, or the signal's reason when cancelled. */
  open(file: string, password?: string, signal?: AbortSignal): Promise<OpenedDocument> {
    const ref: DocumentRef = { docId: `doc-${++this.documentCount}`, file, password };
    return this.active(() => this.openedOn(ref, signal).then(({ info }) => ({ ...ref, info })));
  }

  /**
   * Converts pages in the order given, reporting each through the callbacks; a page that hangs or
   * crashes the host fails alone. When no fresh host can start or reopen the document after its
   * retries, every page not yet converted fails with that reason and the converted ones stand.
   * Resolves with `cancelled: true` when the signal stopped it. `pageTimeoutMs` overrides the
   * client's limit for this conversion (the app's engine changes between conversions).
   */
  convert(
    doc: OpenedDocument,
    pages: readonly number[],
    options: ConvertOptions,
    callbacks: PageCallbacks,
    signal?: AbortSignal,
    pageTimeoutMs = this.pageTimeoutMs,
  ): Promise<{ cancelled: boolean }> {
    return this.exclusive(doc.docId, async () => {
      const remaining = [...pages];
      while (remaining.length > 0 && !signal?.aborted) {
        let host: LiveHost;
        try {
          host = await this.hostWith(doc, signal);
        } catch (error) {
          if (signal?.aborted) break;
          if (!(error instanceof FailureError)) throw error;
          const failure = unreachedFailure(error.failure, doc.file);
          for (const page of remaining.splice(0)) callbacks.pageFailed?.(page, failure);
          break;
        }
        await this.convertOn(host, doc.docId, remaining, options, callbacks, signal, pageTimeoutMs);
      }
      return { cancelled: signal?.aborted ?? false };
    });
  }

  /**
   * The page on white, its longer side `longSide` pixels, as PNG. A page that hangs or crashes the
   * host throws a FailureError (the next call starts a fresh host); so does a page the host cannot render.
   */
  render(doc: OpenedDocument, page: number, longSide: number, signal?: AbortSignal): Promise<RenderedPage> {
    return this.exclusive(doc.docId, async () => {
      const host = await this.hostWith(doc, signal);
      const events = host.events.document(doc.docId);
      host.process.send({ type: 'render', docId: doc.docId, page, longSide });
      const deadline = Date.now() + this.pageTimeoutMs;
      for (;;) {
        const taken = await events.take(deadline, signal);
        if (taken.kind === 'event') {
          const event = taken.event;
          if (event.type === 'page-image' && event.page === page) return { width: event.width, height: event.height, png: event.png };
          if (event.type === 'page-failed' && event.page === page) throw new FailureError(event.failure.code, event.failure.message, event.failure.remedy);
          if (event.type === 'request-rejected') throw new FailureError('internal', event.message);
          continue;
        }
        this.discardHost(host);
        if (taken.kind === 'aborted') throw signal?.reason;
        if (taken.kind === 'exit') throw new FailureError('engine-crashed', `the engine crashed while rendering it (${taken.description}).`);
        throw new FailureError('timeout', `could not be rendered within ${seconds(this.pageTimeoutMs)}, so its engine was stopped.`);
      }
    });
  }

  /** Which devices ONNX Runtime answers on and what the device setting makes of them, as the host finds it: its callers never load ONNX Runtime themselves. */
  probeDevice(request: DeviceProbeRequest = {}, signal?: AbortSignal): Promise<DeviceProbe> {
    return this.active(() => this.probeOn(request, signal));
  }

  private async probeOn(request: DeviceProbeRequest, signal: AbortSignal | undefined): Promise<DeviceProbe> {
    const host = await this.liveHost(signal);
    host.process.send({ type: 'probe-device', ...request });
    const deadline = Date.now() + this.openTimeoutMs;
    for (;;) {
      const taken = await host.events.host.take(deadline, signal);
      if (taken.kind === 'event') {
        if (taken.event.type === 'device') {
          const { type: _type, ...probe } = taken.event;
          return probe;
        }
        continue;
      }
      if (taken.kind === 'aborted') throw signal?.reason;
      if (taken.kind === 'exit') throw new FailureError('engine-crashed', `The engine host exited while finding the device (${taken.description}).`);
      throw new FailureError('timeout', `The engine host did not find the device within ${seconds(this.openTimeoutMs)}.`);
    }
  }

  /** Tells the host to let go of the document; a host that has since been replaced never had it. */
  close(doc: OpenedDocument): void {
    this.host?.events.forget(doc.docId);
    if (!this.host?.openDocuments.delete(doc.docId)) return;
    this.host.process.send({ type: 'close', docId: doc.docId });
  }

  /** Ends the host process; the client starts a fresh one if used again. */
  dispose(): void {
    clearTimeout(this.idleTimer);
    this.idleTimer = undefined;
    if (this.host) this.discardHost(this.host);
  }

  /** Runs one request, holding off the idle release until it and every other under way have ended. */
  private async active<T>(operation: () => Promise<T>): Promise<T> {
    this.busy++;
    clearTimeout(this.idleTimer);
    this.idleTimer = undefined;
    try {
      return await operation();
    } finally {
      this.busy--;
      this.releaseWhenIdle();
    }
  }

  private releaseWhenIdle(): void {
    const after = this.options.idleReleaseMs;
    if (after === undefined || this.busy > 0 || !this.host) return;
    clearTimeout(this.idleTimer);
    this.idleTimer = setTimeout(() => {
      this.idleTimer = undefined;
      if (this.busy === 0 && !this.starting && this.host) this.discardHost(this.host);
    }, after);
    // an idle timer must not keep a CLI run alive once its work is done
    this.idleTimer.unref?.();
  }

  /** The host holding this document open, starting a host and reopening the document after a restart. */
  private async hostWith(ref: DocumentRef, signal: AbortSignal | undefined): Promise<LiveHost> {
    const host = await this.liveHost(signal);
    if (host.openDocuments.has(ref.docId)) return host;
    return (await this.openedOn(ref, signal)).host;
  }

  /**
   * Opens the document on the live host: again on a fresh one when its host was killed for another
   * document's page meanwhile, and after a pause when the host crashed while opening it, until the
   * tries run out.
   */
  private async openedOn(ref: DocumentRef, signal: AbortSignal | undefined): Promise<{ host: LiveHost; info: DocumentInfo }> {
    for (let crashes = 0; ; ) {
      const host = await this.liveHost(signal);
      const opened = await this.openOn(host, ref, signal);
      if (opened.kind === 'opened') return { host, info: opened.info };
      if (opened.kind === 'replaced') continue;
      const delay = this.retryDelaysMs[crashes++];
      if (delay === undefined) {
        throw new FailureError('engine-crashed', `${ref.file}: the engine crashed while opening the file, ${times(crashes)} (last: ${opened.description}).`);
      }
      await pause(delay, signal);
      if (signal?.aborted) throw signal.reason;
    }
  }

  /** The current host, or a fresh one when there is none or it died while idle (between documents); callers at once share one start. */
  private liveHost(signal: AbortSignal | undefined): Promise<LiveHost> {
    if (this.starting) return this.starting;
    if (this.host && !this.host.events.host.exited) return Promise.resolve(this.host);
    if (this.host) this.discardHost(this.host);
    const starting = this.startHost(signal).finally(() => {
      if (this.starting === starting) this.starting = undefined;
    });
    this.starting = starting;
    return starting;
  }

  private discardHost(host: LiveHost): void {
    if (!host.events.host.exited) host.replaced = true;
    host.process.kill();
    if (this.host === host) this.host = undefined;
  }

  /** One operation per document: its events are read by whoever converts it now. */
  private async exclusive<T>(docId: string, operation: () => Promise<T>): Promise<T> {
    if (this.converting.has(docId)) throw new Error(`HostClient converts ${docId} once at a time; await the previous conversion first.`);
    this.converting.add(docId);
    try {
      return await this.active(operation);
    } finally {
      this.converting.delete(docId);
    }
  }

  /** A host that said it is ready, starting another after a pause when one dies on the way, until the tries run out. */
  private async startHost(signal: AbortSignal | undefined): Promise<LiveHost> {
    for (let crashes = 0; ; ) {
      const started = await this.startOnce(signal);
      if ('process' in started) return started;
      const delay = this.retryDelaysMs[crashes++];
      if (delay === undefined) {
        throw new FailureError('engine-crashed', `The engine host exited before it was ready, ${times(crashes)} (last: ${started.exit}).`);
      }
      await pause(delay, signal);
      if (signal?.aborted) throw signal.reason;
    }
  }

  /** One start: the host once ready, or how it ended before that. */
  private async startOnce(signal: AbortSignal | undefined): Promise<LiveHost | { exit: string }> {
    const process = this.options.spawnHost();
    const host: LiveHost = { process, events: new HostEventRoutes(process), openDocuments: new Set(), replaced: false };
    this.host = host;
    const deadline = Date.now() + this.openTimeoutMs;
    for (;;) {
      const taken = await host.events.host.take(deadline, signal);
      if (taken.kind === 'event' && taken.event.type === 'ready') return host;
      if (taken.kind === 'event') continue;
      this.discardHost(host);
      if (taken.kind === 'aborted') throw signal?.reason;
      if (taken.kind === 'exit') return { exit: taken.description };
      throw new FailureError('timeout', `The engine host did not start within ${seconds(this.openTimeoutMs)}.`);
    }
  }

  /** The document's info, or that the host was killed for another document's page meanwhile, or crashed while opening it. */
  private async openOn(host: LiveHost, ref: DocumentRef, signal: AbortSignal | undefined): Promise<OpenOutcome> {
    const events = host.events.document(ref.docId);
    host.process.send({ type: 'open', docId: ref.docId, path: ref.file, password: ref.password });
    // A host stalled by another document's page is for that page's time limit to end, not for this opening to be blamed.
    const othersConverting = [...this.converting].some((docId) => docId !== ref.docId);
    const deadline = Date.now() + (othersConverting ? Math.max(this.openTimeoutMs, this.pageTimeoutMs) : this.openTimeoutMs);
    for (;;) {
      const taken = await events.take(deadline, signal);
      if (taken.kind === 'event') {
        const event = taken.event;
        if (event.type === 'opened') {
          host.openDocuments.add(ref.docId);
          return { kind: 'opened', info: event.info };
        }
        if (event.type === 'open-failed' || event.type === 'request-rejected') host.events.forget(ref.docId);
        if (event.type === 'open-failed') throw new FailureError(event.failure.code, event.failure.message, event.failure.remedy);
        if (event.type === 'request-rejected') throw new FailureError('internal', event.message);
        continue;
      }
      if (taken.kind === 'exit' && host.replaced) return { kind: 'replaced' };
      this.discardHost(host);
      if (taken.kind === 'aborted') throw signal?.reason;
      if (taken.kind === 'exit') return { kind: 'crashed', description: taken.description };
      throw new FailureError('timeout', `${ref.file}: could not be opened within ${seconds(this.openTimeoutMs)}; it may be damaged or built to stall PDF readers.`);
    }
  }

  /**
   * Runs one conversion on one host until it finishes, is cancelled, or loses its host; `remaining`
   * shrinks as pages finish. Pages finish in order even when several are in flight, so the time limit
   * applies to the oldest unfinished page, counted from its own start and not before the engine was
   * ready (page-clock.ts). A preparation past its own limit would stall again in a fresh host, so
   * every page left fails with it; a cancel while it prepares ends the host at once.
   */
  private async convertOn(
    host: LiveHost,
    docId: string,
    remaining: number[],
    options: ConvertOptions,
    callbacks: PageCallbacks,
    signal: AbortSignal | undefined,
    pageTimeoutMs: number,
  ): Promise<void> {
    const events = host.events.document(docId);
    host.process.send({ type: 'convert', docId, pages: [...remaining], options });
    const clock = new PageClock(pageTimeoutMs, Date.now());
    let cancelSent = false;
    const finish = (page: number) => {
      const index = remaining.indexOf(page);
      if (index >= 0) remaining.splice(index, 1);
      clock.finished(page, Date.now());
    };
    for (;;) {
      const deadline = clock.deadline(remaining[0]);
      const taken = await events.take(deadline.at, cancelSent ? undefined : signal);
      if (taken.kind === 'aborted') {
        // a model still opening would make the cancel wait minutes for nothing: no page is under way to keep
        if (deadline.phase.kind === 'preparing') {
          this.discardHost(host);
          return;
        }
        host.process.send({ type: 'cancel', docId });
        cancelSent = true;
        continue;
      }
      if (taken.kind === 'timeout' || taken.kind === 'exit') {
        // killed for another document's page: this document's pages go on in a fresh host, none blamed
        if (taken.kind === 'exit' && host.replaced) return;
        // A crash with several documents on the host cannot say whose page caused it; each fails its
        // oldest unfinished page, so no document can crash hosts forever.
        this.discardHost(host);
        if (taken.kind === 'timeout' && deadline.phase.kind === 'preparing') {
          const failure = preparationFailure(deadline.phase.detail, deadline.phase.limitMs);
          const unread = remaining.splice(0);
          if (!cancelSent && !signal?.aborted) for (const page of unread) callbacks.pageFailed?.(page, failure);
          return;
        }
        const page = remaining.shift();
        if (cancelSent || signal?.aborted || page === undefined) return;
        const failure = taken.kind === 'timeout' ? timeoutFailure(pageTimeoutMs) : crashFailure(taken.description);
        callbacks.pageFailed?.(page, failure);
        return;
      }
      const event = taken.event;
      switch (event.type) {
        case 'engine-preparing':
          clock.preparingSince(Date.now(), event.detail, this.preparationLimitMs(event.bytes));
          callbacks.enginePreparing?.(event.page, event.detail, event.bytes);
          break;
        case 'engine-ready':
          clock.ready(Date.now());
          callbacks.engineReady?.(event.page);
          break;
        case 'page-started':
          clock.started(event.page, Date.now());
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
}

type OpenOutcome = { kind: 'opened'; info: DocumentInfo } | { kind: 'replaced' } | { kind: 'crashed'; description: string };

// Said when the page fails, before the restart: whether the other pages go on is for their own lines to tell.
function timeoutFailure(pageTimeoutMs: number): Failure {
  return { code: 'timeout', message: `took longer than ${seconds(pageTimeoutMs)}, so its engine was stopped.` };
}

function preparationFailure(detail: string, limitMs: number): Failure {
  return { code: 'timeout', message: `not tried: the engine was still ${detail} after ${seconds(limitMs)}, so it was stopped.` };
}

function crashFailure(description: string): Failure {
  return { code: 'engine-crashed', message: `the engine crashed while reading it (${description}).` };
}

/** A page never tried because no engine could be brought back for its document. */
function unreachedFailure(cause: Failure, file: string): Failure {
  const reason = cause.message.startsWith(`${file}: `) ? cause.message.slice(file.length + 2) : cause.message;
  return { code: cause.code, message: `not tried: ${reason.charAt(0).toLowerCase()}${reason.slice(1)}` };
}

function times(count: number): string {
  return count === 1 ? 'once' : `${count} times in a row`;
}

/** Waits `ms`, or less when the signal stops it; the caller then finds the signal aborted. */
function pause(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });
}

function seconds(ms: number): string {
  return `${Math.round(ms / 100) / 10} s`;
}
