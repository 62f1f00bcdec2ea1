/**
 * Electron main, run in Node against a stand-in for the `electron` module (the real binary cannot be
 * downloaded here): the wiring from IPC, the workspace port, the menu and the app protocol to the
 * app service, with a real engine host forked where Electron would start a utility process.
 */
import type { ChildProcess } from 'node:child_process';
import { EventEmitter } from 'node:events';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { MessagePort } from 'node:worker_threads';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { IPC_CHANNELS, type ExportOutcome } from '../../shared/app-api.js';
import type { Workspace } from '../../shared/workspace.js';
import type { PortMessage } from '../../shared/workspace-port.js';

const root = path.resolve(import.meta.dirname, '../..');
const builtHost = path.join(root, 'dist/electron/engine/host.js');
const fixture = path.join(root, 'test/fixtures/out/running-headers.pdf');
const TRUSTED = { senderFrame: { url: 'folio://app/index.html' } };

interface MenuTemplateItem {
  label?: string;
  accelerator?: string;
  click?: () => void;
  submenu?: MenuTemplateItem[];
}

const fake = vi.hoisted(() => ({
  userData: '',
  loadedUrl: '',
  handlers: new Map<string, (event: unknown, ...args: unknown[]) => unknown>(),
  listeners: new Map<string, (event: unknown) => void>(),
  sent: [] as unknown[][],
  recent: [] as string[],
  menu: [] as unknown[],
  protocolHandler: undefined as ((request: Request) => Promise<Response>) | undefined,
  hosts: [] as ChildProcess[],
  quit: 0,
  shownInFolder: [] as string[],
}));

vi.mock('electron', async () => {
  const { EventEmitter: Emitter } = await import('node:events');
  const { MessageChannel: Channel } = await import('node:worker_threads');
  const { readFile: read } = await import('node:fs/promises');
  const { fileURLToPath: toPath } = await import('node:url');
  const { fork: forkProcess } = await import('node:child_process');
  const hostPath = (await import('node:path')).join(import.meta.dirname, '../../dist/electron/engine/host.js');

  const app = Object.assign(new Emitter(), {
    requestSingleInstanceLock: () => true,
    whenReady: () => Promise.resolve(),
    getPath: () => fake.userData,
    setPath: () => undefined,
    getVersion: () => '9.9.9-test',
    addRecentDocument: (file: string) => fake.recent.push(file),
    clearRecentDocuments: () => undefined,
    quit: () => {
      fake.quit++;
    },
    exit: () => undefined,
  });
  const webContents = Object.assign(new Emitter(), {
    send: (...args: unknown[]) => fake.sent.push(args),
    postMessage: () => undefined,
  });
  class BrowserWindow extends Emitter {
    static windows: BrowserWindow[] = [];
    static getAllWindows = () => BrowserWindow.windows;
    static getFocusedWindow = () => BrowserWindow.windows[0];
    webContents = webContents;
    constructor() {
      super();
      BrowserWindow.windows.push(this);
    }
    loadURL(url: string) {
      fake.loadedUrl = url;
      return Promise.resolve();
    }
    show() {}
    focus() {}
    restore() {}
    isMinimized() {
      return false;
    }
  }
  class MessageChannelMain {
    port1;
    port2;
    constructor() {
      const channel = new Channel();
      const port = channel.port1;
      this.port1 = {
        on: (event: string, listener: (message: { data: unknown }) => void) => {
          if (event === 'message') port.on('message', (data: unknown) => listener({ data }));
          else port.on(event, listener as () => void);
        },
        postMessage: (message: unknown) => port.postMessage(message),
        start: () => undefined,
        close: () => port.close(),
      };
      this.port2 = channel.port2;
    }
  }
  return {
    app,
    BrowserWindow,
    MessageChannelMain,
    ipcMain: {
      handle: (channel: string, handler: (event: unknown, ...args: unknown[]) => unknown) => fake.handlers.set(channel, handler),
      on: (channel: string, listener: (event: unknown) => void) => fake.listeners.set(channel, listener),
    },
    Menu: {
      buildFromTemplate: (template: unknown[]) => template,
      setApplicationMenu: (menu: unknown[]) => {
        fake.menu = menu;
      },
    },
    dialog: { showOpenDialog: async () => ({ canceled: false, filePaths: ['/chosen/folder'] }) },
    shell: { showItemInFolder: (file: string) => fake.shownInFolder.push(file) },
    protocol: {
      registerSchemesAsPrivileged: () => undefined,
      handle: (_scheme: string, handler: (request: Request) => Promise<Response>) => {
        fake.protocolHandler = handler;
      },
    },
    net: {
      fetch: async (url: string) => {
        const body = await read(toPath(url)).catch(() => undefined);
        return body ? new Response(body, { headers: { 'content-type': 'text/html' } }) : new Response('missing', { status: 404 });
      },
    },
    safeStorage: { isEncryptionAvailable: () => false, encryptString: () => Buffer.alloc(0), decryptString: () => '' },
    utilityProcess: {
      // Electron's utility process, played by a Node child running the built host
      fork: () => {
        const child = forkProcess(hostPath, [], { stdio: ['ignore', 'ignore', 'pipe', 'ipc'], serialization: 'advanced' });
        fake.hosts.push(child);
        return Object.assign(new Emitter(), {
          stderr: child.stderr,
          on(event: string, listener: (...args: unknown[]) => void) {
            child.on(event, listener);
            return this;
          },
          once(event: string, listener: (code: number) => void) {
            child.once(event, (code: number | null) => listener(code ?? 1));
            return this;
          },
          postMessage: (message: unknown) => child.send(message as object),
          kill: () => child.kill('SIGKILL'),
        });
      },
    },
  };
});

