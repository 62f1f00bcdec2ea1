import { useEffect, useId, useState } from 'react';
import { useApi } from '../state/store-context.js';

/**
 * The remote server's API key: sent to main once and never read back, so the page only knows
 * whether one is stored. Saved at once with its own button, not with the dialog's other fields.
 */
export function ApiKeyField() {
  const api = useApi();
  const statusId = useId();
  const [stored, setStored] = useState<boolean | undefined>(undefined);
  const [typed, setTyped] = useState('');
  const [problem, setProblem] = useState<string | undefined>(undefined);
  useEffect(() => {
    void api.hasApiKey().then(setStored, (error: unknown) => setProblem((error as Error).message));
  }, [api]);

  const store = async (key: string | null) => {
    setProblem(undefined);
    try {
      await api.setApiKey(key);
      setTyped('');
      setStored(await api.hasApiKey());
    } catch (error) {
      setProblem(`The API key was not saved: ${(error as Error).message}`);
    }
  };

  return (
    <div className="field nested">
      <label className="field">
        API key
        <input
          type="password"
          value={typed}
          autoComplete="off"
          spellCheck={false}
          placeholder={stored ? 'stored; type a new one to replace it' : 'none; only if the server asks for one'}
          aria-describedby={statusId}
          onChange={(event) => setTyped(event.target.value)}
        />
      </label>
      <div className="folder-row">
        <span id={statusId} className="folder-path" role="status">
          {stored === undefined ? '' : stored ? 'A key is stored.' : 'No key stored.'}
        </span>
        <button type="button" disabled={typed.trim() === ''} onClick={() => void store(typed.trim())}>
          Save key
        </button>
        <button type="button" disabled={!stored} onClick={() => void store(null)}>
          Forget key
        </button>
      </div>
      {problem && (
        <span className="field-error" role="alert">
          {problem}
        </span>
      )}
    </div>
  );
}
