/** Converts a whole PDF in-process with the text engine and joins its pages with the Markdown export. */

import { DEFAULT_CONVERT_OPTIONS, type ConvertOptions } from '../shared/protocol.js';
import { documentMarkdown } from '../shared/export/markdown.js';
import { IMAGE_LINK_PREFIX, type PageResult } from '../shared/page.js';
import { DocumentSession } from '../electron/engine/document-session.js';
import type { EngineRouter } from '../electron/engine/router.js';

export async function convertToMarkdown(router: EngineRouter, file: string, options: Partial<ConvertOptions> = {}): Promise<string> {
  const session = await DocumentSession.open(router, file);
  const pages: PageResult[] = [];
  const failures: string[] = [];
  try {
    const all = Array.from({ length: session.info.pageCount }, (_, i) => i + 1);
    await session.convert(all, { ...DEFAULT_CONVERT_OPTIONS, engine: 'text', ...options }, {
      started() {},
      delta() {},
      done: (result) => pages.push(result),
      failed: (page, failure) => failures.push(`page ${page}: ${failure.code}: ${failure.message}`),
    }, new AbortController().signal);
  } finally {
    await session.close();
  }
  if (failures.length) throw new Error(`${file}: ${failures.join('; ')}`);
  // Image links stay as the engine wrote them, so expectations need not know an assets folder.
  return documentMarkdown(pages, { resolveImage: (name) => `${IMAGE_LINK_PREFIX}${name}` });
}
