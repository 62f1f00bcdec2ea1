/** Progress as plain lines on stderr when it is not a terminal (a log, CI): one line per file, per failure and per page to review. */

import type { Writable } from 'node:stream';
import { documentLine, failureLine, reviewLine, summaryLine, type BatchReporter } from './batch-reporter.js';
import { terminalSafe } from './terminal-text.js';

/** With `perFile` false only failures and pages to review are written: the --json stream on stdout already says the rest. */
export function logLines(stderr: Writable, perFile: boolean): BatchReporter {
  const line = (text: string) => stderr.write(`${text}\n`);
  const pagesDone = new Map<string, number>();
  return {
    documentOpened: (file) => pagesDone.set(file, 0),
    // minutes may pass before the first page: a log says why
    enginePreparing: (file, page, detail) => {
      if (perFile) line(terminalSafe(`${file}: page ${page}: ${detail}…`));
    },
    engineReady: () => undefined,
    pageStarted: () => undefined,
    pageDelta: () => undefined,
    pageDone: (file, result) => {
      pagesDone.set(file, (pagesDone.get(file) ?? 0) + 1);
      const review = reviewLine(file, result);
      if (review) line(review);
    },
    pageFailed: (file, page, failure) => line(failureLine(file, failure.message, page)),
    documentDone: (file, outputs, warnings) => {
      for (const warning of warnings ?? []) line(failureLine(file, `warning: ${warning.message}`, warning.page));
      if (!perFile) return;
      const pages = pagesDone.get(file) ?? 0;
      line(documentLine(file, pages, outputs));
    },
    documentFailed: (file, failure) => line(failureLine(file, failure.message)),
    summary: (summary) => {
      if (perFile) line(summaryLine(summary));
    },
  };
}
