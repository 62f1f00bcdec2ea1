/** Folio's side of the benchmark: the text engine in this process, document after document. */

import { DocumentSession } from '../../electron/engine/document-session.js';
import type { EngineRouter } from '../../electron/engine/router.js';
import { DEFAULT_CONVERT_OPTIONS } from '../../shared/protocol.js';

export interface RunTotals {
  pages: number;
  failedPages: number;
  chars: number;
  ms: number;
  /** CPU time of this process (all its threads) over the run. */
  cpuMs: number;
}

/** Converts every page of `file`; `onPage` sees each page as it finishes (for memory sampling). */
export async function convertWithFolio(router: EngineRouter, file: string, onPage?: (pagesDone: number) => void): Promise<RunTotals> {
  const started = performance.now();
  const cpu = process.cpuUsage();
  const totals: RunTotals = { pages: 0, failedPages: 0, chars: 0, ms: 0, cpuMs: 0 };
  const session = await DocumentSession.open(router, file);
  try {
    const pages = Array.from({ length: session.info.pageCount }, (_, i) => i + 1);
    await session.convert(pages, { ...DEFAULT_CONVERT_OPTIONS, engine: 'text' }, {
      started() {},
      delta() {},
      done(result) {
        totals.pages++;
        totals.chars += result.markdown.length;
        onPage?.(totals.pages);
      },
      failed() {
        totals.pages++;
        totals.failedPages++;
        onPage?.(totals.pages);
      },
    }, new AbortController().signal);
  } finally {
    await session.close();
  }
  totals.ms = performance.now() - started;
  const used = process.cpuUsage(cpu);
  totals.cpuMs = (used.user + used.system) / 1000;
  return totals;
}
