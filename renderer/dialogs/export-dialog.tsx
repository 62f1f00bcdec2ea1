import { useEffect, useState } from 'react';
import type { ExportFormat, ExportOutcome } from '../../shared/app-api.js';
import type { ExportChoices } from '../../shared/export-choices.js';
import { PageRangeError, parsePageRanges, resolvePageRanges } from '../../shared/page-range.js';
import type { WorkspaceDocument } from '../../shared/workspace.js';
import { useActions, useApi, useFolio } from '../state/store-context.js';
import { ExportResult } from './export-result.js';
import { FolderField } from './export-folder.js';
import { Modal } from './modal.js';

const FORMAT_LABELS: readonly [ExportFormat, string][] = [
  ['md', 'Markdown (.md)'],
  ['html', 'HTML (.html, opens offline)'],
  ['docx', 'Word (.docx, tables and equations)'],
  ['tex', 'LaTeX (.tex, compiles with pdflatex)'],
];

type Scope = 'this' | 'all' | 'chosen';

/**
 * Markdown, HTML, Word or LaTeX of this document (whole or chosen pages) or of several documents at
 * once, one set of files each, never replacing files unasked. The choices are remembered in the
 * settings once an export is written.
 */
export function ExportDialog({ document }: { document: WorkspaceDocument }) {
  const api = useApi();
  const { openDialog, flushEdits, updateSettings } = useActions();
  const remembered = useFolio((state) => state.settings.exportChoices);
  const documents = useFolio((state) => state.workspace.documents);
  const exportable = documents.filter((candidate) => candidate.info !== undefined);
  const [formats, setFormats] = useState<Set<ExportFormat>>(() => new Set(remembered.formats));
  const [scope, setScope] = useState<Scope>('this');
  const [chosen, setChosen] = useState<Set<string>>(() => new Set([document.id]));
  const [whole, setWhole] = useState(true);
  const [pageText, setPageText] = useState('');
  const [pageBreaks, setPageBreaks] = useState(remembered.pageBreaks);
  const [assets, setAssets] = useState(remembered.assets);
  const [folder, setFolder] = useState<string | null>(remembered.folder);
  /** Until the default folder is known, the field says so rather than "none chosen". */
  const [folderPending, setFolderPending] = useState(remembered.folder === null);
  /** A folder picked in this dialog, to be remembered; the default one is worked out again each time. */
  const [pickedFolder, setPickedFolder] = useState<string | null>(remembered.folder);
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<ExportOutcome | null>(null);
  // an export under way cannot be stopped: the dialog stays until it says what was written
  const close = () => {
    if (!busy) openDialog(null);
  };
  // Export is ready at once with the default folder; "Choose folder…" is for another one
  useEffect(() => {
    let current = true;
    void api
      .defaultExportFolder(document.id)
      .then((fallback) => {
        if (current && fallback) setFolder((shown) => shown ?? fallback);
      })
      .catch(() => undefined)
      .finally(() => {
        if (current) setFolderPending(false);
      });
    return () => {
      current = false;
    };
  }, [api, document.id]);

  const docIds = scope === 'this' ? [document.id] : scope === 'all' ? exportable.map((candidate) => candidate.id) : exportable.filter((candidate) => chosen.has(candidate.id)).map((candidate) => candidate.id);
  let pages: number[] | undefined;
  let pageError: string | null = null;
  if (scope === 'this' && !whole) {
    try {
      pages = resolvePageRanges(parsePageRanges(pageText), document.pages.length);
      if (pages.length === 0) pageError = `None of those pages are in this ${document.pages.length}-page document.`;
    } catch (error) {
      pageError = error instanceof PageRangeError ? error.message : 'Write pages and ranges like 1-3,7.';
    }
  }
  const ready = formats.size > 0 && folder !== null && pageError === null && docIds.length > 0 && !busy;

  const run = async (overwrite: boolean) => {
    if (!folder) return;
    setBusy(true);
    setOutcome(null);
    await flushEdits();
    const choices = { formats: FORMAT_LABELS.map(([format]) => format).filter((format) => formats.has(format)), pageMarkers: pageBreaks, assets, folder, overwrite };
    try {
      const written =
        scope === 'this' ? await api.exportDocument({ docId: document.id, ...choices, ...(pages ? { pages } : {}) }) : await api.exportDocuments({ docIds, ...choices });
      setOutcome(written);
      if (written.kind === 'written') {
        const next: ExportChoices = { formats: choices.formats, pageBreaks, assets, folder: pickedFolder };
        await updateSettings({ exportChoices: next });
      }
    } catch (error) {
      setOutcome({ kind: 'failed', message: error instanceof Error ? error.message : String(error) });
    } finally {
      setBusy(false);
    }
  };

  const toggle = <T,>(set: Set<T>, item: T, on: boolean): Set<T> => {
    const next = new Set(set);
    if (on) next.add(item);
    else next.delete(item);
    return next;
  };

  return (
    <Modal
      title={`Export ${document.name}`}
      onClose={close}
      actions={
        <>
          <button type="button" disabled={busy} title={busy ? 'Wait for the export to finish: files are being written' : undefined} onClick={close}>
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
            <input
              type="checkbox"
              checked={formats.has(format)}
              onChange={(event) => {
                setFormats(toggle(formats, format, event.target.checked));
                setOutcome(null);
              }}
            />
            {label}
          </label>
        ))}
        {formats.has('tex') && (
          <span className="field-note">
            pdflatex has no Chinese, Japanese or Korean fonts: such characters are written as their codes ([U+6F22]) and named in a warning. Export Word or HTML for those documents.
          </span>
        )}
      </fieldset>
      {exportable.length > 1 && (
        <fieldset className="field">
          <legend>Documents</legend>
          <label className="check">
            <input type="radio" name="export-scope" checked={scope === 'this'} onChange={() => setScope('this')} />
            This document
          </label>
          <label className="check">
            <input type="radio" name="export-scope" checked={scope === 'all'} onChange={() => setScope('all')} />
            All {exportable.length} documents
          </label>
          <label className="check">
            <input type="radio" name="export-scope" checked={scope === 'chosen'} onChange={() => setScope('chosen')} />
            Chosen documents
          </label>
          {scope === 'chosen' &&
            exportable.map((candidate) => (
              <label className="check nested" key={candidate.id}>
                <input type="checkbox" checked={chosen.has(candidate.id)} onChange={(event) => setChosen(toggle(chosen, candidate.id, event.target.checked))} />
                {candidate.name}
              </label>
            ))}
          {scope !== 'this' && <span className="field-note">Each document is written whole, to files of its own name.</span>}
        </fieldset>
      )}
      {scope === 'this' && (
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
      )}
      <label className="check">
        <input type="checkbox" checked={pageBreaks} onChange={(event) => setPageBreaks(event.target.checked)} />
        Page breaks between pages
      </label>
      <label className="check">
        <input type="checkbox" checked={assets} onChange={(event) => setAssets(event.target.checked)} />
        Figures to an assets folder
      </label>
      <FolderField
        folder={folder}
        pending={folderPending}
        onChosen={(picked) => {
          setFolder(picked);
          setPickedFolder(picked);
          setOutcome(null);
        }}
      />
      {outcome && <ExportResult outcome={outcome} folder={folder} />}
    </Modal>
  );
}
