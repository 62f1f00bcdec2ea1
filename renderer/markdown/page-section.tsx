import { memo, useLayoutEffect, useRef, useState } from 'react';
import { failureSentence, failureText } from '../../shared/failure.js';
import { APP_REMEDY_WORDS } from '../remedy-words.js';
import { pageMarkdown, type WorkspacePage } from '../../shared/workspace.js';
import { RerunDialog } from '../dialogs/rerun-dialog.js';
import { SourceEditor, type SourceEditorHandle } from '../editor/source-editor.js';
import { TableButtons } from '../editor/table-buttons.js';
import { TableEditor } from '../editor/table-editor.js';
import { tableAt, type SourceTable } from '../editor/table-source.js';
import { needsReview } from '../pages/page-review-queue.js';
import { pageStateLabel, truncationNote } from '../pages/page-state-label.js';
import { findPage } from '../state/folio-store.js';
import { useActions, useFolio } from '../state/store-context.js';
import { DiffView } from './diff-view.js';
import { HeldVersionNote, VersionsButton } from './page-versions.js';
import { PageTroubleNote } from './page-trouble-note.js';
import { EditedPreview } from './edited-preview.js';
import { BlockPreview, MarkdownPreview } from './page-preview.js';
import { useThrottled } from './use-throttled.js';

/** A streaming page's preview redraws at most this often. */
const STREAM_REDRAW_MS = 150;

interface PageSectionProps {
  docId: string;
  pageNumber: number;
  /** Told the section's height as it changes, so the box left in its place when it goes keeps the layout still. */
  onResize(page: number, height: number): void;
}

/** One page's Markdown: its state, review mark and actions, then its preview, editor or diff. */
export const PageSection = memo(function PageSection({ docId, pageNumber, onResize }: PageSectionProps) {
  const page = useFolio((state) => findPage(state.workspace, docId, pageNumber));
  const view = useFolio((state) => state.view);
  const editing = useFolio((state) => state.editingPage === pageNumber);
  const { setReviewed, setEditingPage, revertPage, convert, editPage, flushEdits } = useActions();
  const [showDiff, setShowDiff] = useState(false);
  const [rerunning, setRerunning] = useState(false);
  const [editedTable, setEditedTable] = useState<SourceTable | null>(null);
  const editor = useRef<SourceEditorHandle>(null);
  const ref = useRef<HTMLElement>(null);
  useLayoutEffect(() => {
    const element = ref.current;
    if (!element) return;
    // measured while on screen: once unmounted its height can no longer be read
    const observer = new ResizeObserver(() => onResize(pageNumber, element.offsetHeight));
    observer.observe(element);
    return () => observer.disconnect();
  }, [pageNumber, onResize]);
  if (!page) return null;

  const edited = page.editedMarkdown !== undefined;
  const titleId = `page-${pageNumber}-title`;
  const cutShort = truncationNote(page);
  const showEditor = view === 'source' || editing;

  return (
    <section ref={ref} className={`page-section state-${page.state}`} data-page={pageNumber} aria-labelledby={titleId}>
      <header className="page-header">
        <h2 id={titleId}>Page {pageNumber}</h2>
        <span className={`badge ${page.state}${needsReview(page) ? ' to-review' : ''}`}>{pageStateLabel(page)}</span>
        <span className="spacer" />
        <label className="check review-mark">
          <input type="checkbox" checked={page.reviewed} onChange={(event) => void setReviewed(docId, pageNumber, event.target.checked)} />
          Reviewed
        </label>
        {/* in the source view too: its text is read-only until Edit, so a stray keystroke edits nothing */}
        <button
          type="button"
          className="small"
          aria-pressed={editing}
          disabled={page.state === 'converting' && !editing}
          title={page.state === 'converting' ? 'The page can be edited once it has converted' : undefined}
          onClick={() => setEditingPage(editing ? null : pageNumber)}
        >
          {editing ? (view === 'source' ? 'Done editing' : 'Close editor') : 'Edit'}
        </button>
        {edited && (
          <>
            <button type="button" className="small" aria-pressed={showDiff} onClick={() => setShowDiff(!showDiff)}>
              Changes
            </button>
            <button type="button" className="small" onClick={() => void revertPage(docId, pageNumber)}>
              Revert
            </button>
          </>
        )}
        <VersionsButton docId={docId} page={page} />
        {page.state === 'failed' ? (
          <button type="button" className="small primary" onClick={() => void convert({ docId, pages: [pageNumber] })}>
            Retry
          </button>
        ) : (
          <button type="button" className="small" disabled={page.state === 'converting' || page.state === 'queued'} onClick={() => setRerunning(true)}>
            Re-run…
          </button>
        )}
      </header>
      {page.state === 'failed' && page.failure && (
        <p className="page-failure" role="alert">
          {failureSentence(failureText(page.failure, APP_REMEDY_WORDS))}
        </p>
      )}
      <HeldVersionNote page={page} />
      {cutShort && (
        <p className="page-review page-truncated" role="note">
          {cutShort}
        </p>
      )}
      <PageTroubleNote docId={docId} page={page} />
      {showDiff && edited && <DiffView page={pageNumber} engineMarkdown={page.engineMarkdown} editedMarkdown={page.editedMarkdown ?? ''} />}
      {showEditor ? (
        <>
          {editing && <TableButtons markdown={pageMarkdown(page)} pageNumber={pageNumber} onOpen={setEditedTable} />}
          <div className={view === 'preview' ? 'edit-split' : 'edit-source'}>
            <SourceEditor
              label={`Markdown of page ${pageNumber}`}
              value={pageMarkdown(page)}
              autoFocus={editing}
              readOnly={!editing}
              handle={editor}
              onTableCommand={(offset) => {
                const table = editing ? tableAt(pageMarkdown(page), offset) : undefined;
                if (table) setEditedTable(table);
                return table !== undefined;
              }}
              onChange={(markdown) => editPage(docId, pageNumber, markdown)}
              onBlur={() => void flushEdits()}
            />
            {view === 'preview' && <LivePreview page={page} />}
          </div>
        </>
      ) : (
        <PagePreview page={page} />
      )}
      {editedTable && (
        <TableEditor
          table={editedTable}
          pageNumber={pageNumber}
          // through the source editor, so the table is one step of its undo and saved like typing
          onApply={(source) => editor.current?.replace(editedTable.from, editedTable.to, editedTable.source, source) ?? false}
          onClose={() => {
            setEditedTable(null);
            // after the dialog has closed, which hands focus back to the button that opened it
            requestAnimationFrame(() => editor.current?.focus());
          }}
        />
      )}
      {rerunning && <RerunDialog docId={docId} page={page} onClose={() => setRerunning(false)} />}
    </section>
  );
});

