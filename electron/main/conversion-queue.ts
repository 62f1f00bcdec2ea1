/**
 * Conversions run one document at a time on one engine host (the engines are memory-hungry), in the
 * order asked. Each job reports through workspace events, and each change of the order goes out
 * too (so a waiting document can say where it stands); a cancel removes a waiting job or stops the
 * running one, and the host supervisor makes a crash or a hang fail only the running page.
 */

import type { ConvertOptions } from '../../shared/protocol.js';
import type { WorkspaceEvent } from '../../shared/workspace.js';
import { toFailure } from '../core/failure-error.js';
import type { HostClient, OpenedDocument } from '../core/engine-client/host-client.js';

const DEFAULT_CANCEL_GRACE_MS = 3000;

type ConvertDone = Extract<WorkspaceEvent, { type: 'convert-done' }>;

interface Job {
  docId: string;
  file: string;
  pages: number[];
  options: ConvertOptions;
  password: string | undefined;
  controller: AbortController;
  /** Whether its `pages-queued` went out: a job behind a running one of the same document waits to say so. */
  announced: boolean;
}

export class ConversionQueue {
  private readonly waiting: Job[] = [];
  private running: Job | undefined;
  private loop: Promise<void> | undefined;
  /** The order last announced, as its `queue-changed` said it. */
  private announcedOrder = '[]';

  constructor(
    private readonly client: HostClient,
    private readonly emit: (event: WorkspaceEvent) => void,
    /** A page's time limit for a conversion with these options (a VLM page on a CPU needs minutes). */
    private readonly pageLimitMs: (options: ConvertOptions) => number,
    /** How long a cancelled page may take to stop before its host is ended. */
    private readonly cancelGraceMs = DEFAULT_CANCEL_GRACE_MS,
  ) {}

  enqueue(docId: string, file: string, pages: readonly number[], options: ConvertOptions, password?: string): void {
    if (pages.length === 0) return;
    const waiting = this.waiting.find((job) => job.docId === docId && job.password === password && sameOptions(job.options, options));
    if (waiting) {
      const added = pages.filter((page) => !waiting.pages.includes(page));
      waiting.pages.push(...added);
      if (waiting.announced && added.length > 0) this.emit({ type: 'pages-queued', docId, pages: added });
      return;
    }
    // the running job's convert-done would settle these pages again, so they are announced when they start
    const announced = this.running?.docId !== docId;
    const job: Job = { docId, file, pages: [...pages], options, password, controller: new AbortController(), announced };
    this.waiting.push(job);
    if (announced) this.emit({ type: 'pages-queued', docId, pages: job.pages });
    this.announceOrder();
    this.loop ??= this.drain();
  }

  /**
   * Stops the document's running job and drops its waiting ones. An engine that does not stop
   * within a moment (a page stuck in pdf.js) has its host ended, rather than the user waiting out
   * the page time limit; the next conversion starts a fresh one.
   */
  cancel(docId: string): void {
    const dropped = this.waiting.filter((job) => job.docId === docId);
    for (const job of dropped) this.waiting.splice(this.waiting.indexOf(job), 1);
    this.announceOrder();
    const running = this.running;
    if (running?.docId === docId) {
      running.controller.abort(new Error('cancelled'));
      setTimeout(() => {
        if (this.running === running) this.client.dispose();
      }, this.cancelGraceMs).unref();
    } else if (dropped.some((job) => job.announced)) {
      this.emit({ type: 'convert-done', docId, cancelled: true });
    }
  }

  isConverting(docId: string): boolean {
    return this.running?.docId === docId || this.waiting.some((job) => job.docId === docId);
  }

  /** Cancels everything; `idle()` then says when the running job has let go. */
  stop(): void {
    const dropped = this.waiting.splice(0);
    this.announceOrder();
    for (const job of dropped) {
      if (job.announced) this.emit({ type: 'convert-done', docId: job.docId, cancelled: true });
    }
    this.running?.controller.abort(new Error('stopped'));
  }

  async idle(): Promise<void> {
    await this.loop;
  }

  private async drain(): Promise<void> {
    for (let job = this.waiting.shift(); job; job = this.waiting.shift()) {
      this.running = job;
      let finished: ConvertDone | undefined;
      try {
        // again at the start: an earlier job of the same document may have settled them since
        this.emit({ type: 'pages-queued', docId: job.docId, pages: job.pages });
        this.announceOrder();
        finished = await this.run(job);
      } finally {
        this.running = undefined;
        // the queue no longer holds a document by the time it is said to be done
        this.announceOrder();
        if (finished) this.emit(finished);
      }
    }
    this.announceOrder();
    // in the same synchronous step as the last shift, so an enqueue never finds a loop that has ended
    this.loop = undefined;
  }

  /** Says the documents' order (converting first, then waiting), when it changed. */
  private announceOrder(): void {
    const docIds = [...new Set([...(this.running ? [this.running.docId] : []), ...this.waiting.map((job) => job.docId)])];
    const order = JSON.stringify(docIds);
    if (order === this.announcedOrder) return;
    this.announcedOrder = order;
    this.emit({ type: 'queue-changed', docIds });
  }

  /** Converts the job's pages, reporting each; resolves with its `convert-done`, for the caller to send. */
  private async run(job: Job): Promise<ConvertDone> {
    const { docId } = job;
    const signal = job.controller.signal;
    let doc: OpenedDocument;
    try {
      doc = await this.client.open(job.file, job.password, signal);
    } catch (error) {
      if (!signal.aborted) this.emit({ type: 'document-failed', docId, failure: toFailure(error) });
      return { type: 'convert-done', docId, cancelled: signal.aborted };
    }
    try {
      const { cancelled } = await this.client.convert(
        doc,
        job.pages,
        job.options,
        {
          enginePreparing: (page, detail, bytes) => this.emit({ type: 'engine-preparing', docId, page, detail, bytes }),
          engineReady: (page) => this.emit({ type: 'engine-ready', docId, page }),
          pageStarted: (page) => this.emit({ type: 'page-started', docId, page }),
          pageDelta: (page, text) => this.emit({ type: 'page-delta', docId, page, text }),
          pageDone: (result) => this.emit({ type: 'page-done', docId, result }),
          pageFailed: (page, failure) => this.emit({ type: 'page-failed', docId, page, failure }),
        },
        signal,
        this.pageLimitMs(job.options),
      );
      return { type: 'convert-done', docId, cancelled };
    } catch (error) {
      this.emit({ type: 'document-failed', docId, failure: toFailure(error) });
      return { type: 'convert-done', docId, cancelled: false };
    } finally {
      this.client.close(doc);
    }
  }
}

function sameOptions(a: ConvertOptions, b: ConvertOptions): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}
