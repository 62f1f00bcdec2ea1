import { useState } from 'react';
import { pageVersions } from '../../shared/page-versions.js';
import type { WorkspacePage } from '../../shared/workspace.js';
import { VersionsDialog } from '../dialogs/versions-dialog.js';
import { versionLabel } from './version-label.js';

/** The page header's way to its versions, once it has more than one. */
export function VersionsButton({ docId, page }: { docId: string; page: WorkspacePage }) {
  const [open, setOpen] = useState(false);
  const count = pageVersions(page).length;
  if (count < 2) return null;
  return (
    <>
      <button type="button" className="small" aria-haspopup="dialog" onClick={() => setOpen(true)}>
        Versions ({count})
      </button>
      {open && <VersionsDialog docId={docId} page={page} onClose={() => setOpen(false)} />}
    </>
  );
}

/** Says so when a conversion's result was kept but not shown: it read nothing where the page had text. */
export function HeldVersionNote({ page }: { page: WorkspacePage }) {
  const held = page.held === undefined ? undefined : pageVersions(page).find((version) => version.id === page.held);
  if (!held || page.state !== 'done') return null;
  return (
    <p className="page-review page-held" role="note">
      The re-run ({versionLabel(held)}) read no text, so this page keeps its earlier text; both are under Versions.
    </p>
  );
}
