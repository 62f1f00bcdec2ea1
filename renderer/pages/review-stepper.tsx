import { useEffect, useRef } from 'react';
import type { MenuCommand } from '../../shared/app-api.js';
import { MENU_ITEMS } from '../../shared/menu-accelerators.js';
import { useActions, useApi, useFolio } from '../state/store-context.js';
import { nextToReview, toReviewCount } from './page-review-queue.js';

/**
 * "Next to review" and "Previous to review" (F8, Shift+F8, also in the View menu): to the next
 * flagged page not yet marked reviewed, in this document or the next one, with how many are left.
 */
export function ReviewStepper() {
  const api = useApi();
  const { selectDocument, goToPage } = useActions();
  const documents = useFolio((state) => state.workspace.documents);
  const selectedDocId = useFolio((state) => state.selectedDocId);
  const page = useFolio((state) => state.focus.page);
  const left = documents.reduce((sum, document) => sum + toReviewCount(document), 0);

  const step = useRef<(direction: 1 | -1) => void>(() => undefined);
  step.current = (direction) => {
    const target = nextToReview(documents, selectedDocId ? { docId: selectedDocId, page } : null, direction);
    if (!target) return;
    selectDocument(target.docId);
    goToPage(target.page, 'navigation');
  };

  useEffect(
    () =>
      api.onMenuCommand((command: MenuCommand) => {
        if (command === 'next-to-review') step.current(1);
        else if (command === 'previous-to-review') step.current(-1);
      }),
    [api],
  );

  const none = left === 0;
  // with nothing open there is nothing to step through, and the header keeps its room
  if (documents.length === 0) return null;
  return (
    <div className="review-stepper" role="group" aria-label="Pages to review">
      <span className="review-left" aria-live="polite">
        {none ? 'Nothing to review' : `${left} to review`}
      </span>
      <button
        type="button"
        className="small"
        disabled={none}
        title={`The previous flagged page not yet marked reviewed (${shortcut('previous-to-review')})`}
        aria-keyshortcuts={MENU_ITEMS['previous-to-review'].accelerator}
        onClick={() => step.current(-1)}
      >
        ‹ Previous
      </button>
      <button
        type="button"
        className="small"
        disabled={none}
        title={`The next flagged page not yet marked reviewed, in this document or the next (${shortcut('next-to-review')})`}
        aria-keyshortcuts={MENU_ITEMS['next-to-review'].accelerator}
        onClick={() => step.current(1)}
      >
        Next to review ›
      </button>
    </div>
  );
}

function shortcut(command: MenuCommand): string {
  return MENU_ITEMS[command].accelerator.replace('+', ' + ');
}
