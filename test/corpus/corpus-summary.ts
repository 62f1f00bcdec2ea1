/** The corpus run in a few lines: converted, failed by code, timed out, and the time it took. */

import type { FileOutcome } from './convert-corpus.js';

export interface CorpusSummary {
  files: number;
  pages: number;
  /** Files whose every page converted. */
  converted: number;
  /** Files with at least one failure, listed once under their first failure's code. */
  failedByCode: Record<string, string[]>;
  timedOut: string[];
  /** Outcomes with an `internal` failure: bugs of ours, not of the file. */
  internal: FileOutcome[];
  totalMs: number;
  slowest: FileOutcome[];
}

export function summariseCorpus(outcomes: readonly FileOutcome[], totalMs: number): CorpusSummary {
  const failedByCode: Record<string, string[]> = {};
  for (const o of outcomes) {
    const first = o.failures[0];
    if (!o.timedOut && first) (failedByCode[first.code] ??= []).push(baseName(o.file));
  }
  return {
    files: outcomes.length,
    pages: outcomes.reduce((n, o) => n + o.pageCount, 0),
    converted: outcomes.filter((o) => !o.timedOut && o.failures.length === 0).length,
    failedByCode,
    timedOut: outcomes.filter((o) => o.timedOut).map((o) => baseName(o.file)),
    internal: outcomes.filter((o) => o.failures.some((f) => f.code === 'internal')),
    totalMs,
    slowest: [...outcomes].sort((a, b) => b.ms - a.ms).slice(0, 5),
  };
}

export function formatCorpusSummary(summary: CorpusSummary): string {
  const failed = Object.entries(summary.failedByCode).sort(([a], [b]) => a.localeCompare(b));
  const lines = [
    `Corpus: ${summary.files} files, ${summary.pages} pages in ${(summary.totalMs / 1000).toFixed(1)} s`,
    `  converted: ${summary.converted}`,
    `  failed:    ${failed.length ? failed.map(([code, files]) => `${code} ${files.length}`).join(', ') : 'none'}`,
    ...failed.map(([code, files]) => `    ${code}: ${nameList(files)}`),
    `  timed out: ${summary.timedOut.length}${summary.timedOut.length ? ` (${nameList(summary.timedOut)})` : ''}`,
    `  slowest:   ${summary.slowest.map((o) => `${baseName(o.file)} ${(o.ms / 1000).toFixed(1)} s`).join(', ')}`,
  ];
  for (const o of summary.internal) {
    const f = o.failures.find((x) => x.code === 'internal')!;
    lines.push(`  internal:  ${baseName(o.file)}${f.page ? ` page ${f.page}` : ''}: ${f.message}`);
  }
  return lines.join('\n');
}

function baseName(file: string): string {
  return file.slice(file.lastIndexOf('/') + 1);
}

function nameList(files: readonly string[]): string {
  const shown = files.slice(0, 12).join(', ');
  return files.length > 12 ? `${shown} and ${files.length - 12} more` : shown;
}