function PagePreview({ page }: { page: WorkspacePage }) {
  if (page.state === 'converting') return <StreamingPreview markdown={page.engineMarkdown} />;
  if (page.editedMarkdown === undefined && page.result && page.result.blocks.some((block) => block.markdown.trim() !== '')) {
    return <BlockPreview result={page.result} />;
  }
  const markdown = pageMarkdown(page);
  if (markdown.trim() !== '') return <LinkedPreview page={page} markdown={markdown} />;
  return <p className="page-empty">{emptyText(page)}</p>;
}

function StreamingPreview({ markdown }: { markdown: string }) {
  const shown = useThrottled(markdown, STREAM_REDRAW_MS);
  return (
    <div className="streaming" aria-busy="true">
      {shown.trim() === '' ? <p className="page-empty">Reading the page…</p> : <MarkdownPreview markdown={shown} />}
      <span className="stream-caret" aria-hidden="true" />
    </div>
  );
}

function LivePreview({ page }: { page: WorkspacePage }) {
  const shown = useThrottled(pageMarkdown(page), STREAM_REDRAW_MS);
  return (
    <div className="live-preview" aria-label={`Preview of page ${page.page}`}>
      <LinkedPreview page={page} markdown={shown} />
    </div>
  );
}

/** Edited Markdown, still linked to the page's regions where the page has them. */
function LinkedPreview({ page, markdown }: { page: WorkspacePage; markdown: string }) {
  return page.result && page.result.blocks.some((block) => block.markdown.trim() !== '') ? <EditedPreview result={page.result} markdown={markdown} /> : <MarkdownPreview markdown={markdown} />;
}

function emptyText(page: WorkspacePage): string {
  switch (page.state) {
    case 'pending':
      return 'Not converted yet.';
    case 'queued':
      return 'Waiting its turn…';
    case 'done':
      return 'This page has no text.';
    default:
      return '';
  }
}
