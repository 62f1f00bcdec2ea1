import { useState } from 'react';
import { ENGINE_CHOICES, type EngineChoice } from '../../shared/engine-name.js';
import type { WorkspacePage } from '../../shared/workspace.js';
import { engineLabel } from '../settings/engine-label.js';
import { engineHint, engineOptions } from '../settings/engine-options.js';
import { useActions, useFolio } from '../state/store-context.js';
import { Modal } from './modal.js';

/**
 * Converts one page again with another engine or mode. The page's current text stays one of its
 * versions whatever comes back; a page the person edited keeps showing the edit unless they choose
 * otherwise here, and even then the edit stays under Versions.
 */
export function RerunDialog({ docId, page, onClose }: { docId: string; page: WorkspacePage; onClose(): void }) {
  const { convert, revertPage } = useActions();
  const settings = useFolio((state) => state.settings);
  const [engine, setEngine] = useState<EngineChoice>(settings.engine);
  const [mode, setMode] = useState(settings.mode ?? '');
  const [keepEdits, setKeepEdits] = useState(true);
  const edited = page.editedMarkdown !== undefined;
  // a resolution mode means something only to the vision model: other engines are run without one
  const modeApplies = engineOptions(engine, settings.modelDir !== null).modelInternals;

  const run = async () => {
    onClose();
    if (edited && !keepEdits) await revertPage(docId, page.page);
    await convert({ docId, pages: [page.page], engine, ...(modeApplies && mode.trim() ? { mode: mode.trim() } : {}) });
  };

  return (
    <Modal
      title={`Re-run page ${page.page}`}
      onClose={onClose}
      actions={
        <>
          <button type="button" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="primary" onClick={() => void run()}>
            Re-run page {page.page}
          </button>
        </>
      }
    >
      <label className="field">
        Engine
        <select value={engine} onChange={(event) => setEngine(event.target.value as EngineChoice)}>
          {ENGINE_CHOICES.map((choice) => (
            <option key={choice} value={choice}>
              {engineLabel(choice)}
            </option>
          ))}
        </select>
        <span className="field-note">{engineHint(engine)}</span>
      </label>
      {modeApplies && (
        <details className="advanced">
          <summary>Advanced</summary>
          <div className="advanced-fields">
            <label className="field">
              Resolution mode (vision model)
              <input type="text" value={mode} placeholder="the package's first" onChange={(event) => setMode(event.target.value)} />
            </label>
          </div>
        </details>
      )}
      {edited && (
        <fieldset className="field">
          <legend>You edited this page</legend>
          <label className="check">
            <input type="radio" name="edits" checked={keepEdits} onChange={() => setKeepEdits(true)} />
            Keep my edits (the new output shows under “Changes” and “Versions”)
          </label>
          <label className="check">
            <input type="radio" name="edits" checked={!keepEdits} onChange={() => setKeepEdits(false)} />
            Show the new output (my edits stay under “Versions”)
          </label>
        </fieldset>
      )}
    </Modal>
  );
}
