/** The reference side of the benchmark: poppler's `pdftotext -layout`, one process per document. */

import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { RunTotals } from './folio-run.js';

const run = promisify(execFile);

export async function pdftotextAvailable(): Promise<boolean> {
  return run('pdftotext', ['-v']).then(() => true, () => false);
}

export async function convertWithPdftotext(file: string): Promise<RunTotals> {
  const started = performance.now();
  const { stdout } = await run('pdftotext', ['-layout', '-q', file, '-'], { maxBuffer: 256 * 1024 * 1024 });
  // pdftotext ends every page with a form feed.
  const pages = stdout.split('\f').length - 1;
  return { pages, failedPages: 0, chars: stdout.length, ms: performance.now() - started };
}
