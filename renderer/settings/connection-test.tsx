import { useEffect, useState } from 'react';
import type { RemoteServerCheck } from '../../shared/remote-check.js';
import { useApi } from '../state/store-context.js';

interface ConnectionTestProps {
  /** The address as typed; a change makes the last result stale. */
  server: string;
  /** The server's listed models, or none while untested or unreachable. */
  onModels(models: string[]): void;
}

/**
 * "Test connection": main asks the server (the page itself cannot, it is sandboxed), with the stored
 * API key, and the answer is shown as main words it.
 */
export function ConnectionTest({ server, onModels }: ConnectionTestProps) {
  const api = useApi();
  const [busy, setBusy] = useState(false);
  const [check, setCheck] = useState<RemoteServerCheck | null>(null);
  useEffect(() => {
    setCheck(null);
    onModels([]);
  }, [server, onModels]);

  const test = async () => {
    setBusy(true);
    setCheck(null);
    try {
      const found = await api.testRemoteServer(server.trim());
      setCheck(found);
      onModels(found.models);
    } catch (error) {
      setCheck({ kind: 'unreachable', server, models: [], message: (error as Error).message });
      onModels([]);
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="field nested connection-test">
      <div className="folder-row">
        <button type="button" disabled={busy || server.trim() === ''} onClick={() => void test()}>
          {busy ? 'Testing…' : 'Test connection'}
        </button>
      </div>
      {check && (
        <p className={`connection-result ${check.kind === 'reachable' ? 'ok' : 'problem'}`} role={check.kind === 'reachable' ? 'status' : 'alert'} aria-label="Connection test">
          {check.message}
        </p>
      )}
    </div>
  );
}
