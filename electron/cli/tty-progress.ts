/**
 * Progress on a terminal: one line redrawn in place (file, pages done/total, pages/s, time left;
 * for a page, or a document's start, taking more than 2 s, how long so far; with a model, the last
 * tokens/s over the pages so far and the characters the pages in progress have written), with finished files and
 * failures printed above it.
 */

import path from 'node:path';
import type { WriteStream } from 'node:tty';
import { documentLine, failureLine, reviewLine, summaryLine, type BatchReporter } from './batch-reporter.js';
import { terminalSafe } from './terminal-text.js';

export interface ProgressState {
  file: string;
  fileIndex: number;
  fileCount: number;
  pagesDone: number;
  pagesTotal: number;
  /** Pages finished in the whole batch, and the time they took: the rate carries across files. */
  batchPages: number;
  batchMs: number;
  /**
   * Tokens a model decoded over the pages done, per second from the first page's start: the
   * throughput with several pages in flight, not one page's rate.
   */
  tokensPerSecond?: number;
  /** Pages the last page decoded alongside in a decoder pass, on average, itself counted (`--pages-in-flight`). */
  pagesTogether?: number;
  /** Characters the page in progress has streamed so far (a model's pages take seconds to minutes). */
  streamedChars?: number;
  /**
   * What has been under way for a while, and for how long: the page in flight the longest, or
   * before any page has started, the document's start (an engine opening its model).
   */
  running?: { what: string; ms: number };
  /** What the engine does before the next page can start (opening the model), and for how long: shown at once. */
  preparing?: { detail: string; ms: number };
}

/** A wait is shown once it has taken this long: text pages take milliseconds. */
const RUNNING_SHOWN_MS = 2000;

/** Fits `width` columns by shortening the file name, so the numbers always show. */
export function progressLine(state: ProgressState, width: number): string {
  const rate = state.batchMs > 0 ? (state.batchPages * 1000) / state.batchMs : 0;
  const left = state.pagesTotal - state.pagesDone;
  const eta = rate > 0 && state.batchPages > 0 ? `, ${clock(left / rate)} left` : '';
  const counter = state.fileCount > 1 ? `[${state.fileIndex + 1}/${state.fileCount}] ` : '';
  const together = state.pagesTogether && state.pagesTogether > 1 ? ` (${state.pagesTogether.toFixed(1)} pages a pass)` : '';
  const tokens = state.tokensPerSecond ? `, ${state.tokensPerSecond.toFixed(1)} tokens/s${together}` : '';
  const chars = state.streamedChars ?? 0;
  const streamed = chars ? `, ${chars.toLocaleString('en-US')} char${chars === 1 ? '' : 's'} so far` : '';
  const running = state.preparing
    ? `, ${terminalSafe(state.preparing.detail)}… ${clock(state.preparing.ms / 1000)}`
    : state.running && state.running.ms >= RUNNING_SHOWN_MS ? `, ${state.running.what} ${clock(state.running.ms / 1000)}` : '';
  const numbers = `: ${state.pagesDone}/${state.pagesTotal} pages, ${rate.toFixed(1)} pages/s${eta}${tokens}${running}${streamed}`;
  const room = width - counter.length - numbers.length;
  const name = terminalSafe(path.basename(state.file));
  const shown = name.length <= room ? name : `…${name.slice(Math.max(0, name.length - room + 1))}`;
  return `${counter}${room > 1 ? shown : ''}${numbers}`.slice(0, width);
}

function clock(seconds: number): string {
  const whole = Math.ceil(seconds);
  return whole < 60 ? `${whole} s` : `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, '0')}`;
}

/** Redraws for streamed text at most this often: a model writes a token every few milliseconds on a GPU. */
const STREAM_REDRAW_MS = 100;
/** While a document converts the line is redrawn this often, so a wait counts up. */
const TICK_MS = 1000;

