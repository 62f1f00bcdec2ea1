/** Converts a document in-process through the router and keeps every page's result and failure. */

import type { Failure } from '../../shared/failure.js';
import type { PageResult } from '../../shared/page.js';
import { DEFAULT_CONVERT_OPTIONS, type ConvertOptions } from '../../shared/protocol.js';
import { DocumentSession } from '../../electron/engine/document-session.js';
import type { EngineRouter } from '../../electron/engine/router.js';

export interface ConvertedPages {
  pages: PageResult[];
  failures: { page: number; failure: Failure }[];
}

/** `only`: the pages to convert (default all). */
export async function convertPages(router: EngineRouter, file: string, options: Partial<ConvertOptions> = {}, only?: readonly number[]): Promise<ConvertedPages> {
  const session = await DocumentSession.open(router, file);
  const result: ConvertedPages = { pages: [], failures: [] };
  try {
    const pages = only ?? Array.from({ length: session.info.pageCount }, (_, i) => i + 1);
    await session.convert(pages, { ...DEFAULT_CONVERT_OPTIONS, ...options }, {
      started() {},
      delta() {},
      done: (page) => result.pages.push(page),
      failed: (page, failure) => result.failures.push({ page, failure }),
    }, new AbortController().signal);
  } finally {
    await session.close();
  }
  return result;
}
