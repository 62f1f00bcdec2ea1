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

/** The pages the ranges select, in the order given, each once. */
export function resolvePageRanges(ranges: readonly PageRange[], pageCount: number): number[] {
  const pages = new Set<number>();
  for (const range of ranges) {
    const last = range.last ?? pageCount;
    if (range.first > pageCount || last > pageCount) {
      const asked = range.last === undefined ? `${range.first}-` : range.first === last ? `${last}` : `${range.first}-${last}`;
      throw new PageRangeError(`pages ${asked} asked for, but the document has ${pageCount} page${pageCount === 1 ? '' : 's'}.`);
    }
    for (let page = range.first; page <= last; page++) pages.add(page);
  }
  return [...pages];
}

export function allPages(pageCount: number): number[] {
  return Array.from({ length: pageCount }, (_, index) => index + 1);
}