export function ttyProgress(stderr: WriteStream, now: () => number = performance.now.bind(performance)): BatchReporter {
  const started = now();
  let state: ProgressState | undefined;
  let batchPages = 0;
  let tokens = 0;
  let firstPageAt: number | undefined;
  let tokensPerSecond: number | undefined;
  let pagesTogether: number | undefined;
  // characters streamed by each page in flight (the remote engine keeps several), and when each started
  const streamed = new Map<number, number>();
  const startedAt = new Map<number, number>();
  let documentStartedAt = 0;
  let preparing: { detail: string; since: number } | undefined;
  let ticker: ReturnType<typeof setInterval> | undefined;
  const stopTicking = () => {
    clearInterval(ticker);
    ticker = undefined;
  };
  let lastStreamDraw = Number.NEGATIVE_INFINITY;
  const clear = () => stderr.write('\r\x1b[K');
  const draw = () => {
    if (!state) return;
    clear();
    // The last column stays empty: writing into it makes some terminals wrap before the next redraw.
    const streamedChars = [...streamed.values()].reduce((sum, chars) => sum + chars, 0);
    const [oldest] = [...startedAt].sort((a, b) => a[1] - b[1]);
    const running = oldest
      ? { what: `page ${oldest[0]} running`, ms: now() - oldest[1] }
      : state.pagesDone === 0 ? { what: 'starting', ms: now() - documentStartedAt } : undefined;
    const prepared = preparing && { detail: preparing.detail, ms: now() - preparing.since };
    stderr.write(progressLine({ ...state, batchPages, batchMs: now() - started, tokensPerSecond, pagesTogether, streamedChars, running, preparing: prepared }, (stderr.columns || 80) - 1));
  };
  const above = (text: string) => {
    clear();
    stderr.write(`${text}\n`);
    draw();
  };
  const pageFinished = (page: number) => {
    batchPages++;
    // a preparation that ran out of time ends with its pages failed, not with engine-ready
    preparing = undefined;
    streamed.delete(page);
    startedAt.delete(page);
    if (state) state.pagesDone++;
    draw();
  };
  return {
    documentOpened: (file, _info, pages, index, count) => {
      streamed.clear();
      startedAt.clear();
      preparing = undefined;
      documentStartedAt = now();
      ticker ??= setInterval(draw, TICK_MS).unref();
      state = { file, fileIndex: index, fileCount: count, pagesDone: 0, pagesTotal: pages.length, batchPages, batchMs: 0 };
      draw();
    },
    enginePreparing: (_file, _page, detail) => {
      preparing = { detail, since: preparing?.since ?? now() };
      draw();
    },
    engineReady: () => {
      preparing = undefined;
      draw();
    },
    pageStarted: (_file, page) => {
      firstPageAt ??= now();
      startedAt.set(page, now());
    },
    pageDelta: (_file, page, text) => {
      streamed.set(page, (streamed.get(page) ?? 0) + text.length);
      if (now() - lastStreamDraw < STREAM_REDRAW_MS) return;
      lastStreamDraw = now();
      draw();
    },
    pageDone: (file, result) => {
      const decode = result.stats.decode;
      if (decode?.newTokens) {
        tokens += decode.newTokens;
        const ms = now() - (firstPageAt ?? started);
        tokensPerSecond = ms > 0 ? (tokens * 1000) / ms : undefined;
        pagesTogether = decode.pagesTogether.mean;
      }
      const review = reviewLine(file, result);
      if (review) above(review);
      pageFinished(result.page);
    },
    pageFailed: (file, page, failure) => {
      above(failureLine(file, failure.message, page));
      pageFinished(page);
    },
    documentDone: (file, outputs, warnings) => {
      stopTicking();
      for (const warning of warnings ?? []) above(failureLine(file, `warning: ${warning.message}`, warning.page));
      const pages = state?.pagesDone ?? 0;
      state = undefined;
      above(documentLine(file, pages, outputs));
    },
    documentFailed: (file, failure) => {
      stopTicking();
      state = undefined;
      above(failureLine(file, failure.message));
    },
    summary: (summary) => {
      stopTicking();
      clear();
      stderr.write(`${summaryLine(summary)}\n`);
    },
  };
}
