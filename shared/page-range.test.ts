import { describe, expect, it } from 'vitest';
import { PageRangeError, pageListText, pagesWithin, parsePageRanges, resolvePageRanges } from './page-range.js';

const pages = (text: string, count: number) => resolvePageRanges(parsePageRanges(text), count);

describe('page ranges', () => {
  it('selects single pages and closed ranges in the order given', () => {
    expect(pages('1-3,7', 10)).toEqual([1, 2, 3, 7]);
    expect(pages('7,1-2', 10)).toEqual([7, 1, 2]);
  });

  it('runs an open range to the last page', () => {
    expect(pages('5-', 7)).toEqual([5, 6, 7]);
  });

  it('lists a page named twice only once', () => {
    expect(pages('1-3,2,3-4', 5)).toEqual([1, 2, 3, 4]);
  });

  it('tolerates spaces around parts', () => {
    expect(pages(' 1 , 3-4 ', 5)).toEqual([1, 3, 4]);
  });

  it('rejects page 0 because pages are numbered from 1', () => {
    expect(() => parsePageRanges('0')).toThrow(/numbered from 1/);
    expect(() => parsePageRanges('0-2')).toThrow(PageRangeError);
  });

  it('rejects a backwards range and says how to write it', () => {
    expect(() => parsePageRanges('3-1')).toThrow(/backwards; write 1-3/);
  });

  it('rejects words, empty parts and negative numbers', () => {
    for (const text of ['', 'a', '1,,2', '-3', '1-2-3', '1.5']) {
      expect(() => parsePageRanges(text), text).toThrow(PageRangeError);
    }
  });

  it('rejects pages beyond the page count, naming the count', () => {
    expect(() => pages('7', 5)).toThrow('pages 7 asked for, but the document has 5 pages.');
    expect(() => pages('4-6', 5)).toThrow(/4-6.*5 pages/);
    expect(() => pages('6-', 5)).toThrow(/6-.*5 pages/);
    expect(() => pages('2', 1)).toThrow(/has 1 page\./);
  });

  it('keeps the pages a shorter document has and names the selection that went past its end', () => {
    expect(pagesWithin(parsePageRanges('1-3'), 2)).toEqual({ pages: [1, 2], pastEnd: '1-3' });
    expect(pagesWithin(parsePageRanges('1,4-6,9'), 5)).toEqual({ pages: [1, 4, 5], pastEnd: '4-6,9' });
    expect(pagesWithin(parsePageRanges('6-'), 5)).toEqual({ pages: [], pastEnd: '6-' });
    expect(pagesWithin(parsePageRanges('2-,1'), 5)).toEqual({ pages: [2, 3, 4, 5, 1] });
  });

  it('writes a page list with consecutive pages as one range', () => {
    expect(pageListText([1, 2, 3, 7, 9, 10])).toBe('1-3,7,9-10');
    expect(pageListText([4])).toBe('4');
  });
});
