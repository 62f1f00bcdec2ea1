import type { WorkspacePage } from '../../shared/workspace.js';

/** A page's state in words, as the list, thumbnails and headers show it; a flagged page not yet reviewed "needs review". */
export function pageStateLabel(page: WorkspacePage): string {
  const edited = page.editedMarkdown !== undefined ? ', edited' : '';
  const flagged = page.state === 'done' && (page.result?.stats.flags?.length ?? 0) > 0;
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
