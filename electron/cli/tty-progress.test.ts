import { describe, expect, it } from 'vitest';
import { progressLine, type ProgressState } from './tty-progress.js';

const state: ProgressState = {
  file: '/data/papers/attention-is-all-you-need.pdf',
  fileIndex: 1,
  fileCount: 3,
  pagesDone: 5,
  pagesTotal: 15,
  batchPages: 20,
  batchMs: 10_000,
};

describe('progress line', () => {
  it('shows the file, pages done of total, the rate and the time left', () => {
    expect(progressLine(state, 100)).toBe('[2/3] attention-is-all-you-need.pdf: 5/15 pages, 2.0 pages/s, 5 s left');
  });

  it('gives minutes and seconds for long waits', () => {
    expect(progressLine({ ...state, pagesTotal: 200 }, 100)).toMatch(/, 1:38 left$/);
  });

  it('shows no time left before the first page has finished', () => {
    expect(progressLine({ ...state, batchPages: 0, pagesDone: 0 }, 100)).toBe('[2/3] attention-is-all-you-need.pdf: 0/15 pages, 0.0 pages/s');
  });

  it('shortens the file name, not the numbers, on a narrow terminal', () => {
    const line = progressLine(state, 50);
    expect(line).toHaveLength(50);
    expect(line).toMatch(/^\[2\/3\] …[\w-]*\.pdf: 5\/15 pages, 2\.0 pages\/s, 5 s left$/);
  });

  it('leaves out a single file counter', () => {
    expect(progressLine({ ...state, fileIndex: 0, fileCount: 1 }, 100)).toMatch(/^attention/);
  });
});
