/** `--json`: one event per line on stdout, for programs; page stats without the page's Markdown. */

import type { Writable } from 'node:stream';
import type { PageEventType } from '../../shared/page-event.js';
import type { BatchReporter } from './batch-reporter.js';
import { jsonLine } from './terminal-text.js';

export function jsonEvents(stdout: Writable): BatchReporter {
  const emit = (event: Record<string, unknown>) => stdout.write(jsonLine(event));
  // a page's events are named as the engine host and the workspace name them (shared/page-event.ts)
  const pageEvent = (event: PageEventType, fields: Record<string, unknown>) => emit({ event, ...fields });
  return {
    documentOpened: (file, info, pages) => emit({ event: 'document-opened', file, pageCount: info.pageCount, title: info.title, pages }),
    enginePreparing: (file, page, detail, bytes) => pageEvent('engine-preparing', { file, page, detail, bytes }),
    engineReady: (file, page) => pageEvent('engine-ready', { file, page }),
    pageStarted: (file, page) => pageEvent('page-started', { file, page }),
    // the page's text comes whole with its result, in the .md file
    pageDelta: () => undefined,
    pageDone: (file, result) =>
      pageEvent('page-done', { file, page: result.page, blocks: result.blocks.length, images: result.images.length, stats: result.stats }),
    pageFailed: (file, page, failure) => pageEvent('page-failed', { file, page, code: failure.code, message: failure.message }),
    documentDone: (file, outputs, warnings) => emit({ event: 'document-done', file, outputs, ...(warnings?.length && { warnings }) }),
    documentFailed: (file, failure) => emit({ event: 'document-failed', file, code: failure.code, message: failure.message }),
    summary: (summary) => emit({ event: 'summary', ...summary }),
  };
}