/** As ipcMain.handle does: whatever the handler throws reaches the page as a rejection. */
async function invokeAs(event: unknown, channel: string, ...args: unknown[]): Promise<unknown> {
  return fake.handlers.get(channel)!(event, ...args);
}

const invoke = (channel: string, ...args: unknown[]) => invokeAs(TRUSTED, channel, ...args);

async function workspaceWhen(done: (workspace: Workspace) => boolean): Promise<Workspace> {
  for (;;) {
    const workspace = (await invoke(IPC_CHANNELS.getWorkspace)) as Workspace;
    if (done(workspace)) return workspace;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

function menuItem(label: string): MenuTemplateItem {
  const item = (fake.menu as MenuTemplateItem[]).flatMap((menu) => menu.submenu ?? []).find((candidate) => candidate.label === label);
  if (!item) throw new Error(`no menu item ${label}`);
  return item;
}

describe('Electron main', () => {
  const argv = process.argv;
  beforeAll(async () => {
    if (!existsSync(builtHost)) throw new Error(`${builtHost} is missing; run "npm run build" before this test.`);
    fake.userData = await mkdtemp(path.join(os.tmpdir(), 'folio-main-'));
    // as `folio-app running-headers.pdf` would start it
    process.argv = ['/opt/Folio/folio-app', fixture];
    await import('./main.js');
    process.argv = argv;
    while (!fake.loadedUrl) await new Promise((resolve) => setTimeout(resolve, 20));
  });

  afterAll(async () => {
    for (const host of fake.hosts) host.kill('SIGKILL');
    await rm(fake.userData, { recursive: true, force: true });
  });

  it('loads the renderer from the app protocol and converts a document named on the command line in the engine host', async () => {
    expect(fake.loadedUrl).toBe('folio://app/index.html');
    const workspace = await workspaceWhen((current) => current.documents[0]?.pages.length === 4 && current.documents[0].pages.every((page) => page.state === 'done'));
    expect(workspace.documents[0]!.path).toBe(fixture);
    expect(fake.recent).toEqual([fixture]);
    expect(fake.hosts.length).toBeGreaterThan(0);
  });

  it('answers every FolioApi call over IPC, refusing other pages and malformed arguments', async () => {
    const invokable = Object.entries(IPC_CHANNELS)
      .filter(([key]) => key !== 'workspacePort' && key !== 'menuCommand')
      .map(([, channel]) => channel);
    expect([...fake.handlers.keys()].sort()).toEqual(invokable.sort());
    await expect(invokeAs({ senderFrame: { url: 'https://evil.example/' } }, IPC_CHANNELS.getSettings)).rejects.toThrow(
      /untrusted page refused: https:\/\/evil\.example\//,
    );
    await expect(invoke(IPC_CHANNELS.setEdit, 'doc', 'one', 'text')).rejects.toThrow(/window\.folio\.setEdit was called with arguments/);
    expect(await invoke(IPC_CHANNELS.chooseExportFolder)).toBe('/chosen/folder');
    // the file manager is opened only at what an export of this session wrote
    expect(await invoke(IPC_CHANNELS.showInFolder, '/etc/passwd')).toBe(false);
    expect(fake.shownInFolder).toEqual([]);
    const [document] = (await workspaceWhen((current) => current.documents[0]?.pages.every((page) => page.state === 'done') === true)).documents;
    const exported = (await invoke(IPC_CHANNELS.exportDocument, { docId: document!.id, formats: ['md'], pageMarkers: true, assets: false, folder: fake.userData, overwrite: true })) as ExportOutcome;
    expect(exported.kind).toBe('written');
    const [file] = exported.kind === 'written' ? exported.files : [];
    expect(await invoke(IPC_CHANNELS.showInFolder, file)).toBe(true);
    expect(fake.shownInFolder).toEqual([file]);
  });

  it('streams workspace events and snapshots to the page on its MessagePort', async () => {
    const sender = Object.assign(new EventEmitter(), {
      port: undefined as MessagePort | undefined,
      postMessage(_channel: string, _message: unknown, ports: MessagePort[]) {
        this.port = ports[0];
      },
    });
    fake.listeners.get(IPC_CHANNELS.workspacePort)!({ ...TRUSTED, sender });
    const port = sender.port!;
    const messages: PortMessage[] = [];
    port.on('message', (message: PortMessage) => messages.push(message));
    const docId = ((await invoke(IPC_CHANNELS.getWorkspace)) as Workspace).documents[0]!.id;
    await invoke(IPC_CHANNELS.setReviewed, docId, 2, true);
    port.postMessage({ type: 'get-workspace', id: 5 });
    while (!messages.some((message) => message.type === 'workspace')) await new Promise((resolve) => setTimeout(resolve, 20));
    const reviewed = messages.findIndex((message) => message.type === 'event' && message.event.type === 'page-reviewed');
    const snapshot = messages.findIndex((message) => message.type === 'workspace');
    expect(messages[reviewed]).toEqual({ type: 'event', event: { type: 'page-reviewed', docId, page: 2, reviewed: true } });
    expect(messages[snapshot]).toMatchObject({ type: 'workspace', id: 5 });
    expect(reviewed).toBeLessThan(snapshot);
    port.close();
  });

  it('keeps no API key when the system has no keychain to encrypt it with, and says what to do', async () => {
    await expect(invoke(IPC_CHANNELS.setApiKey, 'sk-main-test')).rejects.toThrow(/no keychain.*GNOME Keyring/);
    expect(await invoke(IPC_CHANNELS.hasApiKey)).toBe(false);
  });

  it('checks the model folder the native dialog returns and keeps the setting when it is no package', async () => {
    const before = ((await invoke(IPC_CHANNELS.getSettings)) as { modelDir: string | null }).modelDir;
    expect(await invoke(IPC_CHANNELS.chooseModelFolder)).toEqual({ folder: '/chosen/folder', problem: expect.stringMatching(/no manifest\.json here/) });
    expect(((await invoke(IPC_CHANNELS.getSettings)) as { modelDir: string | null }).modelDir).toBe(before);
  });

  it('builds the menu from the shared shortcuts and sends its commands to the page', () => {
    expect(menuItem('Open…').accelerator).toBe('CmdOrCtrl+O');
    expect(menuItem('Redo').accelerator).toBe('CmdOrCtrl+Shift+Z');
    menuItem('Export…').click!();
    expect(fake.sent.at(-1)).toEqual([IPC_CHANNELS.menuCommand, 'export']);
    expect(menuItem('Open Recent').submenu!.map((item) => item.label)).toContain('running-headers.pdf');
  });

  it('serves the renderer with the CSP and nothing outside its folder', async () => {
    const index = await fake.protocolHandler!(new Request('folio://app/index.html'));
    expect(index.status).toBe(200);
    expect(index.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(await index.text()).toBe(await readFile(path.join(root, 'renderer/index.html'), 'utf8'));
    expect((await fake.protocolHandler!(new Request('folio://app/%2e%2e%2fpackage.json'))).status).toBe(404);
    expect((await fake.protocolHandler!(new Request('folio://elsewhere/index.html'))).status).toBe(404);
  });

  it('quits only after the app service has closed: the engine host ends and the workspace is saved', async () => {
    let prevented = 0;
    fake.quit = 0;
    const app = (await import('electron')).app as unknown as EventEmitter;
    app.emit('before-quit', { preventDefault: () => prevented++ });
    expect(prevented).toBe(1);
    while (fake.quit === 0) await new Promise((resolve) => setTimeout(resolve, 20));
    // killed by the service, or already gone
    expect(fake.hosts.every((host) => host.killed || host.exitCode !== null || host.signalCode !== null)).toBe(true);
    const saved = JSON.parse(await readFile(path.join(fake.userData, 'workspace.json'), 'utf8')) as { documents: string[] };
    expect(saved.documents).toHaveLength(1);
  });
});
