/**
 * One IPC handler per FolioApi method, each refusing senders other than our own pages. Handlers
 * only forward: the behaviour lives in the Electron-free AppService.
 */

import { ipcMain, type IpcMainInvokeEvent } from 'electron';
import { IPC_CHANNELS, type FolioApi } from '../../shared/app-api.js';
import type { AppServiceApi } from './app-service.js';

/** What only the shell can do. */
export interface ShellApi extends Pick<FolioApi, 'chooseExportFolder'> {
  /** Told of documents the renderer opens, for Open Recent. */
  documentsOpened(paths: readonly string[]): void;
}

type InvokeMethod = Exclude<keyof AppServiceApi, 'onWorkspaceEvent'> | 'chooseExportFolder';

export function registerIpcRoutes(service: AppServiceApi, shell: ShellApi, isTrusted: (url: string) => boolean): void {
  const route = <M extends InvokeMethod>(method: M, handler: (...args: never[]) => Promise<unknown>) => {
    ipcMain.handle(IPC_CHANNELS[method], (event: IpcMainInvokeEvent, ...args: unknown[]) => {
      const url = event.senderFrame?.url ?? '';
      if (!isTrusted(url)) throw new Error(`IPC from an untrusted page refused: ${url}`);
      return (handler as (...args: unknown[]) => Promise<unknown>)(...args);
    });
  };
  route('appInfo', () => service.appInfo());
  route('getWorkspace', () => service.getWorkspace());
  route('openDocuments', async (paths: string[]) => {
    const ids = await service.openDocuments(paths);
    shell.documentsOpened(paths);
    return ids;
  });
  route('removeDocument', (docId: string) => service.removeDocument(docId));
  route('readDocument', (docId: string) => service.readDocument(docId));
  route('convert', (request: Parameters<AppServiceApi['convert']>[0]) => service.convert(request));
  route('cancel', (docId: string) => service.cancel(docId));
  route('setEdit', (docId: string, page: number, markdown: string | null) => service.setEdit(docId, page, markdown));
  route('setReviewed', (docId: string, page: number, reviewed: boolean) => service.setReviewed(docId, page, reviewed));
  route('getSettings', () => service.getSettings());
  route('setSettings', (patch: Parameters<AppServiceApi['setSettings']>[0]) => service.setSettings(patch));
  route('exportDocument', (request: Parameters<AppServiceApi['exportDocument']>[0]) => service.exportDocument(request));
  route('chooseExportFolder', () => shell.chooseExportFolder());
}
