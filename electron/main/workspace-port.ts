/**
 * The port that carries workspace events from main to the renderer (a MessageChannelMain in the
 * app). Snapshots travel on it too, so the renderer can tell which events a snapshot already
 * holds: everything that came before its answer. Electron-free; the preload speaks the other end.
 */

import type { Workspace, WorkspaceEvent } from '../../shared/workspace.js';
import type { PortMessage, PortRequest } from '../../shared/workspace-port.js';

/** Main's end of the port, whatever carries it. */
export interface PortEnd {
  post(message: PortMessage): void;
  onRequest(listener: (request: PortRequest) => void): void;
}

export interface WorkspaceSource {
  getWorkspace(): Promise<Workspace>;
  onWorkspaceEvent(listener: (event: WorkspaceEvent) => void): () => void;
}

/** Streams every workspace event to the port and answers snapshot requests in order with them; returns the unsubscribe. */
export function serveWorkspacePort(port: PortEnd, source: WorkspaceSource): () => void {
  const unsubscribe = source.onWorkspaceEvent((event) => port.post({ type: 'event', event }));
  port.onRequest((request) => {
    if (request?.type !== 'get-workspace') return;
    // the service answers from memory at once, so no event can slip between the read and the post
    void source.getWorkspace().then((workspace) => port.post({ type: 'workspace', id: request.id, workspace }));
  });
  return unsubscribe;
}
