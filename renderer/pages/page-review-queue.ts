/**
 * Which converted pages want a person's look and have not had it: the trouble detector
 * (shared/page-trouble.ts) on each page's current Markdown (an edit that fixes a table clears its
 * flag), counted per document, and stepped through in reading order across the documents.
 */

import { pageTrouble, type PageTrouble } from '../../shared/page-trouble.js';
import { pageMarkdown, type WorkspaceDocument, type WorkspacePage } from '../../shared/workspace.js';

// the reducer makes a new page object whenever a page changes, so one detection per page version
const detected = new WeakMap<WorkspacePage, PageTrouble[]>();

/** The signs of trouble on a converted page (none while it is not done). */
export function pageTroubles(page: WorkspacePage): PageTrouble[] {
  if (page.state !== 'done' || !page.result) return [];
  let troubles = detected.get(page);
  if (!troubles) {
    troubles = pageTrouble(pageMarkdown(page), page.result.stats);
    detected.set(page, troubles);
  }
  return troubles;
}

/** Flagged and not yet marked reviewed. */
export function needsReview(page: WorkspacePage): boolean {
  return !page.reviewed && pageTroubles(page).length > 0;
}

export function toReviewCount(document: WorkspaceDocument): number {
  return document.pages.filter(needsReview).length;
}

export interface PagePlace {
  docId: string;
  page: number;
}

/**
 * The next page to review after `from` (or before it, `direction` -1), in the documents' order and
 * then page order, wrapping round; `from` itself comes last. Null when no page needs review.
 */
export function nextToReview(documents: readonly WorkspaceDocument[], from: PagePlace | null, direction: 1 | -1): PagePlace | null {
  const places: PagePlace[] = documents.flatMap((document) => document.pages.map((page) => ({ docId: document.id, page: page.page })));
  if (places.length === 0) return null;
  const byId = new Map(documents.map((document) => [document.id, document]));
  const start = from ? places.findIndex((place) => place.docId === from.docId && place.page === from.page) : -1;
  // with no current page, the first (or last) page is the first candidate
  const origin = start >= 0 ? start : direction === 1 ? places.length - 1 : 0;
  for (let step = 1; step <= places.length; step++) {
    const place = places[(((origin + direction * step) % places.length) + places.length) % places.length]!;
    const page = byId.get(place.docId)?.pages[place.page - 1];
    if (page && needsReview(page)) return place;
  }
  return null;
}
