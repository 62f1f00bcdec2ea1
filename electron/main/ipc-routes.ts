/**
 * One IPC handler per FolioApi call, each refusing senders other than our own pages. Handlers only
 * forward: checking and behaviour live in the Electron-free dispatch and app service.
 */

import { ipcMain, type IpcMainInvokeEvent } from 'electron';
import { IPC_CHANNELS } from '../../shared/app-api.js';
import { dispatch, type ApiHandlers } from './api-dispatch.js';

export function registerIpcRoutes(handlers: ApiHandlers, isTrusted: (url: string) => boolean): void {
  for (const method of Object.keys(handlers) as (keyof ApiHandlers)[]) {
    ipcMain.handle(IPC_CHANNELS[method], (event: IpcMainInvokeEvent, ...args: unknown[]) => {
      const url = event.senderFrame?.url ?? '';
      if (!isTrusted(url)) throw new Error(`IPC from an untrusted page refused: ${url}`);
      return dispatch(handlers, method, args);
    });
  }
}
