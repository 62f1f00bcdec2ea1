// Sandboxed preloads load as CommonJS, hence `.cts`. The renderer sees only `window.folio`: one
// method per FolioApi member, never ipcRenderer itself.
import electron = require('electron');
import type { FolioApi, IPC_CHANNELS as SharedChannels, MenuCommand } from '../../shared/app-api.js';
import type { Workspace, WorkspaceEvent } from '../../shared/workspace.js';
import type { PortMessage, PortRequest } from '../../shared/workspace-port.js';

// Sandboxed preloads cannot require project files, so the channel names are repeated here; the
// `satisfies` keeps them in step with shared/app-api.ts.
const CHANNELS = {
  appInfo: 'folio:app-info',
  getWorkspace: 'folio:get-workspace',
  openDocuments: 'folio:open-documents',
  removeDocument: 'folio:remove-document',
  restoreDocument: 'folio:restore-document',
  unlockDocument: 'folio:unlock-document',
  readDocument: 'folio:read-document',
  convert: 'folio:convert',
  cancel: 'folio:cancel',
  setEdit: 'folio:set-edit',
  setReviewed: 'folio:set-reviewed',
  keepVersion: 'folio:keep-version',
  getSettings: 'folio:get-settings',
  setSettings: 'folio:set-settings',
  chooseExportFolder: 'folio:choose-export-folder',
  defaultExportFolder: 'folio:default-export-folder',
  exportDocument: 'folio:export-document',
  exportDocuments: 'folio:export-documents',
  showInFolder: 'folio:show-in-folder',
  exportTrainingPairs: 'folio:export-training-pairs',
  hasApiKey: 'folio:has-api-key',
  setApiKey: 'folio:set-api-key',
  testRemoteServer: 'folio:test-remote-server',
  chooseModelFolder: 'folio:choose-model-folder',
  checkModelFolder: 'folio:check-model-folder',
  useDemoModel: 'folio:use-demo-model',
  modelLibrary: 'folio:model-library',
  inspectModel: 'folio:inspect-model',
  getModel: 'folio:get-model',
  cancelModelDownload: 'folio:cancel-model-download',
  removeModel: 'folio:remove-model',
  discardModelDownload: 'folio:discard-model-download',
  workspacePort: 'folio:workspace-port',
  menuCommand: 'folio:menu-command',
} as const satisfies typeof SharedChannels;

const { ipcRenderer, webUtils, contextBridge } = electron;
function invoke<T>(channel: string, ...args: unknown[]): Promise<T> {
  return ipcRenderer.invoke(channel, ...args) as Promise<T>;
}

// Workspace events and snapshots arrive on one MessagePort from main, in order, so events that a
// snapshot already holds are held back and dropped when it arrives (see FolioApi.getWorkspace).
const workspaceListeners = new Set<(event: WorkspaceEvent) => void>();
const snapshotRequests = new Map<number, (workspace: Workspace) => void>();
const heldEvents: WorkspaceEvent[] = [];
let nextRequest = 1;
const port = new Promise<MessagePort>((resolve) => {
  ipcRenderer.once(CHANNELS.workspacePort, (event) => {
    const [received] = event.ports;
    if (!received) return;
    received.onmessage = (message: MessageEvent<PortMessage>) => {
      const data = message.data;
      if (data.type === 'event') {
        if (snapshotRequests.size > 0) heldEvents.push(data.event);
        else for (const listener of workspaceListeners) listener(data.event);
        return;
      }
      heldEvents.length = 0;
      snapshotRequests.get(data.id)?.(data.workspace);
      snapshotRequests.delete(data.id);
    };
    resolve(received);
  });
});
ipcRenderer.send(CHANNELS.workspacePort);

const menuListeners = new Set<(command: MenuCommand) => void>();
ipcRenderer.on(CHANNELS.menuCommand, (_event, command: MenuCommand) => {
  for (const listener of menuListeners) listener(command);
});

const api = {
  appInfo: () => invoke(CHANNELS.appInfo),
  getWorkspace: async () => {
    const open = await port;
    const id = nextRequest++;
    return new Promise<Workspace>((resolve) => {
      snapshotRequests.set(id, resolve);
      open.postMessage({ type: 'get-workspace', id } satisfies PortRequest);
    });
  },
  pathForFile: async (file) => webUtils.getPathForFile(file as File),
  openDocuments: (paths) => invoke(CHANNELS.openDocuments, paths),
  removeDocument: (docId) => invoke(CHANNELS.removeDocument, docId),
  restoreDocument: (docId) => invoke(CHANNELS.restoreDocument, docId),
  unlockDocument: (docId, password) => invoke(CHANNELS.unlockDocument, docId, password),
  readDocument: (docId) => invoke(CHANNELS.readDocument, docId),
  convert: (request) => invoke(CHANNELS.convert, request),
  cancel: (docId) => invoke(CHANNELS.cancel, docId),
  setEdit: (docId, page, markdown) => invoke(CHANNELS.setEdit, docId, page, markdown),
  setReviewed: (docId, page, reviewed) => invoke(CHANNELS.setReviewed, docId, page, reviewed),
  keepVersion: (docId, page, version) => invoke(CHANNELS.keepVersion, docId, page, version),
  getSettings: () => invoke(CHANNELS.getSettings),
  setSettings: (patch) => invoke(CHANNELS.setSettings, patch),
  chooseExportFolder: () => invoke(CHANNELS.chooseExportFolder),
  defaultExportFolder: (docId) => invoke(CHANNELS.defaultExportFolder, docId),
  exportDocument: (request) => invoke(CHANNELS.exportDocument, request),
  exportDocuments: (request) => invoke(CHANNELS.exportDocuments, request),
  showInFolder: (file) => invoke(CHANNELS.showInFolder, file),
  exportTrainingPairs: (request) => invoke(CHANNELS.exportTrainingPairs, request),
  hasApiKey: () => invoke(CHANNELS.hasApiKey),
  setApiKey: (key) => invoke(CHANNELS.setApiKey, key),
  testRemoteServer: (server) => invoke(CHANNELS.testRemoteServer, server),
  chooseModelFolder: () => invoke(CHANNELS.chooseModelFolder),
  checkModelFolder: (folder) => invoke(CHANNELS.checkModelFolder, folder),
  useDemoModel: (name) => invoke(CHANNELS.useDemoModel, name),
  modelLibrary: () => invoke(CHANNELS.modelLibrary),
  inspectModel: (source, precision) => invoke(CHANNELS.inspectModel, source, precision),
  getModel: (request) => invoke(CHANNELS.getModel, request),
  cancelModelDownload: () => invoke(CHANNELS.cancelModelDownload),
  removeModel: (id, precision) => invoke(CHANNELS.removeModel, id, precision),
  discardModelDownload: (id, precision) => invoke(CHANNELS.discardModelDownload, id, precision),
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
} satisfies FolioApi;

/** The preload's API, for the type-level test that it is exactly FolioApi. */
export type PreloadApi = typeof api;

contextBridge.exposeInMainWorld('folio', api);
