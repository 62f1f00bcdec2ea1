/** Progress on a terminal: one line redrawn in place (file, pages done/total, pages/s, time left), with finished files and failures printed above it. */

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
}

/** Fits `width` columns by shortening the file name, so the numbers always show. */
export function progressLine(state: ProgressState, width: number): string {
  const rate = state.batchMs > 0 ? (state.batchPages * 1000) / state.batchMs : 0;
  const left = state.pagesTotal - state.pagesDone;
  const eta = rate > 0 && state.batchPages > 0 ? `, ${clock(left / rate)} left` : '';
  const counter = state.fileCount > 1 ? `[${state.fileIndex + 1}/${state.fileCount}] ` : '';
  const numbers = `: ${state.pagesDone}/${state.pagesTotal} pages, ${rate.toFixed(1)} pages/s${eta}`;
  const room = width - counter.length - numbers.length;
  const name = path.basename(state.file);
  const shown = name.length <= room ? name : `…${name.slice(Math.max(0, name.length - room + 1))}`;
  return `${counter}${room > 1 ? shown : ''}${numbers}`.slice(0, width);
}

function clock(seconds: number): string {
  const whole = Math.ceil(seconds);
  return whole < 60 ? `${whole} s` : `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, '0')}`;
}

export function ttyProgress(stderr: WriteStream, now: () => number = performance.now.bind(performance)): BatchReporter {
  const started = now();
  let state: ProgressState | undefined;
  let batchPages = 0;
  const clear = () => stderr.write('\r\x1b[K');
  const draw = () => {
    if (!state) return;
    clear();
    // The last column stays empty: writing into it makes some terminals wrap before the next redraw.
    stderr.write(progressLine({ ...state, batchPages, batchMs: now() - started }, (stderr.columns || 80) - 1));
  };
  const above = (text: string) => {
    clear();
    stderr.write(`${text}\n`);
    draw();
  };
  const pageFinished = () => {
    batchPages++;
    if (state) state.pagesDone++;
    draw();
  };
  return {
    documentOpened: (file, _info, pages, index, count) => {
      state = { file, fileIndex: index, fileCount: count, pagesDone: 0, pagesTotal: pages.length, batchPages, batchMs: 0 };
      draw();
    },
    pageStarted: () => undefined,
    pageDone: (file, result) => {
      const review = reviewLine(file, result);
      if (review) above(review);
      pageFinished();
    },
    pageFailed: (file, page, failure) => {
      above(failureLine(file, failure.message, page));
      pageFinished();
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
