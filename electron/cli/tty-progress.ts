/**
 * Progress on a terminal: one line redrawn in place (file, pages done/total, pages/s, time left;
 * with a model, the last page's tokens/s and the characters the page in progress has written),
 * with finished files and failures printed above it.
 */

import path from 'node:path';
import type { WriteStream } from 'node:tty';
import { documentLine, failureLine, reviewLine, summaryLine, type BatchReporter } from './batch-reporter.js';

export interface ProgressState {
  file: string;
  fileIndex: number;
  fileCount: number;
  pagesDone: number;
  pagesTotal: number;
  /** Pages finished in the whole batch, and the time they took: the rate carries across files. */
  batchPages: number;
  batchMs: number;
  /** Decoding speed of the last page a model read. */
  tokensPerSecond?: number;
  /** Characters the page in progress has streamed so far (a model's pages take seconds to minutes). */
  streamedChars?: number;
}

/** Fits `width` columns by shortening the file name, so the numbers always show. */
export function progressLine(state: ProgressState, width: number): string {
  const rate = state.batchMs > 0 ? (state.batchPages * 1000) / state.batchMs : 0;
  const left = state.pagesTotal - state.pagesDone;
  const eta = rate > 0 && state.batchPages > 0 ? `, ${clock(left / rate)} left` : '';
  const counter = state.fileCount > 1 ? `[${state.fileIndex + 1}/${state.fileCount}] ` : '';
  const tokens = state.tokensPerSecond ? `, ${state.tokensPerSecond.toFixed(1)} tokens/s` : '';
  const chars = state.streamedChars ?? 0;
  const streamed = chars ? `, ${chars.toLocaleString('en-US')} char${chars === 1 ? '' : 's'} so far` : '';
  const numbers = `: ${state.pagesDone}/${state.pagesTotal} pages, ${rate.toFixed(1)} pages/s${eta}${tokens}${streamed}`;
  const room = width - counter.length - numbers.length;
  const name = path.basename(state.file);
  const shown = name.length <= room ? name : `…${name.slice(Math.max(0, name.length - room + 1))}`;
  return `${counter}${room > 1 ? shown : ''}${numbers}`.slice(0, width);
}

function clock(seconds: number): string {
  const whole = Math.ceil(seconds);
  return whole < 60 ? `${whole} s` : `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, '0')}`;
}

/** Redraws for streamed text at most this often: a model writes a token every few milliseconds on a GPU. */
const STREAM_REDRAW_MS = 100;

export function ttyProgress(stderr: WriteStream, now: () => number = performance.now.bind(performance)): BatchReporter {
  const started = now();
  let state: ProgressState | undefined;
  let batchPages = 0;
  let tokensPerSecond: number | undefined;
  // characters streamed by each page in flight (the remote engine keeps several)
  const streamed = new Map<number, number>();
  let lastStreamDraw = Number.NEGATIVE_INFINITY;
  const clear = () => stderr.write('\r\x1b[K');
  const draw = () => {
    if (!state) return;
    clear();
    // The last column stays empty: writing into it makes some terminals wrap before the next redraw.
    const streamedChars = [...streamed.values()].reduce((sum, chars) => sum + chars, 0);
    stderr.write(progressLine({ ...state, batchPages, batchMs: now() - started, tokensPerSecond, streamedChars }, (stderr.columns || 80) - 1));
  };
  const above = (text: string) => {
    clear();
    stderr.write(`${text}\n`);
    draw();
  };
  const pageFinished = (page: number) => {
    batchPages++;
    streamed.delete(page);
    if (state) state.pagesDone++;
    draw();
  };
  return {
    documentOpened: (file, _info, pages, index, count) => {
      streamed.clear();
      state = { file, fileIndex: index, fileCount: count, pagesDone: 0, pagesTotal: pages.length, batchPages, batchMs: 0 };
      draw();
    },
    pageStarted: () => undefined,
    pageDelta: (_file, page, text) => {
      streamed.set(page, (streamed.get(page) ?? 0) + text.length);
      if (now() - lastStreamDraw < STREAM_REDRAW_MS) return;
      lastStreamDraw = now();
      draw();
    },
    pageDone: (file, result) => {
      const decode = result.stats.decode;
      if (decode?.tokensPerSecond) tokensPerSecond = decode.tokensPerSecond;
      const review = reviewLine(file, result);
      if (review) above(review);
      pageFinished(result.page);
    },
    pageFailed: (file, page, failure) => {
      above(failureLine(file, failure.message, page));
      pageFinished(page);
    },
    documentDone: (file, outputs, warnings) => {
      for (const warning of warnings ?? []) above(failureLine(file, `warning: ${warning.message}`, warning.page));
      const pages = state?.pagesDone ?? 0;
      state = undefined;
      above(documentLine(file, pages, outputs));
    },
    documentFailed: (file, failure) => {
      state = undefined;
      above(failureLine(file, failure.message));
    },
    summary: (summary) => {
      clear();
      stderr.write(`${summaryLine(summary)}\n`);
    },
  };
}
