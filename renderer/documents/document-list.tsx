import type { WorkspaceDocument } from '../../shared/workspace.js';
import { toReviewCount } from '../pages/page-review-queue.js';
import { conversionProgress } from '../state/conversion-progress.js';
import { documentStatus } from '../state/document-status.js';
import { useActions, useFolio } from '../state/store-context.js';

/** The open documents with where each stands, and those removed this session with their undo. */
export function DocumentList() {
  const documents = useFolio((state) => state.workspace.documents);
  const queue = useFolio((state) => state.workspace.queue);
  const selected = useFolio((state) => state.selectedDocId);
  const { selectDocument, askToRemove, resume } = useActions();
  return (
    <>
      {documents.length > 0 && (
        <nav aria-label="Documents">
          <ul className="document-list">
            {documents.map((document) => {
              const status = documentStatus(document, queue);
              return (
                <li key={document.id} className={document.id === selected ? 'selected' : ''}>
                  <button type="button" className="document-item" aria-current={document.id === selected ? 'true' : undefined} onClick={() => selectDocument(document.id)}>
                    <span className="document-name">{document.name}</span>
                    <span className={`document-state ${status.tone}`}>{status.text}</span>
                    <ToReview document={document} />
                    {document.info && !document.failure && <MiniProgress document={document} />}
                  </button>
                  <button type="button" className="icon remove" aria-label={`Remove ${document.name}`} title="Remove from the list (the file stays; you can undo this until Folio closes)" onClick={() => void askToRemove(document.id)}>
                    ×
                  </button>
                  {status.action && (
                    <div className="document-action">
                      <button type="button" className="small" aria-label={`${status.action === 'resume' ? 'Resume' : 'Convert'} ${document.name}`} onClick={() => void resume(document.id)}>
                        {status.action === 'resume' ? 'Resume' : 'Convert'}
                      </button>
                    </div>
                  )}
                </li>
              );
            })}
          </ul>
        </nav>
      )}
      <RemovedDocuments />
    </>
  );
}

/** Flagged pages not yet marked reviewed; F8 steps to them. */
function ToReview({ document }: { document: WorkspaceDocument }) {
  const count = toReviewCount(document);
  if (count === 0) return null;
  return (
    <span className="document-review" title="Pages with signs of trouble not yet marked reviewed; Next to review (F8) steps to them">
      {count} to review
    </span>
  );
}

function MiniProgress({ document }: { document: WorkspaceDocument }) {
  const progress = conversionProgress(document, undefined, 0);
  return (
    <span className="mini-progress" aria-hidden="true">
      <span style={{ width: `${Math.round(progress.fraction * 100)}%` }} />
    </span>
  );
}

/** Removed this session, newest first: each can be put back, edits and all, until Folio closes. */
function RemovedDocuments() {
  const removed = useFolio((state) => state.workspace.removed);
  const { restoreDocument } = useActions();
  return (
    <section className="removed-documents" aria-label="Removed documents" aria-live="polite">
      {removed && removed.length > 0 && (
        <ul>
          {removed
            .slice()
            .reverse()
            .map(({ document }) => (
              <li key={document.id}>
                <span className="removed-name">Removed {document.name}</span>
                <button type="button" className="small" aria-label={`Undo removing ${document.name}`} onClick={() => void restoreDocument(document.id)}>
                  Undo
                </button>
              </li>
            ))}
        </ul>
      )}
    </section>
  );
}
