/// <reference lib="dom" />
/**
 * `window.folio` in a normal browser: the bridge serves this function's source (with its config)
 * as a classic script that runs before the renderer, as Electron's preload does. Calls and
 * workspace events travel over the bridge's WebSocket; files go up and documents come down over
 * HTTP; the shared menu shortcuts become menu commands. Self-contained: it runs from its source.
 */

import type { FolioApi, MenuCommand, PickedFile } from '../../shared/app-api.js';
import type { commandForKey as CommandForKey, ShortcutKeys } from '../../shared/menu-accelerators.js';
import type { WorkspaceEvent } from '../../shared/workspace.js';

export interface BridgeClientConfig {
  token: string;
  shortcuts: ShortcutKeys[];
}

/** Messages from the bridge: a call's answer, or a workspace event. */
type ServerMessage =
  | { id: number; result: unknown }
  | { id: number; error: string }
  | { event: 'workspace'; payload: WorkspaceEvent };

export function installFolioBridge(config: BridgeClientConfig, commandForKey: typeof CommandForKey): void {
  const pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  const workspaceListeners = new Set<(event: WorkspaceEvent) => void>();
  const menuListeners = new Set<(command: MenuCommand) => void>();
  let nextId = 1;
  /** getWorkspace calls under way; events that arrive before their answer are already in it. */
  const snapshots = new Set<number>();
  let snapshotsPending = 0;
  const held: WorkspaceEvent[] = [];
  let closedReason: string | undefined;

  const socket = new WebSocket(`ws://${location.host}/__folio/ws?token=${encodeURIComponent(config.token)}`);
  const opened = new Promise<void>((resolve) => socket.addEventListener('open', () => resolve(), { once: true }));
  socket.addEventListener('message', (message: MessageEvent<string>) => {
    const data = JSON.parse(message.data) as ServerMessage;
    if ('event' in data) {
      if (snapshotsPending > 0) held.push(data.payload);
      else for (const listener of workspaceListeners) listener(data.payload);
      return;
    }
    const entry = pending.get(data.id);
    pending.delete(data.id);
    if (snapshots.delete(data.id)) {
      // answers and events share one ordered socket: what came before the snapshot is in it
      snapshotsPending--;
      held.length = 0;
    }
    if ('error' in data) entry?.reject(new Error(data.error));
    else entry?.resolve(data.result);
  });
  socket.addEventListener('close', () => {
    closedReason = 'The Folio bridge closed the connection; restart `npm run dev:web` and reload the page.';
    for (const entry of pending.values()) entry.reject(new Error(closedReason));
    pending.clear();
  });

  const call = async <T>(method: keyof FolioApi, ...args: unknown[]): Promise<T> => {
    await Promise.race([opened, new Promise((resolve) => socket.addEventListener('close', resolve, { once: true }))]);
    if (closedReason !== undefined) throw new Error(closedReason);
    const id = nextId++;
    if (method === 'getWorkspace') {
      snapshots.add(id);
      snapshotsPending++;
    }
    return new Promise<T>((resolve, reject) => {
      pending.set(id, { resolve: resolve as (value: unknown) => void, reject });
      socket.send(JSON.stringify({ id, method, args }));
    });
  };

  const request = async (url: string, init: RequestInit = {}): Promise<Response> => {
    const response = await fetch(url, { ...init, headers: { 'x-folio-token': config.token } });
    if (!response.ok) throw new Error(await response.text());
    return response;
  };

  const mac = /Mac|iPhone|iPad/.test(navigator.platform);
  window.addEventListener('keydown', (event) => {
    // a key the page acted on itself (the source editor's own undo) is not a menu command, as in Electron
    if (event.defaultPrevented) return;
    const command = commandForKey(event, config.shortcuts, mac);
    if (!command) return;
    event.preventDefault();
    for (const listener of menuListeners) listener(command);
  });

  const api: FolioApi = {
    appInfo: () => call('appInfo'),
    getWorkspace: () => call('getWorkspace'),
    pathForFile: async (file: PickedFile) => {
      const response = await request(`/__folio/upload?name=${encodeURIComponent(file.name)}`, { method: 'POST', body: file });
      return ((await response.json()) as { path: string }).path;
    },
    openDocuments: (paths) => call('openDocuments', paths),
    removeDocument: (docId) => call('removeDocument', docId),
    restoreDocument: (docId) => call('restoreDocument', docId),
    unlockDocument: (docId, password) => call('unlockDocument', docId, password),
    readDocument: async (docId) => {
      const response = await request(`/__folio/document/${encodeURIComponent(docId)}`);
      const mime = response.headers.get('content-type') as Awaited<ReturnType<FolioApi['readDocument']>>['mime'];
      return { mime, data: new Uint8Array(await response.arrayBuffer()) };
    },
    convert: (convertRequest) => call('convert', convertRequest),
    cancel: (docId) => call('cancel', docId),
    setEdit: (docId, page, markdown) => call('setEdit', docId, page, markdown),
    setReviewed: (docId, page, reviewed) => call('setReviewed', docId, page, reviewed),
    keepVersion: (docId, page, version) => call('keepVersion', docId, page, version),
    getSettings: () => call('getSettings'),
    setSettings: (patch) => call('setSettings', patch),
    chooseExportFolder: () => call('chooseExportFolder'),
    defaultExportFolder: (docId) => call('defaultExportFolder', docId),
    exportDocument: (exportRequest) => call('exportDocument', exportRequest),
    exportDocuments: (exportRequest) => call('exportDocuments', exportRequest),
    showInFolder: (file) => call('showInFolder', file),
    exportTrainingPairs: (pairsRequest) => call('exportTrainingPairs', pairsRequest),
    hasApiKey: () => call('hasApiKey'),
    setApiKey: (key) => call('setApiKey', key),
    testRemoteServer: (server) => call('testRemoteServer', server),
    chooseModelFolder: () => call('chooseModelFolder'),
    checkModelFolder: (folder) => call('checkModelFolder', folder),
    useDemoModel: (name) => call('useDemoModel', name),
    modelLibrary: () => call('modelLibrary'),
    inspectModel: (source, precision) => call('inspectModel', source, precision),
    getModel: (request) => call('getModel', request),
    cancelModelDownload: () => call('cancelModelDownload'),
    removeModel: (id, precision) => call('removeModel', id, precision),
    discardModelDownload: (id, precision) => call('discardModelDownload', id, precision),
    onWorkspaceEvent: (listener) => {
      workspaceListeners.add(listener);
      return () => {
        workspaceListeners.delete(listener);
      };
    },
    onMenuCommand: (listener) => {
      menuListeners.add(listener);
      return () => {
        menuListeners.delete(listener);
      };
    },
  };
  Object.defineProperty(window, 'folio', { value: Object.freeze(api) });
}
