import type { WriteStream } from 'node:tty';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { DecodeStats, PageResult } from '../../shared/page.js';
import { progressLine, ttyProgress, type ProgressState } from './tty-progress.js';

const state: ProgressState = {
  file: '/data/papers/attention-is-all-you-need.pdf',
  fileIndex: 1,
  fileCount: 3,
  pagesDone: 5,
  pagesTotal: 15,
  batchPages: 20,
  batchMs: 10_000,
};

describe('progress line', () => {
  it('shows the file, pages done of total, the rate and the time left', () => {
    expect(progressLine(state, 100)).toBe('[2/3] attention-is-all-you-need.pdf: 5/15 pages, 2.0 pages/s, 5 s left');
  });

  it('gives minutes and seconds for long waits', () => {
    expect(progressLine({ ...state, pagesTotal: 200 }, 100)).toMatch(/, 1:38 left$/);
  });

  it('shows no time left before the first page has finished', () => {
    expect(progressLine({ ...state, batchPages: 0, pagesDone: 0 }, 100)).toBe('[2/3] attention-is-all-you-need.pdf: 0/15 pages, 0.0 pages/s');
  });

  it('shortens the file name, not the numbers, on a narrow terminal', () => {
    const line = progressLine(state, 50);
    expect(line).toHaveLength(50);
    expect(line).toMatch(/^\[2\/3\] …[\w-]*\.pdf: 5\/15 pages, 2\.0 pages\/s, 5 s left$/);
  });

  it('leaves out a single file counter', () => {
    expect(progressLine({ ...state, fileIndex: 0, fileCount: 1 }, 100)).toMatch(/^attention/);
  });

  it('says how long a wait has lasted once it passes 2 s', () => {
    expect(progressLine({ ...state, running: { what: 'page 6 running', ms: 23_400 } }, 140)).toMatch(/, 5 s left, page 6 running 24 s$/);
    expect(progressLine({ ...state, running: { what: 'page 6 running', ms: 95_000 } }, 140)).toMatch(/, page 6 running 1:35$/);
    expect(progressLine({ ...state, running: { what: 'page 6 running', ms: 1_500 } }, 140)).not.toMatch(/running/);
  });

  it("adds the model's tokens/s and what the page in progress has written", () => {
    expect(progressLine({ ...state, tokensPerSecond: 22.44, streamedChars: 12_345 }, 140)).toBe(
      '[2/3] attention-is-all-you-need.pdf: 5/15 pages, 2.0 pages/s, 5 s left, 22.4 tokens/s, 12,345 chars so far',
    );
    // with several pages in flight, how many shared the last page's passes
    expect(progressLine({ ...state, tokensPerSecond: 22.44, pagesTogether: 3.64 }, 140)).toMatch(/, 22\.4 tokens\/s \(3\.6 pages a pass\)$/);
    expect(progressLine({ ...state, tokensPerSecond: 22.44, pagesTogether: 1 }, 140)).toMatch(/, 22\.4 tokens\/s$/);
  });
});

