import { useState } from 'react';
import { currentVersionId, pageVersions, type PageVersion } from '../../shared/page-versions.js';
import type { WorkspacePage } from '../../shared/workspace.js';
import { DiffView } from '../markdown/diff-view.js';
import { versionLabel } from '../markdown/version-label.js';
import { useActions } from '../state/store-context.js';
import { Modal } from './modal.js';

/**
 * Every version of a page, newest first: who read it and when, or the person's edit. Any one can be
 * compared with the version shown, and kept instead of it; the one it replaces stays in the list,
 * so keeping is undone by keeping that one again.
 */
export function VersionsDialog({ docId, page, onClose }: { docId: string; page: WorkspacePage; onClose(): void }) {
  const { keepVersion } = useActions();
  const versions = [...pageVersions(page)].reverse();
  const current = currentVersionId(page);
  const shown = versions.find((version) => version.id === current);
  const [compared, setCompared] = useState<number | null>(null);
  const comparing = versions.find((version) => version.id === compared && version.id !== current);
  const busy = page.state === 'converting' || page.state === 'queued';

  const keep = async (version: PageVersion) => {
    onClose();
    await keepVersion(docId, page.page, version.id);
  };

  return (
    <Modal
      title={`Versions of page ${page.page}`}
      onClose={onClose}
      actions={
        <button type="button" onClick={onClose}>
          Close
        </button>
      }
    >
      <p className="version-hint">Every result this page has had, and your edits. The version shown is the one exported.</p>
      <ul className="version-list" aria-label={`Versions of page ${page.page}`}>
        {versions.map((version) => {
          const isShown = version.id === current;
          return (
            <li key={version.id} className={isShown ? 'shown' : undefined} aria-current={isShown ? 'true' : undefined}>
              <span className="version-name">{versionLabel(version)}</span>
              <span className="version-facts">{versionFacts(version, isShown, version.id === page.held)}</span>
              <button type="button" className="small" aria-pressed={comparing?.id === version.id} disabled={isShown || !shown} onClick={() => setCompared(comparing?.id === version.id ? null : version.id)}>
                Compare
              </button>
              <button type="button" className="small" disabled={isShown || busy} title={busy ? 'The page is converting; choose once it is done' : undefined} onClick={() => void keep(version)}>
                Keep this one
              </button>
            </li>
          );
        })}
      </ul>
      {comparing && shown && (
        <DiffView
          page={page.page}
          engineMarkdown={shown.markdown}
          editedMarkdown={comparing.markdown}
          against={`the version shown (${versionLabel(shown)})`}
          label={`${versionLabel(comparing)} against the version shown`}
        />
      )}
    </Modal>
  );
}

/** "shown · 7 lines", "no text". */
function versionFacts(version: PageVersion, shown: boolean, held: boolean): string {
  const lines = version.markdown.trim() === '' ? 0 : version.markdown.trimEnd().split('\n').length;
  const size = lines === 0 ? 'no text' : `${lines} ${lines === 1 ? 'line' : 'lines'}`;
  return [shown ? 'shown' : held ? 'not shown' : '', size].filter(Boolean).join(' · ');
}
