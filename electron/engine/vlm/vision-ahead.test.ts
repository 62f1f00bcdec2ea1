import { describe, expect, it } from 'vitest';
import { DecodingClock, visionPlan, visionThreadCount } from './vision-ahead.js';

const GB = 1024 ** 3;
const MB = 1024 ** 2;

describe('visionPlan', () => {
  // jina-ocr-v1 at full size: 60 KB of cache per row, a Gundam prompt of about 1,000 rows and 4,096 new tokens a page
  const real = { lanes: 4, laneBytes: 60 * 1024 * 5200, pageBytes: 2 * 1000 * 1280 * 4, sessionBytes: 1.6 * GB };

  it('runs a page ahead per lane when half the free memory holds the caches, the session and the pages ahead', () => {
    expect(visionPlan({ ...real, freeBytes: 16 * GB })).toEqual({ onThread: true, ahead: 4, why: '' });
  });

  it('runs fewer pages ahead as the memory left after the caches and the session shrinks', () => {
    const fixed = real.sessionBytes + real.lanes * real.laneBytes;
    expect(visionPlan({ ...real, freeBytes: 2 * (fixed + 2.5 * real.pageBytes) }).ahead).toBe(2);
    const none = visionPlan({ ...real, freeBytes: 2 * fixed + MB });
    expect(none).toMatchObject({ onThread: true, ahead: 0 });
    expect(none.why).toContain('no room for a page');
  });

  it('keeps the vision on the decoding thread when the caches and its session do not fit', () => {
    const plan = visionPlan({ ...real, freeBytes: 2 * GB });
    expect(plan).toMatchObject({ onThread: false, ahead: 0 });
    expect(plan.why).toContain('vision on the decoding thread');
  });
});

describe('visionThreadCount', () => {
  it('gives the encoder the cores a one-thread decoder leaves, half of them beside one that takes all, never none', () => {
    expect(visionThreadCount(8, 1)).toBe(7);
    expect(visionThreadCount(2, 1)).toBe(1);
    expect(visionThreadCount(8, undefined)).toBe(4);
    expect(visionThreadCount(2, 2)).toBe(1);
    expect(visionThreadCount(1, undefined)).toBe(1);
  });
});

describe('DecodingClock', () => {
  it('counts the time at least one page decoded, once however many did', () => {
    let time = 100;
    const clock = new DecodingClock(() => time);
    expect(clock.now()).toBe(0);
    expect(clock.active).toBe(false);
    clock.start();
    time = 110;
    clock.start();
    time = 130;
    expect(clock.now()).toBe(30);
    expect(clock.active).toBe(true);
    clock.stop();
    time = 140;
    clock.stop();
    time = 200;
    expect(clock.now()).toBe(40);
    clock.start();
    time = 205;
    expect(clock.now()).toBe(45);
  });
});
