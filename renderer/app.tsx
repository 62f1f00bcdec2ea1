import { useEffect, useState } from 'react';
import type { AppInfo } from '../shared/app-api.js';

/** The window's shell; the document views arrive with the desktop-app issue. */
export function App() {
  const [info, setInfo] = useState<AppInfo | null>(null);
  useEffect(() => {
    void window.folio.appInfo().then(setInfo);
  }, []);
  return (
    <main className="shell">
      <h1>Folio</h1>
      <p>PDFs to Markdown. Conversion from this window is being built; the <code>folio</code> command converts today.</p>
      <footer className="status">
        {info ? `Folio ${info.version} · ${info.device} (${info.deviceReason})` : 'Starting…'}
      </footer>
    </main>
  );
}
