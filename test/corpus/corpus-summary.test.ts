import { describe, expect, it } from 'vitest';
import type { FileOutcome } from './convert-corpus.js';
import { formatCorpusSummary, summariseCorpus } from './corpus-summary.js';

function outcome(file: string, extra: Partial<FileOutcome>): FileOutcome {
  return { file: `/corpus/${file}`, pageCount: 1, pagesConverted: 1, words: 1, failures: [], timedOut: false, ms: 10, ...extra };
}

describe('corpus summary', () => {
  it('counts converted files, failures by their first code, time-outs, and lists internal errors', () => {
    const summary = summariseCorpus([
      outcome('a.pdf', {}),
      outcome('b.pdf', { pagesConverted: 0, failures: [{ code: 'encrypted', message: 'b.pdf: encrypted' }] }),
      outcome('c.pdf', { pageCount: 3, pagesConverted: 2, failures: [{ page: 2, code: 'timeout', message: 'took too long' }], ms: 20_000 }),
      outcome('d.pdf', { timedOut: true, ms: 60_000 }),
      outcome('e.pdf', { failures: [{ page: 1, code: 'internal', message: 'Unexpected error: boom' }] }),
    ], 81_000);
    expect(summary).toMatchObject({ files: 5, pages: 7, converted: 1, timedOut: ['d.pdf'] });
    expect(summary.failedByCode).toEqual({ encrypted: ['b.pdf'], timeout: ['c.pdf'], internal: ['e.pdf'] });
    const text = formatCorpusSummary(summary);
    expect(text).toContain('Corpus: 5 files, 7 pages in 81.0 s');
    expect(text).toContain('failed:    encrypted 1, internal 1, timeout 1');
    expect(text).toContain('internal:  e.pdf page 1: Unexpected error: boom');
    expect(text).toContain('slowest:   d.pdf 60.0 s, c.pdf 20.0 s');
  });
});