describe('progress on a terminal', () => {
  function terminal(): { stream: WriteStream; lines: () => string[] } {
    let written = '';
    const stream = { columns: 200, write: (text: string) => ((written += text), true) } as unknown as WriteStream;
    // each redraw clears the line first: what a person sees is the text after the last clear
    return { stream, lines: () => written.split('\r\x1b[K').filter(Boolean) };
  }

  function result(page: number, newTokens: number, pagesTogether = 1): PageResult {
    const decode = { newTokens, tokensPerSecond: 99, pagesTogether: { most: Math.ceil(pagesTogether), mean: pagesTogether } } as DecodeStats;
    return { page, width: 100, height: 100, blocks: [], images: [], markdown: 'x', stats: { engine: 'vlm', device: 'cpu', timeMs: 1000, chars: 1, decode } } as PageResult;
  }

  it("counts a model's streamed characters while its page converts, then shows the tokens decoded per second since the first page started", () => {
    let clock = 0;
    const { stream, lines } = terminal();
    const progress = ttyProgress(stream, () => clock);
    progress.documentOpened('scan.png', { pageCount: 2 }, [1, 2], 0, 1);
    progress.pageStarted('scan.png', 1);
    for (const piece of ['# Quarterly', ' report', '\n\nRevenue']) {
      clock += 200;
      progress.pageDelta('scan.png', 1, piece);
    }
    expect(lines().at(-1)).toBe('scan.png: 0/2 pages, 0.0 pages/s, 27 chars so far');
    clock += 200;
    // 172 tokens in the 0.8 s since the page started: not the page's own rate (99 in its stats)
    progress.pageDone('scan.png', result(1, 172));
    expect(lines().at(-1)).toMatch(/^scan\.png: 1\/2 pages, [\d.]+ pages\/s, \d+ s left, 215\.0 tokens\/s$/);
    progress.documentDone('scan.png', ['scan.md']);
  });

  it("with pages in flight, counts every page's tokens over the time since the first one started", () => {
    let clock = 0;
    const { stream, lines } = terminal();
    const progress = ttyProgress(stream, () => clock);
    progress.documentOpened('book.pdf', { pageCount: 3 }, [1, 2, 3], 0, 1);
    clock = 5_000;
    progress.pageStarted('book.pdf', 1);
    progress.pageStarted('book.pdf', 2);
    clock = 15_000;
    progress.pageDone('book.pdf', result(1, 100, 2));
    expect(lines().at(-1)).toMatch(/, 10\.0 tokens\/s \(2\.0 pages a pass\), page 2 running 10 s$/);
    clock = 17_000;
    progress.pageDone('book.pdf', result(2, 140, 1.8));
    expect(lines().at(-1)).toMatch(/, 20\.0 tokens\/s \(1\.8 pages a pass\)$/);
    progress.documentDone('book.pdf', ['book.md']);
  });

  afterEach(() => {
    vi.useRealTimers();
  });

  it('counts up while the engine starts (a model opening) and while a page runs, and stops with the document', () => {
    vi.useFakeTimers();
    let clock = 0;
    const { stream, lines } = terminal();
    const progress = ttyProgress(stream, () => clock);
    progress.documentOpened('scan.png', { pageCount: 1 }, [1], 0, 1);
    clock = 26_000;
    vi.advanceTimersByTime(1000);
    expect(lines().at(-1)).toBe('scan.png: 0/1 pages, 0.0 pages/s, starting 26 s');
    progress.pageStarted('scan.png', 1);
    clock = 31_000;
    vi.advanceTimersByTime(1000);
    expect(lines().at(-1)).toBe('scan.png: 0/1 pages, 0.0 pages/s, page 1 running 5 s');
    progress.pageDone('scan.png', result(1, 20));
    expect(lines().at(-1)).not.toMatch(/running|starting/);
    progress.documentDone('scan.png', ['scan.md']);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('says what the engine does to get ready (opening the model) and for how long, then the page it was waiting for', () => {
    vi.useFakeTimers();
    let clock = 0;
    const { stream, lines } = terminal();
    const progress = ttyProgress(stream, () => clock);
    progress.documentOpened('scan.png', { pageCount: 1 }, [1], 0, 1);
    progress.enginePreparing('scan.png', 1, 'opening the model', 3_000_000);
    expect(lines().at(-1)).toBe('scan.png: 0/1 pages, 0.0 pages/s, opening the model… 0 s');
    clock = 40_000;
    progress.enginePreparing('scan.png', 1, 'opening the model (measuring webgpu, 2 of 2)', 3_000_000);
    clock = 71_000;
    vi.advanceTimersByTime(1000);
    expect(lines().at(-1)).toBe('scan.png: 0/1 pages, 0.0 pages/s, opening the model (measuring webgpu, 2 of 2)… 1:11');
    progress.engineReady('scan.png', 1);
    progress.pageStarted('scan.png', 1);
    clock = 74_000;
    vi.advanceTimersByTime(1000);
    expect(lines().at(-1)).toBe('scan.png: 0/1 pages, 0.0 pages/s, page 1 running 3 s');
    progress.documentDone('scan.png', ['scan.md']);
  });

  it('redraws streamed text at most every 100 ms', () => {
    let clock = 0;
    const { stream, lines } = terminal();
    const progress = ttyProgress(stream, () => clock);
    progress.documentOpened('scan.png', { pageCount: 1 }, [1], 0, 1);
    const before = lines().length;
    for (let i = 0; i < 50; i++) {
      clock += 1;
      progress.pageDelta('scan.png', 1, 'ab');
    }
    expect(lines().length - before).toBe(1);
    progress.documentDone('scan.png', ['scan.md']);
  });
});
