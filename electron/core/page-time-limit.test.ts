import { describe, expect, it } from 'vitest';
import { defaultPageTimeLimitMs, OCR_PAGE_TIME_LIMIT_MS, supervisorPageLimitMs, TEXT_PAGE_TIME_LIMIT_MS } from './page-time-limit.js';

describe('default page time limit', () => {
  it('is a minute for the text engine, with or without a model package', () => {
    expect(defaultPageTimeLimitMs('text', undefined)).toBe(TEXT_PAGE_TIME_LIMIT_MS);
    expect(defaultPageTimeLimitMs('text', { maxNewTokens: 4096 })).toBe(TEXT_PAGE_TIME_LIMIT_MS);
  });

  it('leaves room for OCR when a page may go to the lite engine', () => {
    expect(defaultPageTimeLimitMs('auto', undefined)).toBe(OCR_PAGE_TIME_LIMIT_MS);
    expect(defaultPageTimeLimitMs('lite', undefined)).toBe(OCR_PAGE_TIME_LIMIT_MS);
    expect(OCR_PAGE_TIME_LIMIT_MS).toBeGreaterThan(TEXT_PAGE_TIME_LIMIT_MS);
  });

  it('grows with the pages decoding together and those waiting for a lane, each of which may wait on the others', () => {
    expect(defaultPageTimeLimitMs('vlm', { maxNewTokens: 100, pagesInFlight: 4 })).toBe(8 * defaultPageTimeLimitMs('vlm', { maxNewTokens: 100 }));
    expect(defaultPageTimeLimitMs('vlm', { maxNewTokens: 100, pagesInFlight: 1 })).toBe(defaultPageTimeLimitMs('vlm', { maxNewTokens: 100 }));
    // auto puts at most 8 in flight
    expect(defaultPageTimeLimitMs('vlm', { maxNewTokens: 100, pagesInFlight: 'auto' })).toBe(16 * defaultPageTimeLimitMs('vlm', { maxNewTokens: 100 }));
  });

  it('grows with the token budget when the vlm engine reads the pages', () => {
    const small = defaultPageTimeLimitMs('vlm', { maxNewTokens: 100 });
    const large = defaultPageTimeLimitMs('auto', { maxNewTokens: 4096 });
    expect(small).toBeGreaterThan(TEXT_PAGE_TIME_LIMIT_MS);
    expect(large).toBeGreaterThan(10 * 60_000);
    // the same time for every extra token
    const limit = (tokens: number) => defaultPageTimeLimitMs('vlm', { maxNewTokens: tokens });
    expect(limit(2000) - limit(1000)).toBe(limit(3000) - limit(2000));
  });
});

describe('supervisor page limit', () => {
  it('follows the conversion\'s engine unless the user set a limit, and waits out a remote page\'s retries', () => {
    expect(supervisorPageLimitMs({ engine: 'vlm', vlm: { maxNewTokens: 4096 } })).toBe(defaultPageTimeLimitMs('vlm', { maxNewTokens: 4096 }));
    expect(supervisorPageLimitMs({ engine: 'vlm', vlm: { maxNewTokens: 4096 } }, 5_000)).toBe(5_000);
    const remote = supervisorPageLimitMs({ engine: 'remote', remote: { retries: 2, timeoutMs: 60_000 } }, 10_000);
    expect(remote).toBeGreaterThan(10_000 + 3 * 60_000);
  });
});
