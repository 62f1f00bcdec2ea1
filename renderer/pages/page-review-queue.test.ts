import { describe, expect, it } from 'vitest';
import type { PageResult } from '../../shared/page.js';
import type { WorkspaceDocument, WorkspacePage } from '../../shared/workspace.js';
import { needsReview, nextToReview, pageTroubles, toReviewCount } from './page-review-queue.js';
import { pageStateLabel } from './page-state-label.js';

const LOOSE = 'The energy is *λg* = ∑ *ζn* over all modes.';
const CLEAN = 'The energy is summed over all modes.';

function page(number: number, markdown: string, extra: Partial<WorkspacePage> = {}): WorkspacePage {
  const result: PageResult = { page: number, width: 600, height: 800, markdown, blocks: [], images: [], stats: { engine: 'text', device: 'cpu', timeMs: 40, chars: markdown.length } };
  return { page: number, state: 'done', engineMarkdown: markdown, reviewed: false, result, ...extra };
}

function document(id: string, pages: WorkspacePage[]): WorkspaceDocument {
  return { id, path: `/docs/${id}.pdf`, name: `${id}.pdf`, kind: 'pdf', addedAt: '2026-12-03T08:00:00Z', pages, converting: false };
}

describe('pages to review', () => {
  it('flags a page by its Markdown until it is marked reviewed, and says so in its state', () => {
    const flagged = page(1, LOOSE);
    expect(pageTroubles(flagged).map((trouble) => trouble.kind)).toEqual(['loose-math']);
    expect(needsReview(flagged)).toBe(true);
    expect(pageStateLabel(flagged)).toBe('done, needs review');
    expect(needsReview({ ...flagged, reviewed: true })).toBe(false);
    expect(pageStateLabel({ ...flagged, reviewed: true })).toBe('done, reviewed');
  });

  it('reads the edited Markdown: an edit that writes the formula properly clears the flag', () => {
    expect(needsReview(page(1, LOOSE, { editedMarkdown: 'The energy is $\\lambda_g = \\sum \\zeta_n$ over all modes.' }))).toBe(false);
    expect(needsReview(page(1, CLEAN, { editedMarkdown: LOOSE }))).toBe(true);
  });

  it('flags no page that is not converted yet', () => {
    expect(needsReview({ page: 1, state: 'converting', engineMarkdown: LOOSE, reviewed: false })).toBe(false);
  });

  it('counts a document’s flagged pages not yet reviewed', () => {
    expect(toReviewCount(document('a', [page(1, LOOSE), page(2, CLEAN), page(3, LOOSE, { reviewed: true }), page(4, LOOSE)]))).toBe(2);
  });
});

describe('nextToReview', () => {
  const documents = [
    document('a', [page(1, CLEAN), page(2, LOOSE), page(3, CLEAN), page(4, LOOSE, { reviewed: true }), page(5, LOOSE)]),
    document('b', [page(1, CLEAN)]),
    document('c', [page(1, CLEAN), page(2, LOOSE)]),
  ];

  it('steps forward through the document, then into the next with a page to review, then wraps round', () => {
    expect(nextToReview(documents, { docId: 'a', page: 1 }, 1)).toEqual({ docId: 'a', page: 2 });
    expect(nextToReview(documents, { docId: 'a', page: 2 }, 1)).toEqual({ docId: 'a', page: 5 });
    expect(nextToReview(documents, { docId: 'a', page: 5 }, 1)).toEqual({ docId: 'c', page: 2 });
    expect(nextToReview(documents, { docId: 'c', page: 2 }, 1)).toEqual({ docId: 'a', page: 2 });
  });

  it('steps backward, skipping reviewed pages', () => {
    expect(nextToReview(documents, { docId: 'a', page: 5 }, -1)).toEqual({ docId: 'a', page: 2 });
    expect(nextToReview(documents, { docId: 'a', page: 2 }, -1)).toEqual({ docId: 'c', page: 2 });
  });

  it('starts at the first (or last) page with nothing selected, and finds nothing when all is reviewed', () => {
    expect(nextToReview(documents, null, 1)).toEqual({ docId: 'a', page: 2 });
    expect(nextToReview(documents, null, -1)).toEqual({ docId: 'c', page: 2 });
    expect(nextToReview([document('b', [page(1, CLEAN)])], { docId: 'b', page: 1 }, 1)).toBeNull();
  });
});
