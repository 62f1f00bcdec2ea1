import { useState } from 'react';
import type { ExportOutcome } from '../../shared/app-api.js';
import { useApi } from '../state/store-context.js';
import { FileList } from './export-folder.js';

/** What an export wrote (with "Show in folder"), what it would replace, or why it failed. */
export function ExportResult({ outcome, folder }: { outcome: ExportOutcome; folder: string | null }) {
  switch (outcome.kind) {
    case 'written':
      return (
        <div className="export-result written" role="status">
          <p>Wrote {outcome.files.length === 1 ? 'one file' : `${outcome.files.length} files`}:</p>
          <FileList files={outcome.files} />
          <ShowInFolder files={outcome.files} folder={folder} />
          {outcome.warnings && outcome.warnings.length > 0 && (
            <>
              <p>Written with these changes:</p>
              <WarningList warnings={outcome.warnings} />
            </>
          )}
        </div>
      );
    default:
      return <UnwrittenResult outcome={outcome} />;
  }
}

/** An export that wrote nothing: the files it would replace, or why it failed. */
export function UnwrittenResult({ outcome }: { outcome: { kind: 'would-overwrite'; files: string[] } | { kind: 'failed'; message: string } }) {
  return outcome.kind === 'would-overwrite' ? (
    <div className="export-result warning" role="alert">
      <p>These files already exist. Replace them?</p>
      <FileList files={outcome.files} />
    </div>
  ) : (
    <p className="export-result failed" role="alert">
      Export failed: {outcome.message}
    </p>
  );
}

export function WarningList({ warnings }: { warnings: readonly string[] }) {
  return (
    <ul className="file-list">
      {warnings.map((warning, index) => (
        <li key={index}>{warning}</li>
      ))}
    </ul>
  );
}

/** The system's file manager at the first document file written; where there is none to open (a browser), the folder's path. */
function ShowInFolder({ files, folder }: { files: readonly string[]; folder: string | null }) {
  const api = useApi();
  const [unavailable, setUnavailable] = useState(false);
  // the assets come first; a document file is what the person looks for
  const target = files.find((file) => !/_assets[\\/]/.test(file)) ?? files[0];
  if (target === undefined) return null;
  return (
    <div className="folder-row">
      <button type="button" onClick={() => void api.showInFolder(target).then((shown) => setUnavailable(!shown), () => setUnavailable(true))}>
        Show in folder
      </button>
      {unavailable && (
        <span className="field-note">
          The folder cannot be opened from this browser; the files are in <code>{folder ?? target}</code>
        </span>
      )}
    </div>
  );
}
