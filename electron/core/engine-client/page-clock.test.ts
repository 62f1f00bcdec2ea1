import { describe, expect, it } from 'vitest';
import { PageClock } from './page-clock.js';
import { preparationLimitMs } from '../page-time-limit.js';

const PAGE_LIMIT_MS = 5_000;

describe('the supervisor page clock', () => {
  it('times the first page from when the conversion was sent, then each page from its own start', () => {
    const clock = new PageClock(PAGE_LIMIT_MS, 1_000);
    expect(clock.deadline(1)).toEqual({ at: 6_000, phase: { kind: 'page' } });
    clock.started(1, 1_200);
    expect(clock.deadline(1).at).toBe(6_200);
    clock.finished(1, 3_000);
    // page 2 has not said it started: it is timed from when page 1 finished
    expect(clock.deadline(2).at).toBe(8_000);
  });

  it('runs no page clock while the engine prepares, and starts the waiting page when it is ready', () => {
    const clock = new PageClock(PAGE_LIMIT_MS, 1_000);
    clock.preparingSince(1_100, 'opening the model', 120_000);
    expect(clock.deadline(1)).toEqual({ at: 121_100, phase: { kind: 'preparing', detail: 'opening the model', limitMs: 120_000 } });
    // an update of what it does keeps the preparation's own start
    clock.preparingSince(40_000, 'opening the model (measuring webgpu, 2 of 2)', 120_000);
    expect(clock.deadline(1)).toEqual({ at: 121_100, phase: { kind: 'preparing', detail: 'opening the model (measuring webgpu, 2 of 2)', limitMs: 120_000 } });
    // 70 s of opening, far past the page's 5 s: the page's clock starts now
    clock.ready(71_100);
    expect(clock.deadline(1)).toEqual({ at: 76_100, phase: { kind: 'page' } });
    clock.started(1, 71_150);
    expect(clock.deadline(1).at).toBe(76_150);
  });

  it('restarts a page that started before the engine prepared when the engine is ready', () => {
    const clock = new PageClock(PAGE_LIMIT_MS, 0);
    clock.started(3, 10);
    clock.preparingSince(20, 'measuring the decoding steps on cpu', 60_000);
    expect(clock.deadline(3).phase.kind).toBe('preparing');
    clock.ready(30_000);
    expect(clock.deadline(3).at).toBe(35_000);
  });

  it('lets a preparation without a ready run out at its own limit, not the page limit', () => {
    const clock = new PageClock(PAGE_LIMIT_MS, 0);
    clock.preparingSince(0, 'opening the model', 3_000);
    clock.started(1, 500);
    expect(clock.deadline(1)).toEqual({ at: 3_000, phase: { kind: 'preparing', detail: 'opening the model', limitMs: 3_000 } });
  });

  it('a ready with nothing prepared changes nothing', () => {
    const clock = new PageClock(PAGE_LIMIT_MS, 0);
    clock.started(1, 100);
    clock.ready(4_000);
    expect(clock.deadline(1).at).toBe(5_100);
  });
});

describe('the preparation limit', () => {
  it('gives a tiny package two minutes and a 2 GB package twelve', () => {
    expect(preparationLimitMs(3_119_408)).toBe(120_936);
    expect(preparationLimitMs(2e9)).toBe(720_000);
    expect(preparationLimitMs(0)).toBe(120_000);
  });
});
