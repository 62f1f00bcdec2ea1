import { describe, expect, it } from 'vitest';
import { convertInPageOrder, type PageOutcome } from './page-order.js';

/** Resolves pages when the test says so, recording what ran at once. */
function controlledPages() {
  const pending = new Map<number, { resolve: (value: string) => void; reject: (error: Error) => void }>();
  const log: string[] = [];
  let running = 0;
  let mostRunning = 0;
  return {
    log,
    get mostRunning() {
      return mostRunning;
    },
    started: () => [...pending.keys()],
    finish: (page: number) => pending.get(page)!.resolve(`page ${page}`),
    fail: (page: number) => pending.get(page)!.reject(new Error(`page ${page} broke`)),
    work: (signal: AbortSignal) => ({
      start: (page: number) => log.push(`start ${page}`),
      convert: (page: number) =>
        new Promise<string>((resolve, reject) => {
          running++;
          mostRunning = Math.max(mostRunning, running);
          const settle = () => {
            running--;
            pending.delete(page);
          };
          pending.set(page, {
            resolve: (value) => (settle(), resolve(value)),
            reject: (error) => (settle(), reject(error)),
          });
          signal.addEventListener('abort', () => pending.get(page)?.reject(new Error('cancelled')));
        }),
      report: (page: number, outcome: PageOutcome<string>) => log.push(outcome.ok ? `done ${page}` : `failed ${page}`),
    }),
  };
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('convertInPageOrder', () => {
  it('keeps at most the given number of pages running and reports them in page order whatever order they finish in', async () => {
    const pages = controlledPages();
    const signal = new AbortController().signal;
    const run = convertInPageOrder([1, 2, 3, 4, 5], 3, signal, pages.work(signal));
    await tick();
    expect(pages.started()).toEqual([1, 2, 3]);
    pages.finish(3);
    pages.finish(2);
    await tick();
    expect(pages.log.filter((line) => line.startsWith('done'))).toEqual([]);
    expect(pages.started()).toEqual([1, 4, 5]);
    pages.fail(1);
    pages.finish(5);
    pages.finish(4);
    await run;
    expect(pages.log.filter((line) => !line.startsWith('start'))).toEqual(['failed 1', 'done 2', 'done 3', 'done 4', 'done 5']);
    expect(pages.mostRunning).toBe(3);
  });

  it('runs one page at a time, start to report, when one is in flight', async () => {
    const pages = controlledPages();
    const signal = new AbortController().signal;
    const run = convertInPageOrder([7, 8], 1, signal, pages.work(signal));
    await tick();
    pages.finish(7);
    await tick();
    pages.finish(8);
    await run;
    expect(pages.log).toEqual(['start 7', 'done 7', 'start 8', 'done 8']);
  });

  it('stops starting pages on cancel and reports none that the cancel cut short', async () => {
    const pages = controlledPages();
    const abort = new AbortController();
    const run = convertInPageOrder([1, 2, 3, 4], 2, abort.signal, pages.work(abort.signal));
    await tick();
    pages.finish(1);
    await tick();
    abort.abort();
    await run;
    expect(pages.log).toEqual(['start 1', 'start 2', 'done 1', 'start 3']);
  });

  it('lets a cancel from outside in between pages that settle at once (read synchronously)', async () => {
    const abort = new AbortController();
    const reported: number[] = [];
    const pages = Array.from({ length: 10_000 }, (_, index) => index + 1);
    // the cancel arrives as a message would: a macrotask, never run if the pages hold the microtask queue
    setImmediate(() => abort.abort());
    await convertInPageOrder(pages, 2, abort.signal, {
      start: () => undefined,
      convert: async (page) => page,
      report: (page) => reported.push(page),
    });
    expect(reported.length).toBeGreaterThan(0);
    expect(reported.length).toBeLessThan(pages.length);
    expect(reported).toEqual(pages.slice(0, reported.length));
  });

  it('does not start pages further ahead of the oldest unreported page than its window', async () => {
    const pages = controlledPages();
    const signal = new AbortController().signal;
    const all = Array.from({ length: 20 }, (_, i) => i + 1);
    const run = convertInPageOrder(all, 2, signal, pages.work(signal));
    await tick();
    // page 1 is slow; page 2's lane runs ahead up to the window (4 x 2 pages from page 1)
    for (let page = 2; page <= 8; page++) {
      pages.finish(page);
      await tick();
    }
    expect(pages.started()).toEqual([1]);
    pages.finish(1);
    await tick();
    expect(pages.log.filter((line) => line.startsWith('done'))).toHaveLength(8);
    let finished = false;
    void run.then(() => (finished = true));
    while (!finished) {
      for (const page of pages.started()) pages.finish(page);
      await tick();
    }
    expect(pages.log.filter((line) => line.startsWith('done'))).toEqual(all.map((page) => `done ${page}`));
  });
});
