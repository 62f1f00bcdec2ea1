import { useState, type FormEvent } from 'react';
import { useActions } from '../state/store-context.js';

/**
 * Asks for an encrypted PDF's password. Main opens the document with it and keeps it in memory
 * until the app quits; so does the page preview. `wrong` says the last one given did not open it.
 */
export function PasswordForm({ docId, name, wrong }: { docId: string; name: string; wrong: boolean }) {
  const { unlockDocument } = useActions();
  const [password, setPassword] = useState('');
  const [opening, setOpening] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (password === '' || opening) return;
    setOpening(true);
    try {
      await unlockDocument(docId, password);
    } finally {
      setOpening(false);
      setPassword('');
    }
  }

  return (
    <form className="password-form" aria-label={`Password for ${name}`} onSubmit={(event) => void submit(event)}>
      <p>{name} is encrypted. Enter its password to open it; Folio keeps it only until you quit.</p>
      {wrong && <p role="alert">That password does not open it. Check it and try again.</p>}
      <div className="password-row">
        <input
          type="password"
          aria-label="Password"
          autoComplete="off"
          autoFocus
          value={password}
          disabled={opening}
          onChange={(event) => setPassword(event.target.value)}
        />
        <button type="submit" className="primary" disabled={password === '' || opening}>
          {opening ? 'Opening…' : 'Open'}
        </button>
      </div>
    </form>
  );
}
