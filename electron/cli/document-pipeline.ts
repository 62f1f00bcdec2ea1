/**
 * Several documents converting at once for an engine that serves many pages in parallel (remote):
 * the next document starts while the current one's last pages are in flight, and everything the
 * batch reports about a document waits until every earlier document is reported, so the progress,
 * the --json events and the output names read exactly as a run one document at a time.
 */

import type { BatchReporter } from './batch-reporter.js';

/** A document's place in the pipeline: how many of its pages are still unfinished. */
export interface DocumentSlot {
  /** Its page count is known: that many pages are unfinished. */
  pages(count: number): void;
  pageFinished(): void;
  /** Its conversion ended (done, failed or cancelled): none of its pages are unfinished any more. */
  converted(): void;
  /** Reported and written: it leaves the pipeline. */
  leave(): void;
}

/**
 * Room for documents while fewer than `limit` pages are unfinished (a document whose page count is
 * not known yet counts as one) and fewer than `limit` documents are waiting for their turn.
 */
export class DocumentPipeline {
  private unfinishedPages = 0;
  private documents = 0;
  private wake: (() => void) | undefined;

  constructor(private readonly limit: number) {}

  async enter(): Promise<DocumentSlot> {
    while (this.unfinishedPages >= this.limit || this.documents >= this.limit) await new Promise<void>((resolve) => (this.wake = resolve));
    this.documents++;
    let held = 0;
    const hold = (count: number) => {
      this.unfinishedPages += count - held;
      held = count;
      if (this.unfinishedPages < this.limit) this.wakeUp();
    };
    hold(1);
    return {
      pages: (count) => hold(count),
      pageFinished: () => hold(Math.max(0, held - 1)),
      converted: () => hold(0),
      leave: () => {
        hold(0);
        this.documents--;
        this.wakeUp();
      },
    };
  }

  private wakeUp(): void {
    const wake = this.wake;
    this.wake = undefined;
    wake?.();
  }
}

/** A reporter whose calls wait until `turn` resolves (every earlier document reported), then pass straight through. */
export function reporterAfter(turn: Promise<void>, target: BatchReporter): BatchReporter {
  let held: (() => void)[] | undefined = [];
  void turn.then(() => {
    const calls = held ?? [];
    held = undefined;
    for (const call of calls) call();
  });
  const later = (call: () => void) => (held ? held.push(call) : call());
  return {
    documentOpened: (...args) => later(() => target.documentOpened(...args)),
    enginePreparing: (...args) => later(() => target.enginePreparing(...args)),
    engineReady: (...args) => later(() => target.engineReady(...args)),
    pageStarted: (...args) => later(() => target.pageStarted(...args)),
    pageDelta: (...args) => later(() => target.pageDelta(...args)),
    pageDone: (...args) => later(() => target.pageDone(...args)),
    pageFailed: (...args) => later(() => target.pageFailed(...args)),
    documentDone: (...args) => later(() => target.documentDone(...args)),
    documentFailed: (...args) => later(() => target.documentFailed(...args)),
    summary: (...args) => later(() => target.summary(...args)),
  };
}
