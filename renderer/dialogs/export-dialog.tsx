import { useEffect, useState } from 'react';
import type { ExportFormat, ExportOutcome, ExportRequest } from '../../shared/app-api.js';
import { PageRangeError, parsePageRanges, resolvePageRanges } from '../../shared/page-range.js';
import type { WorkspaceDocument } from '../../shared/workspace.js';
import { useActions, useApi } from '../state/store-context.js';
import { FileList, FolderField } from './export-folder.js';
import { Modal } from './modal.js';

const FORMAT_LABELS: readonly [ExportFormat, string][] = [
  ['md', 'Markdown (.md)'],
  ['html', 'HTML (.html, opens offline)'],
  ['docx', 'Word (.docx, tables and equations)'],
  ['tex', 'LaTeX (.tex, compiles with pdflatex)'],
];

/** Markdown, HTML, Word or LaTeX of the whole document or chosen pages, never replacing files unasked. */
export function ExportDialog({ document }: { document: WorkspaceDocument }) {
  const api = useApi();
  const { openDialog, flushEdits } = useActions();
  const [formats, setFormats] = useState<Set<ExportFormat>>(new Set(['md']));
  const [whole, setWhole] = useState(true);
  const [pageText, setPageText] = useState('');
  const [pageMarkers, setPageMarkers] = useState(false);
  const [assets, setAssets] = useState(true);
  const [folder, setFolder] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<ExportOutcome | null>(null);
  const close = () => openDialog(null);
  // Export is ready at once with the default folder; "Choose folder…" is for another one
  useEffect(() => {
    let current = true;
    void api.defaultExportFolder(document.id).then((fallback) => {
      if (current && fallback) setFolder((chosen) => chosen ?? fallback);
    });
    return () => {
      current = false;
    };
  }, [api, document.id]);

  let pages: number[] | undefined;
  let pageError: string | null = null;
  if (!whole) {
    try {
      pages = resolvePageRanges(parsePageRanges(pageText), document.pages.length);
      if (pages.length === 0) pageError = `None of those pages are in this ${document.pages.length}-page document.`;
    } catch (error) {
      pageError = error instanceof PageRangeError ? error.message : 'Write pages and ranges like 1-3,7.';
    }
  }
  const ready = formats.size > 0 && folder !== null && pageError === null && !busy;

  const run = async (overwrite: boolean) => {
    if (!folder) return;
    setBusy(true);
    setOutcome(null);
    await flushEdits();
    const request: ExportRequest = { docId: document.id, formats: [...formats], pageMarkers, assets, folder, overwrite, ...(pages ? { pages } : {}) };
    try {
      setOutcome(await api.exportDocument(request));
    } catch (error) {
      setOutcome({ kind: 'failed', message: error instanceof Error ? error.message : String(error) });
    } finally {
      setBusy(false);
    }
  };

  const toggleFormat = (format: ExportFormat, on: boolean) => {
    const next = new Set(formats);
    if (on) next.add(format);
    else next.delete(format);
    setFormats(next);
    setOutcome(null);
  };

  return (
    <Modal
      title={`Export ${document.name}`}
      onClose={close}
      actions={
        <>
          <button type="button" onClick={close}>
            {outcome?.kind === 'written' ? 'Close' : 'Cancel'}
          </button>
          {outcome?.kind === 'would-overwrite' ? (
            <button type="submit" className="danger" disabled={busy} onClick={() => void run(true)}>
              Replace files
            </button>
          ) : (
            <button type="submit" className="primary" disabled={!ready} onClick={() => void run(false)}>
              {busy ? 'Exporting…' : 'Export'}
            </button>
          )}
        </>
      }
    >
      <fieldset className="field">
        <legend>Formats</legend>
        {FORMAT_LABELS.map(([format, label]) => (
          <label className="check" key={format}>
            <input type="checkbox" checked={formats.has(format)} onChange={(event) => toggleFormat(format, event.target.checked)} />
            {label}
          </label>
        ))}
      </fieldset>
      <fieldset className="field">
        <legend>Pages</legend>
        <label className="check">
          <input type="radio" name="export-pages" checked={whole} onChange={() => setWhole(true)} />
          Whole document ({document.pages.length} {document.pages.length === 1 ? 'page' : 'pages'})
        </label>
        <label className="check">
          <input type="radio" name="export-pages" checked={!whole} onChange={() => setWhole(false)} />
          Selected pages
        </label>
        {!whole && (
          <label className="field nested">
            Pages to export
            <input type="text" value={pageText} placeholder="1-3,7" onChange={(event) => setPageText(event.target.value)} aria-invalid={pageError !== null} />
            {pageError && pageText !== '' && <span className="field-error">{pageError}</span>}
          </label>
        )}
      </fieldset>
      <label className="check">
        <input type="checkbox" checked={pageMarkers} onChange={(event) => setPageMarkers(event.target.checked)} />
        Page markers between pages
      </label>
      <label className="check">
        <input type="checkbox" checked={assets} onChange={(event) => setAssets(event.target.checked)} />
        Figures to an assets folder
      </label>
      <FolderField
        folder={folder}
        onChosen={(chosen) => {
          setFolder(chosen);
          setOutcome(null);
        }}
      />
      {outcome && <ExportResult outcome={outcome} />}
    </Modal>
  );
}

function ExportResult({ outcome }: { outcome: ExportOutcome }) {
  switch (outcome.kind) {
    case 'written':
      return (
        <div className="export-result written" role="status">
          <p>Wrote {outcome.files.length === 1 ? 'one file' : `${outcome.files.length} files`}:</p>
          <FileList files={outcome.files} />
          {outcome.warnings && outcome.warnings.length > 0 && (
            <>
              <p>Written with these changes:</p>
              <ul className="file-list">
                {outcome.warnings.map((warning, index) => (
                  <li key={index}>{warning}</li>
                ))}
              </ul>
            </>
          )}
        </div>
      );
    case 'would-overwrite':
      return (
        <div className="export-result warning" role="alert">
          <p>These files already exist. Replace them?</p>
          <FileList files={outcome.files} />
        </div>
      );
    case 'failed':
      return (
        <p className="export-result failed" role="alert">
          Export failed: {outcome.message}
        </p>
      );
  }
}
