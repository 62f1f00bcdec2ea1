/**
 * `window.folio` calls as they arrive from a page (IPC in the app, the WebSocket in browser mode):
 * checked, then handed to the app service or to what only the shell can do. Electron-free, so
 * both shells dispatch alike.
 */

import type { FolioApi } from '../../shared/app-api.js';
import type { AppServiceApi } from './app-service.js';
import { checkedArguments, isInvokedMethod, type InvokedMethod } from './request-schemas.js';

/** What only a shell can do. */
export interface ShellApi extends Pick<FolioApi, 'chooseExportFolder' | 'defaultExportFolder'> {
  /** Opens the file manager at an exported file; false where the shell has none to open (browser mode). */
  showInFolder(file: string): Promise<boolean>;
  /** A folder for the model package (a native dialog in the app), or `null` when the user cancels. */
  pickModelFolder(): Promise<string | null>;
  /** Told of documents the page opened (drop, Open…), e.g. for Open Recent. */
  documentsOpened(paths: readonly string[]): void;
}

export type ApiHandlers = { [M in InvokedMethod]: (...args: Parameters<FolioApi[M]>) => ReturnType<FolioApi[M]> };

export function apiHandlers(service: AppServiceApi, shell: ShellApi): ApiHandlers {
  return {
    appInfo: () => service.appInfo(),
    getWorkspace: () => service.getWorkspace(),
    openDocuments: async (paths) => {
      const ids = await service.openDocuments(paths);
      shell.documentsOpened(paths);
      return ids;
    },
    removeDocument: (docId) => service.removeDocument(docId),
    restoreDocument: (docId) => service.restoreDocument(docId),
    unlockDocument: (docId, password) => service.unlockDocument(docId, password),
    readDocument: (docId) => service.readDocument(docId),
    convert: (request) => service.convert(request),
    cancel: (docId) => service.cancel(docId),
    setEdit: (docId, page, markdown) => service.setEdit(docId, page, markdown),
    setReviewed: (docId, page, reviewed) => service.setReviewed(docId, page, reviewed),
    keepVersion: (docId, page, version) => service.keepVersion(docId, page, version),
    getSettings: () => service.getSettings(),
    setSettings: (patch) => service.setSettings(patch),
    chooseExportFolder: () => shell.chooseExportFolder(),
    defaultExportFolder: (docId) => shell.defaultExportFolder(docId),
    exportDocument: (request) => service.exportDocument(request),
    exportDocuments: (request) => service.exportDocuments(request),
    // only what this session exported: the page cannot point the file manager anywhere else
    showInFolder: async (file) => service.exportedThisSession(file) && shell.showInFolder(file),
    exportTrainingPairs: (request) => service.exportTrainingPairs(request),
    hasApiKey: () => service.hasApiKey(),
    setApiKey: (key) => service.setApiKey(key),
    testRemoteServer: (server) => service.testRemoteServer(server),
    chooseModelFolder: async () => {
      const folder = await shell.pickModelFolder();
      return folder === null ? null : service.useModelFolder(folder);
    },
    checkModelFolder: (folder) => service.checkModelFolder(folder),
    useDemoModel: (name) => service.useDemoModel(name),
    modelLibrary: () => service.modelLibrary(),
    inspectModel: (source, precision) => service.inspectModel(source, precision),
    getModel: (request) => service.getModel(request),
    cancelModelDownload: () => service.cancelModelDownload(),
    removeModel: (id, precision) => service.removeModel(id, precision),
    discardModelDownload: (id, precision) => service.discardModelDownload(id, precision),
  };
}

/** Runs one call from a page; rejects with a message for an unknown method or malformed arguments. */
export function dispatch(handlers: ApiHandlers, method: string, args: unknown): Promise<unknown> {
  if (!isInvokedMethod(method)) return Promise.reject(new Error(`window.folio has no method ${method}.`));
  const handler = handlers[method] as (...checked: unknown[]) => Promise<unknown>;
  try {
    return handler(...checkedArguments(method, args));
  } catch (error) {
    return Promise.reject(error);
  }
}
