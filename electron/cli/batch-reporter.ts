/** What the convert command tells its audience (a terminal, a log, a program reading --json) as a batch runs. */

import type { Failure, FailureCode, Remedy } from '../../shared/failure.js';
import type { PageResult } from '../../shared/page.js';
import { reviewReasons } from '../../shared/page-review.js';
import type { DocumentInfo } from '../../shared/protocol.js';
import { terminalSafe } from './terminal-text.js';

/** Why a whole file failed: a failure from the engine, or a page selection the file cannot satisfy. */
export interface FileFailure {
  code: FailureCode | 'page-range';
  message: string;
  remedy?: Remedy;
}

/** Something a written document's reader should know: what an export could not carry over (by page), or pages --pages asked for that the document lacks. */
export interface DocumentWarning {
  page?: number;
  message: string;
}

export interface BatchSummary {
  files: number;
  filesFailed: number;
  pagesDone: number;
  pagesFailed: number;
  elapsedMs: number;
  /** Tokens a model decoded over the pages done (0 for engines without a model). */
  tokens: number;
  /**
   * From the first page's start to the last page's end, wall time: what the pages took together, the
   * engine's opening (a model package's) not counted. With pages in flight they overlap, so tokens
   * over this is the decoding throughput, not any one page's rate.
   */
  pagesMs: number;
  cancelled: boolean;
}

export interface BatchReporter {
  documentOpened(file: string, info: DocumentInfo, pages: readonly number[], index: number, count: number): void;
  /** The engine gets ready before `page` (opening the model); told again as what it does changes. */
  enginePreparing(file: string, page: number, detail: string, bytes: number): void;
  engineReady(file: string, page: number): void;
  pageStarted(file: string, page: number): void;
  /** Text a page in progress has produced so far, a piece at a time (models stream theirs). */
  pageDelta(file: string, page: number, text: string): void;
  pageDone(file: string, result: PageResult): void;
  pageFailed(file: string, page: number, failure: Failure): void;
  /** `warnings`: what the reader should know of a document that was still written. */
  documentDone(file: string, outputs: readonly string[], warnings?: readonly DocumentWarning[]): void;
  documentFailed(file: string, failure: FileFailure): void;
  summary(summary: BatchSummary): void;
}

/** One reporter made of several, e.g. --json events on stdout plus failure lines on stderr. */
export function allOf(reporters: readonly BatchReporter[]): BatchReporter {
  return {
    documentOpened: (...args) => reporters.forEach((reporter) => reporter.documentOpened(...args)),
    enginePreparing: (...args) => reporters.forEach((reporter) => reporter.enginePreparing(...args)),
    engineReady: (...args) => reporters.forEach((reporter) => reporter.engineReady(...args)),
    pageStarted: (...args) => reporters.forEach((reporter) => reporter.pageStarted(...args)),
    pageDelta: (...args) => reporters.forEach((reporter) => reporter.pageDelta(...args)),
    pageDone: (...args) => reporters.forEach((reporter) => reporter.pageDone(...args)),
    pageFailed: (...args) => reporters.forEach((reporter) => reporter.pageFailed(...args)),
    documentDone: (...args) => reporters.forEach((reporter) => reporter.documentDone(...args)),
    documentFailed: (...args) => reporters.forEach((reporter) => reporter.documentFailed(...args)),
    summary: (...args) => reporters.forEach((reporter) => reporter.summary(...args)),
  };
}

/** `file: page N: reason` or `file: reason`; engine messages that already start with the file are not prefixed twice. */
export function failureLine(file: string, message: string, page?: number): string {
  const reason = message.startsWith(`${file}: `) ? message.slice(file.length + 2) : message;
  return terminalSafe(page === undefined ? `${file}: ${reason}` : `${file}: page ${page}: ${reason}`);
}

/**
 * `file: page N: review: reason` for a converted page that is flagged for review, `file: page N: no
 * text...` for one that came out empty unflagged (as the app says "This page has no text"), else null.
 */
export function reviewLine(file: string, result: PageResult): string | null {
  const reasons = reviewReasons(result.stats);
  if (reasons.length) return terminalSafe(`${file}: page ${result.page}: review: ${reasons.join('; ')}.`);
  return result.markdown.trim() === '' ? terminalSafe(`${file}: page ${result.page}: no text found on this page; its Markdown is empty.`) : null;
}

/** `file: N pages -> a.md, a.html and 12 more`: per-page files (`_pgN`) come last and are counted, not listed. */
export function documentLine(file: string, pages: number, outputs: readonly string[]): string {
  const isPageFile = (name: string) => /_pg\d+\.\w+$/.test(name);
  const ordered = [...outputs.filter((name) => !isPageFile(name)), ...outputs.filter(isPageFile)];
  const shown = ordered.slice(0, 3).join(', ');
  const more = outputs.length > 3 ? ` and ${outputs.length - 3} more` : '';
  return terminalSafe(`${file}: ${pages} page${pages === 1 ? '' : 's'} -> ${shown}${more}`);
}

export function summaryLine(summary: BatchSummary): string {
  const seconds = summary.elapsedMs / 1000;
  const rate = seconds > 0 ? summary.pagesDone / seconds : 0;
  const converted = summary.files - summary.filesFailed;
  const failedPages = summary.pagesFailed ? `, ${summary.pagesFailed} failed` : '';
  const head = summary.cancelled ? 'Interrupted: converted' : 'Converted';
  const line = `${head} ${converted} of ${summary.files} file${summary.files === 1 ? '' : 's'} (${summary.pagesDone} page${summary.pagesDone === 1 ? '' : 's'}${failedPages}) in ${seconds.toFixed(1)} s, ${rate.toFixed(1)} pages/s.`;
  return summary.tokens > 0 ? `${line} ${tokensLine(summary.tokens, summary.pagesMs)}` : line;
}

/** `12,345 tokens decoded in 98.7 s of pages: 125.1 tokens/s`: the model's throughput over the pages' wall time. */
export function tokensLine(tokens: number, pagesMs: number): string {
  const seconds = pagesMs / 1000;
  const rate = seconds > 0 ? tokens / seconds : 0;
  return `${tokens.toLocaleString('en-US')} tokens decoded in ${seconds.toFixed(1)} s from the first page's start to the last page's end: ${rate.toFixed(1)} tokens/s.`;
}
