/**
 * Electron main: one secure window, the app protocol, the application menu, and the wiring from IPC
 * and the workspace port to the AppService, whose engine host runs in a utility process. It never
 * runs inference, and holds no behaviour that the browser mode's bridge could not test.
 */

import { statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { app, BrowserWindow, dialog, ipcMain, Menu, MessageChannelMain, safeStorage, shell, type IpcMainEvent } from 'electron';
import { IPC_CHANNELS, type MenuCommand } from '../../shared/app-api.js';
import { APP_ORIGIN, registerAppScheme, serveRenderer } from './app-protocol.js';
import { buildAppMenu } from './app-menu.js';
import { AppService } from './app-service.js';
import { apiHandlers } from './api-dispatch.js';
import { ApiKeyStore } from './api-key-store.js';
import { registerIpcRoutes } from './ipc-routes.js';
import { documentPathsFromArgv } from './launch-paths.js';
import { loadRecent, saveRecent, withRecent } from './recent-documents.js';
import { spawnUtilityHost } from './utility-host.js';
import type { PortRequest } from '../../shared/workspace-port.js';
import { serveWorkspacePort } from './workspace-port.js';

const here = path.dirname(fileURLToPath(import.meta.url));

registerAppScheme();
// the Electron test suite runs each launch against its own data folder
if (process.env.FOLIO_USER_DATA_DIR) app.setPath('userData', process.env.FOLIO_USER_DATA_DIR);

if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  // documents asked for before the window is ready wait here
  const pendingOpens: string[][] = [];
  let openDocuments = (paths: string[]): void => {
    pendingOpens.push(paths);
  };
  app.on('second-instance', (_event, argv, workingDirectory) => {
    focus(BrowserWindow.getAllWindows()[0]);
    const paths = documentPathsFromArgv(argv, workingDirectory, isFile);
    if (paths.length > 0) openDocuments(paths);
  });
  // macOS: a file dropped on the Dock icon or opened from Finder
  app.on('open-file', (event, file) => {
    event.preventDefault();
    openDocuments([file]);
  });
  const launchPaths = documentPathsFromArgv(process.argv, process.cwd(), isFile);
  if (launchPaths.length > 0) openDocuments(launchPaths);
  app.whenReady().then(
    async () => {
      openDocuments = await start();
      for (const paths of pendingOpens.splice(0)) openDocuments(paths);
    },
    (error: unknown) => {
      console.error('Folio could not start:', error);
      app.exit(1);
    },
  );
}

/** Starts the app; returns how to open documents from outside (command line, Dock, Open Recent). */
async function start(): Promise<(paths: string[]) => void> {
  const dataDir = app.getPath('userData');
  // the remote engine's API key stays in the OS keychain and reaches only the engine host's environment
  const service = await AppService.start({
    dataDir,
    version: app.getVersion(),
    apiKeys: new ApiKeyStore(dataDir, safeStorage),
    spawnHost: (env) => spawnUtilityHost(env),
  });
  let recent = await loadRecent(dataDir);

  const remember = (paths: readonly string[]) => {
    for (const file of paths) {
      recent = withRecent(recent, file);
      app.addRecentDocument(file);
    }
    refreshMenu();
    void saveRecent(dataDir, recent).catch((error: unknown) => console.warn(`Folio could not save the recent documents: ${(error as Error).message}`));
  };
  const openAndConvert = (paths: string[]) => {
    remember(paths);
    void service
      .openDocuments(paths)
      .then((ids) => Promise.all(ids.map((docId) => service.convert({ docId }))))
      .catch((error: unknown) => console.error(`Folio could not open ${paths.join(', ')}: ${(error as Error).message}`));
  };
  const sendCommand = (command: MenuCommand) => BrowserWindow.getAllWindows()[0]?.webContents.send(IPC_CHANNELS.menuCommand, command);
  const refreshMenu = () =>
    Menu.setApplicationMenu(
      buildAppMenu(recent, {
        command: sendCommand,
        openRecent: (file) => openAndConvert([file]),
        clearRecent: () => {
          recent = [];
          app.clearRecentDocuments();
          refreshMenu();
          void saveRecent(dataDir, recent);
        },
      }),
    );

  serveRenderer(path.join(here, '../../renderer'));
  const isTrusted = (url: string) => url.startsWith(`${APP_ORIGIN}/`);
  registerIpcRoutes(
    apiHandlers(service, {
      chooseExportFolder: () => chooseFolder('Export to folder', true),
      // beside the document, as the command line writes next to where it is told
      defaultExportFolder: async (docId) => {
        const document = (await service.getWorkspace()).documents.find((candidate) => candidate.id === docId);
        return document ? path.dirname(document.path) : null;
      },
      pickModelFolder: () => chooseFolder('Model package folder', false),
      showInFolder: async (file) => {
        shell.showItemInFolder(file);
        return true;
      },
      // documents the renderer opens (drop, dialog) join Open Recent too
      documentsOpened: remember,
    }),
    isTrusted,
  );
  // each page load asks for its own port; the previous page's port closes with it
  ipcMain.on(IPC_CHANNELS.workspacePort, (event: IpcMainEvent) => {
    if (!isTrusted(event.senderFrame?.url ?? '')) return;
    const { port1, port2 } = new MessageChannelMain();
    const unsubscribe = serveWorkspacePort(
      {
        post: (message) => port1.postMessage(message),
        onRequest: (listener) => port1.on('message', (message) => listener(message.data as PortRequest)),
      },
      service,
    );
    port1.on('close', unsubscribe);
    event.sender.once('destroyed', () => {
      unsubscribe();
      port1.close();
    });
    port1.start();
    event.sender.postMessage(IPC_CHANNELS.workspacePort, null, [port2]);
  });
  app.on('web-contents-created', (_event, contents) => {
    contents.on('will-navigate', (navigation) => navigation.preventDefault());
    contents.setWindowOpenHandler(() => ({ action: 'deny' }));
    contents.on('will-attach-webview', (attach) => attach.preventDefault());
  });
  let closed = false;
  app.on('before-quit', (event) => {
    if (closed) return;
    // edits are already on disk; this lets a running page stop and the engine host end cleanly
    event.preventDefault();
    closed = true;
    void service.close().finally(() => app.quit());
  });
  app.on('window-all-closed', () => app.quit());

  refreshMenu();
  createWindow();
  return openAndConvert;
}

function createWindow(): BrowserWindow {
  const window = new BrowserWindow({
    width: 1400,
    height: 900,
    // the narrowest layout (stacked panes, e2e/app-layout.spec.ts) holds from here
    minWidth: 640,
    minHeight: 480,
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

/** A native folder dialog over the window; `null` when the user cancels. */
async function chooseFolder(title: string, create: boolean): Promise<string | null> {
  const window = BrowserWindow.getFocusedWindow() ?? BrowserWindow.getAllWindows()[0];
  const properties: ('openDirectory' | 'createDirectory')[] = create ? ['openDirectory', 'createDirectory'] : ['openDirectory'];
  const result = window ? await dialog.showOpenDialog(window, { title, properties }) : await dialog.showOpenDialog({ title, properties });
  return result.canceled ? null : (result.filePaths[0] ?? null);
}

function focus(window: BrowserWindow | undefined): void {
  if (!window) return;
  if (window.isMinimized()) window.restore();
  window.focus();
}

function isFile(file: string): boolean {
  return statSync(file, { throwIfNoEntry: false })?.isFile() ?? false;
}
