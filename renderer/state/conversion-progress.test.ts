import { describe, expect, it } from 'vitest';
import type { PageState, WorkspaceDocument } from '../../shared/workspace.js';
import { conversionProgress, formatDuration, formatRate } from './conversion-progress.js';

function documentWith(states: PageState[]): WorkspaceDocument {
  return {
    id: 'd1',
    path: '/tmp/a.pdf',
    name: 'a.pdf',
    kind: 'pdf',
    addedAt: '2026-01-01T00:00:00Z',
    converting: true,
    pages: states.map((state, index) => ({ page: index + 1, state, engineMarkdown: '', reviewed: false })),
  };
}

describe('conversionProgress', () => {
  it('counts settled and remaining pages', () => {
    const progress = conversionProgress(documentWith(['done', 'done', 'failed', 'converting', 'queued', 'pending']), undefined, 0);
    expect(progress).toMatchObject({ total: 6, done: 2, failed: 1, remaining: 2, fraction: 0.5, pagesPerSecond: null, secondsLeft: null });
  });

  it('measures pages per second over this run and predicts the time left', () => {
    // two pages in four seconds, six to go
    const progress = conversionProgress(
      documentWith(['done', 'done', 'converting', 'queued', 'queued', 'queued', 'queued', 'queued']),
      { startedAt: 1000, finishedAt: [3000, 5000] },
      5000,
    );
    expect(progress.pagesPerSecond).toBeCloseTo(0.5);
    expect(progress.secondsLeft).toBeCloseTo(12);
  });

  it('slows the estimate when the running page takes longer than the pages before it', () => {
    const states: PageState[] = ['done', 'done', 'converting', 'queued'];
    const run = { startedAt: 0, finishedAt: [1000, 2000] };
    const onTime = conversionProgress(documentWith(states), run, 2500).pagesPerSecond!;
    const late = conversionProgress(documentWith(states), run, 10_000).pagesPerSecond!;
    expect(late).toBeLessThan(onTime);
  });

  it('follows the most recent pages, not the start of a long run', () => {
    // ten slow pages (10 s each) then twenty fast ones (1 s each)
    const finishedAt = [...Array.from({ length: 10 }, (_, i) => (i + 1) * 10_000), ...Array.from({ length: 20 }, (_, i) => 100_000 + (i + 1) * 1000)];
    const progress = conversionProgress(documentWith(['queued']), { startedAt: 0, finishedAt }, 120_000);
    expect(progress.pagesPerSecond).toBeCloseTo(1);
  });

  it('has no time left once nothing remains', () => {
    expect(conversionProgress(documentWith(['done']), { startedAt: 0, finishedAt: [500] }, 500).secondsLeft).toBe(0);
  });
});

describe('formatting', () => {
  it('writes durations and rates as a person reads them', () => {
    expect(formatDuration(42.4)).toBe('42 s');
    expect(formatDuration(185)).toBe('3 min 5 s');
    expect(formatDuration(3720)).toBe('1 h 2 min');
    expect(formatRate(0.4234)).toBe('0.42 pages/s');
    expect(formatRate(12.6)).toBe('13 pages/s');
  });
});
