import { describe, expect, it } from 'vitest';
import { pageAtScroll, slotTop, visiblePages } from './visible-range.js';

const long = { pageCount: 2000, slotHeight: 1000 };

describe('visiblePages', () => {
  it('draws only the pages in view and a couple either side, however long the document', () => {
    expect(visiblePages(long, 0, 900)).toEqual({ first: 1, last: 3 });
    expect(visiblePages(long, 1_000_500, 900)).toEqual({ first: 999, last: 1004 });
    expect(visiblePages(long, 1_999_500, 900)).toEqual({ first: 1998, last: 2000 });
  });

  it('handles an empty document and an unmeasured layout', () => {
    expect(visiblePages({ pageCount: 0, slotHeight: 1000 }, 0, 900)).toEqual({ first: 1, last: 0 });
    expect(visiblePages({ pageCount: 5, slotHeight: 0 }, 0, 900)).toEqual({ first: 1, last: 0 });
  });
});

describe('pageAtScroll and slotTop', () => {
  it('agree: scrolling to a page reports that page, however small the pages are zoomed', () => {
    for (const layout of [long, { pageCount: 2000, slotHeight: 120 }]) {
      for (const page of [1, 2, 700, 2000]) expect(pageAtScroll(layout, slotTop(layout, page), 900)).toBe(page);
    }
  });

  it('names the page a third of the way down the view', () => {
    expect(pageAtScroll(long, 800, 900)).toBe(2);
    expect(pageAtScroll(long, 600, 900)).toBe(1);
  });
});
