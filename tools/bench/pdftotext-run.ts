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
  return { pages, failedPages: 0, chars: stdout.length, ms: performance.now() - started, cpuMs: 0 };
}

/**
 * pdftotext's CPU time on `file` (user + system, from bash's `time`, which reads the child's
 * rusage to the millisecond): a pass of its own, so that the bash around it stays out of the wall times.
 */
export async function pdftotextCpuMs(file: string): Promise<number> {
  const script = 'TIMEFORMAT="%3U %3S"; time pdftotext -layout -q "$1" - > /dev/null';
  const { stderr } = await run('bash', ['-c', script, 'bash', file]);
  const [user, system] = stderr.trim().split('\n').at(-1)!.split(' ').map(Number);
  if (!Number.isFinite(user) || !Number.isFinite(system)) throw new Error(`${file}: bash's time printed no CPU times (${stderr.trim()}).`);
  return (user! + system!) * 1000;
}
