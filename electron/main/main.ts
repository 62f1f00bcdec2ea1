/**
 * Electron main: one secure window, the app protocol, and the IPC handlers. It never runs
 * inference: conversions run in the engine host (see DESIGN.md).
 */

import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { app, BrowserWindow, ipcMain, type IpcMainInvokeEvent } from 'electron';
import { IPC_CHANNELS, type AppInfo } from '../../shared/app-api.js';
import { chooseExecutionProvider } from '../engine/onnx/execution-provider.js';
import { APP_ORIGIN, registerAppScheme, serveRenderer } from './app-protocol.js';

const here = path.dirname(fileURLToPath(import.meta.url));

registerAppScheme();

if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  app.on('second-instance', () => focus(BrowserWindow.getAllWindows()[0]));
  app.whenReady().then(start, (error: unknown) => {
    console.error('Folio could not start:', error);
    app.exit(1);
  });
  app.on('window-all-closed', () => app.quit());
}

function start(): void {
  serveRenderer(path.join(here, '../../renderer'));
  ipcMain.handle(IPC_CHANNELS.appInfo, (event) => {
    assertTrustedSender(event);
    return appInfo();
  });
  app.on('web-contents-created', (_event, contents) => {
    contents.on('will-navigate', (navigation) => navigation.preventDefault());
    contents.setWindowOpenHandler(() => ({ action: 'deny' }));
  });
  createWindow();
}

function createWindow(): BrowserWindow {
  const window = new BrowserWindow({
    width: 1400,
    height: 900,
    title: 'Folio',
    show: false,
    webPreferences: {
      preload: path.join(here, '../preload/preload.cjs'),
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webSecurity: true,
    },
  });
  window.once('ready-to-show', () => window.show());
  void window.loadURL(`${APP_ORIGIN}/index.html`);
  return window;
}

function focus(window: BrowserWindow | undefined): void {
  if (!window) return;
  if (window.isMinimized()) window.restore();
  window.focus();
}

/** Only our own pages may call into main. */
function assertTrustedSender(event: IpcMainInvokeEvent): void {
  const url = event.senderFrame?.url ?? '';
  if (!url.startsWith(`${APP_ORIGIN}/`)) throw new Error(`IPC from an untrusted page refused: ${url}`);
}

async function appInfo(): Promise<AppInfo> {
  const choice = await chooseExecutionProvider();
  return { version: app.getVersion(), device: choice.device, deviceReason: choice.reason };
}
