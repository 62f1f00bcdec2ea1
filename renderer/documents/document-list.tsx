import { needsPassword } from '../../shared/failure.js';
import type { WorkspaceDocument } from '../../shared/workspace.js';
import { conversionProgress } from '../state/conversion-progress.js';
import { useActions, useFolio } from '../state/store-context.js';

/** The open documents with how far each has got; selecting one shows it. */
export function DocumentList() {
  const documents = useFolio((state) => state.workspace.documents);
  const selected = useFolio((state) => state.selectedDocId);
  const { selectDocument, removeDocument } = useActions();
  if (documents.length === 0) return null;
  return (
    <nav aria-label="Documents">
      <ul className="document-list">
        {documents.map((document) => (
          <li key={document.id} className={document.id === selected ? 'selected' : ''}>
            <button type="button" className="document-item" aria-current={document.id === selected ? 'true' : undefined} onClick={() => selectDocument(document.id)}>
              <span className="document-name">{document.name}</span>
              <DocumentSummary document={document} />
            </button>
            <button type="button" className="icon remove" aria-label={`Remove ${document.name}`} title="Remove from the list (the file stays)" onClick={() => void removeDocument(document.id)}>
              ×
            </button>
          </li>
        ))}
      </ul>
    </nav>
  );
}

function DocumentSummary({ document }: { document: WorkspaceDocument }) {
  if (needsPassword(document.failure)) return <span className="document-state failed">Needs its password</span>;
  if (document.failure) return <span className="document-state failed">Could not open</span>;
  if (!document.info) return <span className="document-state">Opening…</span>;
  const progress = conversionProgress(document, undefined, 0);
  const reviewed = document.pages.filter((page) => page.reviewed).length;
  const parts = [`${progress.done}/${progress.total} pages`];
  if (progress.failed > 0) parts.push(`${progress.failed} failed`);
  if (reviewed > 0) parts.push(`${reviewed} reviewed`);
  const state = document.converting ? 'converting' : progress.failed > 0 ? 'failed' : progress.done === progress.total ? 'done' : 'pending';
  return (
    <>
      <span className={`document-state ${state}`}>{document.converting ? `Converting · ${parts.join(' · ')}` : parts.join(' · ')}</span>
      <span className="mini-progress" aria-hidden="true">
        <span style={{ width: `${Math.round(progress.fraction * 100)}%` }} />
      </span>
    </>
  );
}
