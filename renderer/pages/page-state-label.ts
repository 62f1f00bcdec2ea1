import type { WorkspacePage } from '../../shared/workspace.js';
import { pageTroubles } from './page-review-queue.js';

/**
 * A page's state in words, as the list, thumbnails and headers show it; a page with signs of trouble
 * (its engine's flags, or its Markdown's: page-review-queue.ts) not yet
 * reviewed "needs review"; a page whose answer was cut at a length limit stays "cut short", reviewed or not.
 */
export function pageStateLabel(page: WorkspacePage): string {
  const edited = `${truncationNote(page) ? ', cut short' : ''}${page.editedMarkdown !== undefined ? ', edited' : ''}`;
  const flagged = pageTroubles(page).length > 0;
  const reviewed = page.reviewed ? ', reviewed' : flagged ? ', needs review' : '';
  switch (page.state) {
    case 'pending':
      return `not converted${edited}${reviewed}`;
    case 'queued':
      return `queued${edited}${reviewed}`;
    case 'converting':
      return `converting${edited}${reviewed}`;
    case 'done':
      return `done${edited}${reviewed}`;
    case 'failed':
      return `failed${edited}${reviewed}`;
  }
}

/**
 * Why a converted page's text ends early, for as long as the page shows it: the engine's own words
 * for the limit ("stopped at 200000 characters, the most Folio takes for one page") where it gave them.
 */
export function truncationNote(page: WorkspacePage): string | null {
  const stats = page.state === 'done' ? page.result?.stats : undefined;
  if (!stats?.flags?.includes('truncated')) return null;
  const limit = /stopped at [^;]+/.exec(stats.reason ?? '')?.[0];
  const why = limit ? `the answer ${limit}` : 'the answer reached its length limit';
  return `Cut short: ${why}, so the end of this page is missing from its text. Re-run the page (with a higher token limit if that was the limit), or add the rest by hand.`;
}
