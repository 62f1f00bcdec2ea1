/**
 * Several pages in flight, reported in page order. Pages start in the order given, at most
 * `inFlight` at once; an outcome is reported when every page before it has been, so a listener
 * (the CLI's output, the UI's page list, the supervisor's time limit) sees the same order as with
 * one page at a time. Pages finished early wait, but no further than a bounded window ahead.
 */

import { setImmediate as nextTurn } from 'node:timers/promises';

export type PageOutcome<T> = { ok: true; value: T } | { ok: false; error: unknown };

export interface OrderedPages<T> {
  start(page: number): void;
  convert(page: number): Promise<T>;
  /** Called in page order; after the signal aborts, only outcomes already due before it are reported. */
  report(page: number, outcome: PageOutcome<T>): void;
}

/** How far past the oldest unreported page new pages may start, in multiples of `inFlight`. */
const WINDOW_FACTOR = 4;

export async function convertInPageOrder<T>(pages: readonly number[], inFlight: number, signal: AbortSignal, work: OrderedPages<T>): Promise<void> {
  const outcomes: (PageOutcome<T> | undefined)[] = [];
  const window = Math.max(1, inFlight) * WINDOW_FACTOR;
  let next = 0;
  let reported = 0;
  let stopped = false;
  const waiting: (() => void)[] = [];

  const flush = () => {
    for (let outcome = outcomes[reported]; outcome && !stopped; outcome = outcomes[reported]) {
      // a page cut short by cancel is not a failure to report; it and everything after it go unreported
      if (!outcome.ok && signal.aborted) stopped = true;
      else work.report(pages[reported]!, outcome);
      outcomes[reported++] = undefined;
    }
    for (const wake of waiting.splice(0)) wake();
  };

  const lane = async (): Promise<void> => {
    while (next < pages.length && !signal.aborted) {
      if (next >= reported + window) {
        await new Promise<void>((resolve) => waiting.push(resolve));
        continue;
      }
      const index = next++;
      const page = pages[index]!;
      work.start(page);
      try {
        outcomes[index] = { ok: true, value: await work.convert(page) };
      } catch (error) {
        outcomes[index] = { ok: false, error };
      }
      flush();
      // A page read synchronously (PDFium) settles without leaving the microtask queue; a turn of the
      // event loop between pages lets a cancel (or any message) in before the whole document is done.
      await nextTurn();
    }
  };

  await Promise.all(Array.from({ length: Math.max(1, Math.min(inFlight, pages.length)) }, lane));
}
