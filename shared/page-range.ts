/**
 * Page selections as people type them ("1-3,7", "5-"): parsed once from the command line, then
 * resolved against each document's page count, since a batch holds documents of different lengths.
 */

/** An inclusive 1-based range; `last` undefined means "to the end of the document". */
export interface PageRange {
  first: number;
  last?: number;
}

export class PageRangeError extends Error {
  override readonly name = 'PageRangeError';
}

const PART = /^(\d+)(?:(-)(\d*))?$/;

export function parsePageRanges(text: string): PageRange[] {
  const parts = text.split(',').map((part) => part.trim());
  if (parts.some((part) => part === '')) {
    throw new PageRangeError(`"${text}" is not a page list; write pages and ranges like 1-3,7 or 5-.`);
  }
  return parts.map(parsePart);
}

function parsePart(part: string): PageRange {
  const match = PART.exec(part);
  if (!match) throw new PageRangeError(`"${part}" is not a page or range; write it like 4, 1-3 or 5-.`);
  const first = Number(match[1]);
  if (first < 1) throw new PageRangeError(`"${part}": pages are numbered from 1.`);
  if (!match[2]) return { first, last: first };
  if (!match[3]) return { first };
  const last = Number(match[3]);
  if (last < first) throw new PageRangeError(`"${part}": the range runs backwards; write ${last}-${first}.`);
  return { first, last };
}

/** The pages the ranges select, in the order given, each once; a page past the end is an error. */
export function resolvePageRanges(ranges: readonly PageRange[], pageCount: number): number[] {
  const { pages, pastEnd } = pagesWithin(ranges, pageCount);
  if (pastEnd) throw new PageRangeError(`pages ${pastEnd} asked for, but the document has ${pageCountText(pageCount)}.`);
  return pages;
}

/**
 * The pages the ranges select that the document has, in the order given, each once, for a batch of
 * documents of different lengths; `pastEnd` writes the selection that went past the last page
 * (`4-6`, `9`), or is undefined when every page asked for exists.
 */
export function pagesWithin(ranges: readonly PageRange[], pageCount: number): { pages: number[]; pastEnd?: string } {
  const pages = new Set<number>();
  const pastEnd: string[] = [];
  for (const range of ranges) {
    const last = Math.min(range.last ?? pageCount, pageCount);
    if (range.first > pageCount || (range.last ?? 0) > pageCount) pastEnd.push(rangeText(range));
    for (let page = range.first; page <= last; page++) pages.add(page);
  }
  return pastEnd.length ? { pages: [...pages], pastEnd: pastEnd.join(',') } : { pages: [...pages] };
}

/** `1-3`, `5-`, `7`, as people type them. */
export function rangeText(range: PageRange): string {
  if (range.last === undefined) return `${range.first}-`;
  return range.first === range.last ? `${range.first}` : `${range.first}-${range.last}`;
}

/** `1-3,7` for pages 1, 2, 3, 7: consecutive pages as one range. */
export function pageListText(pages: readonly number[]): string {
  const parts: string[] = [];
  let start = 0;
  for (let index = 1; index <= pages.length; index++) {
    if (index < pages.length && pages[index] === pages[index - 1]! + 1) continue;
    const first = pages[start]!;
    const last = pages[index - 1]!;
    parts.push(first === last ? `${first}` : `${first}-${last}`);
    start = index;
  }
  return parts.join(',');
}

export function pageCountText(pageCount: number): string {
  return `${pageCount} page${pageCount === 1 ? '' : 's'}`;
}

export function allPages(pageCount: number): number[] {
  return Array.from({ length: pageCount }, (_, index) => index + 1);
}
