import { useApi } from '../state/store-context.js';

/** The folder an export writes to, with the button that asks the system for another; `pending` while a default is still being looked up. */
export function FolderField({ folder, pending = false, onChosen }: { folder: string | null; pending?: boolean; onChosen: (folder: string) => void }) {
  const api = useApi();
  return (
    <div className="field folder-field">
      <span>Folder</span>
      <div className="folder-row">
        <code className="folder-path">{folder ?? (pending ? 'finding the default folder…' : 'none chosen')}</code>
        <button
          type="button"
          onClick={async () => {
            const chosen = await api.chooseExportFolder();
            if (chosen) onChosen(chosen);
          }}
        >
          Choose folder…
        </button>
      </div>
    </div>
  );
}

export function FileList({ files }: { files: readonly string[] }) {
  return (
    <ul className="file-list">
      {files.map((file) => (
        <li key={file}>
          <code>{file}</code>
        </li>
      ))}
    </ul>
  );
}
