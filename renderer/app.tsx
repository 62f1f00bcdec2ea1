import { useEffect, useRef } from 'react';
import type { MenuCommand } from '../shared/app-api.js';
import { ExportDialog } from './dialogs/export-dialog.js';
import { PairsDialog } from './dialogs/pairs-dialog.js';
import { RemoveDialog } from './dialogs/remove-dialog.js';
import { SettingsDialog } from './dialogs/settings-dialog.js';
import { DocumentList } from './documents/document-list.js';
import { DocumentView } from './documents/document-view.js';
import { DropZone, WindowDropHighlight } from './documents/drop-zone.js';
import { ResumeNotice } from './documents/resume-notice.js';
import { SaveNotice } from './documents/save-notice.js';
import { SidebarToggle, useSidebarDrawer } from './layout/sidebar-drawer.js';
import { redoInFocusedEditor, undoInFocusedEditor } from './editor/source-editor.js';
import { ReviewStepper } from './pages/review-stepper.js';
import { selectedDocument } from './state/folio-store.js';
import { useActions, useApi, useFolio } from './state/store-context.js';
import { StatusBar } from './status-bar.js';

/** The window: documents on the left, the selected one's pages and Markdown, a status bar below. */
export function App() {
  const api = useApi();
  const actions = useActions();
  const loaded = useFolio((state) => state.loaded);
  const hasDocuments = useFolio((state) => state.workspace.documents.length > 0);
  const document = useFolio(selectedDocument);
  const dialog = useFolio((state) => state.dialog);
  const notice = useFolio((state) => state.notice);
  const info = useFolio((state) => state.info);
  const removing = useFolio((state) => state.workspace.documents.find((candidate) => candidate.id === state.removing));
  const theme = useFolio((state) => state.settings.theme);
  const fileInput = useRef<HTMLInputElement>(null);
  const exportable = useRef(false);
  const sidebar = useSidebarDrawer();
  exportable.current = document?.info !== undefined;

  useEffect(() => {
    let unsubscribe: (() => void) | undefined;
    let live = true;
    void actions.connect().then((stop) => (live ? (unsubscribe = stop) : stop()));
    return () => {
      live = false;
      unsubscribe?.();
    };
  }, [actions]);

  useEffect(() => {
    globalThis.document.documentElement.dataset['theme'] = theme;
  }, [theme]);

  useEffect(
    () =>
      api.onMenuCommand((command: MenuCommand) => {
        switch (command) {
          case 'open':
            fileInput.current?.click();
            break;
          case 'export':
            if (exportable.current) actions.openDialog('export');
            break;
          case 'next-page':
            actions.stepPage(1);
            break;
          case 'previous-page':
            actions.stepPage(-1);
            break;
          case 'toggle-source':
            actions.toggleView();
            break;
          case 'undo':
            if (!undoInFocusedEditor()) void actions.undo();
            break;
          case 'redo':
            if (!redoInFocusedEditor()) void actions.redo();
            break;
          case 'settings':
            actions.openDialog('settings');
            break;
        }
      }),
    [api, actions],
  );

  // edits still waiting for their pause are saved before the window goes
  useEffect(() => {
    const flush = () => void actions.flushEdits();
    window.addEventListener('pagehide', flush);
    return () => window.removeEventListener('pagehide', flush);
  }, [actions]);

  return (
    <div
      className={`app${sidebar.appClass}`}
      onDragOver={(event) => event.preventDefault()}
      onDrop={(event) => {
        event.preventDefault();
        void actions.openFiles([...event.dataTransfer.files]);
      }}
    >
      <header className="app-header">
        <SidebarToggle open={sidebar.open} toggle={sidebar.toggle} />
        <h1>Folio</h1>
        <span className="tagline">PDFs to clean Markdown</span>
        <span className="spacer" />
        <ReviewStepper />
        <button type="button" disabled={!document?.info} onClick={() => actions.openDialog('export')}>
          Export…
        </button>
        <button type="button" disabled={!hasDocuments} onClick={() => actions.openDialog('pairs')}>
          Training pairs…
        </button>
        <button type="button" onClick={() => actions.openDialog('settings')}>
          Settings
        </button>
      </header>
      <aside className="sidebar" id="document-sidebar" onClick={sidebar.closeOnChoice}>
        <DropZone ref={fileInput} compact={hasDocuments} />
        <DocumentList />
      </aside>
      <main className="main">
        <SaveNotice />
        <ResumeNotice />
        {notice && (
          <div className="notice" role="alert">
            <span>{notice}</span>
            <button type="button" className="icon" aria-label="Dismiss" onClick={actions.dismissNotice}>
              ×
            </button>
          </div>
        )}
        {info && (
          <div className="notice info" role="status">
            <span>{info}</span>
            <button type="button" className="icon" aria-label="Dismiss" onClick={actions.dismissInfo}>
              ×
            </button>
          </div>
        )}
        {document ? (
          <DocumentView key={document.id} document={document} />
        ) : (
          <div className="empty-state">
            {loaded ? (
              <>
                <h2>Nothing open yet</h2>
                <p>Drop a PDF or a page image anywhere in this window, or choose “Open…”. Each page converts beside its picture, and you can correct and export the Markdown.</p>
              </>
            ) : (
              <p>Loading your workspace…</p>
            )}
          </div>
        )}
      </main>
      <StatusBar />
      <WindowDropHighlight />
      {dialog === 'settings' && <SettingsDialog />}
      {dialog === 'export' && document && <ExportDialog document={document} />}
      {dialog === 'pairs' && <PairsDialog />}
      {removing && <RemoveDialog document={removing} />}
    </div>
  );
}
