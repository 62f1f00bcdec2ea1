import { describe, expect, it } from 'vitest';
import { summaryLine, type BatchSummary } from './batch-reporter.js';

const batch: BatchSummary = { files: 1, filesFailed: 0, pagesDone: 8, pagesFailed: 0, elapsedMs: 120_000, tokens: 0, pagesMs: 0, cancelled: false };

describe('summary line', () => {
  it('gives pages and pages/s over the whole run', () => {
    expect(summaryLine(batch)).toBe('Converted 1 of 1 file (8 pages) in 120.0 s, 0.1 pages/s.');
  });

  it("adds a model's tokens over the pages' wall time, the model's opening left out", () => {
    expect(summaryLine({ ...batch, tokens: 3200, pagesMs: 100_000 })).toBe(
      "Converted 1 of 1 file (8 pages) in 120.0 s, 0.1 pages/s. 3,200 tokens decoded in 100.0 s from the first page's start to the last page's end: 32.0 tokens/s.",
    );
  });
});
