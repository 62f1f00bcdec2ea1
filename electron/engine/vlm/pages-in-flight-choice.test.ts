import { describe, expect, it } from 'vitest';
import { choosePagesInFlight, MEMORY_SHARE, oneAtATime } from './pages-in-flight-choice.js';

// packed passes of the real-width 2-layer int4 package on this 2-core CPU (docs/benchmarks.md)
const REAL_WIDTH = [
  { pages: 1, ms: 10.4 },
  { pages: 2, ms: 12.6 },
  { pages: 4, ms: 21.5 },
  { pages: 8, ms: 41.4 },
];
const PLENTY = { bytesPerPage: 100e6, freeBytes: 16e9 };

describe('choosePagesInFlight', () => {
  it('takes the most pages whose time per row still improves by a real margin', () => {
    const choice = choosePagesInFlight(REAL_WIDTH, PLENTY, 'measured now in 0.6 s');
    // 10.4, 6.3, 5.4, 5.2 ms a row: 8 gains 4% on 4
    expect(choice.pages).toBe(4);
    expect(choice.reason).toBe('auto put 4 pages in flight (ms a page row in a pass: 10 at 1, 6.3 at 2, 5.4 at 4, 5.2 at 8; 8 pages gain under 10% a row on 4; measured now in 0.6 s)');
  });

  it('goes to the largest measured count that still pays on the best smaller one', () => {
    expect(choosePagesInFlight([{ pages: 1, ms: 1 }, { pages: 2, ms: 1.2 }, { pages: 4, ms: 1.5 }, { pages: 8, ms: 2 }], PLENTY).pages).toBe(8);
    // the real-width package's second round on a shared machine: a neighbour slowed the pass of 2, which must not hide 4 and 8
    const noisy = choosePagesInFlight([{ pages: 1, ms: 10.57 }, { pages: 2, ms: 20.19 }, { pages: 4, ms: 24.54 }, { pages: 8, ms: 28.9 }], PLENTY);
    expect(noisy.pages).toBe(8);
    expect(noisy.reason).not.toContain('gain under');
    // nothing pays: one page
    const flat = choosePagesInFlight([{ pages: 1, ms: 1 }, { pages: 2, ms: 1.95 }, { pages: 4, ms: 3.9 }], PLENTY);
    expect(flat.pages).toBe(1);
    expect(flat.reason).toContain('2 or 4 pages gain under 10% a row on 1');
    // the order the costs come in does not matter
    expect(choosePagesInFlight([...REAL_WIDTH].reverse(), PLENTY).pages).toBe(4);
  });

  it('puts no more pages in flight than half the free memory holds', () => {
    const fast = [{ pages: 1, ms: 8 }, { pages: 2, ms: 8 }, { pages: 4, ms: 8 }, { pages: 8, ms: 8 }];
    const choice = choosePagesInFlight(fast, { bytesPerPage: 1e9, freeBytes: 6e9 });
    expect(choice.pages).toBe(Math.floor(6 * MEMORY_SHARE));
    expect(choice.reason).toContain('memory for 3 (1.0 GB a page, half of 6.0 GB free)');
    // at least one page, however little is free
    expect(choosePagesInFlight(fast, { bytesPerPage: 1e9, freeBytes: 1e8 }).pages).toBe(1);
  });

  it("puts no more pages in flight than the document has, and says so", () => {
    const choice = choosePagesInFlight(REAL_WIDTH, { ...PLENTY, documentPages: 3 });
    expect(choice.pages).toBe(3);
    expect(choice.reason).toContain('the document has 3');
    expect(choosePagesInFlight(REAL_WIDTH, { ...PLENTY, documentPages: 30 }).reason).not.toContain('document');
  });

  it('needs a measured pass of one page', () => {
    expect(() => choosePagesInFlight([{ pages: 2, ms: 3 }], PLENTY)).toThrow('one page');
    expect(() => choosePagesInFlight([{ pages: 1, ms: Number.NaN }, { pages: 2, ms: 3 }], PLENTY)).toThrow('one page');
  });

  it('says why where pages cannot share passes', () => {
    expect(oneAtATime('pages decode together on the CPU only for now, not on webgpu')).toEqual({ pages: 1, reason: 'auto put 1 page in flight: pages decode together on the CPU only for now, not on webgpu' });
  });
});
