import { describe, expect, it } from 'vitest';
import type { Workspace, WorkspaceEvent } from '../../shared/workspace.js';
import type { PortMessage, PortRequest } from '../../shared/workspace-port.js';
import { serveWorkspacePort } from './workspace-port.js';

describe('serveWorkspacePort', () => {
  it('posts events and snapshots in the order they happened, and stops when unsubscribed', async () => {
    const posted: PortMessage[] = [];
    let ask: (request: PortRequest) => void = () => undefined;
    const listeners = new Set<(event: WorkspaceEvent) => void>();
    const workspace: Workspace = { documents: [] };
    const emit = (event: WorkspaceEvent) => {
      for (const listener of listeners) listener(event);
    };
    const unsubscribe = serveWorkspacePort(
      { post: (message) => posted.push(message), onRequest: (listener) => (ask = listener) },
      {
        getWorkspace: async () => workspace,
        onWorkspaceEvent: (listener) => {
          listeners.add(listener);
          return () => listeners.delete(listener);
        },
      },
    );
    const event: WorkspaceEvent = { type: 'page-reviewed', docId: 'd', page: 1, reviewed: true };
    emit(event);
    ask({ type: 'get-workspace', id: 7 });
    await Promise.resolve();
    unsubscribe();
    emit(event);
    expect(posted).toEqual([
      { type: 'event', event },
      { type: 'workspace', id: 7, workspace },
    ]);
  });
});
