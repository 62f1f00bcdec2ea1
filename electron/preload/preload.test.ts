import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import { IPC_CHANNELS, type FolioApi, type MenuCommand } from '../../shared/app-api.js';
import type { Workspace, WorkspaceEvent } from '../../shared/workspace.js';
import type { PortMessage, PortRequest } from '../../shared/workspace-port.js';
import type { PreloadApi } from './preload.cjs';

const builtPreload = path.resolve(import.meta.dirname, '../../dist/electron/preload/preload.cjs');

// Type level: the object the preload exposes is FolioApi, no more and no less.
expectTypeOf<PreloadApi>().toEqualTypeOf<FolioApi>();

interface FakeElectron {
  invoked: { channel: string; args: unknown[] }[];
  sent: string[];
  once: Map<string, (event: { ports: MessagePort[] }) => void>;
  on: Map<string, (event: unknown, ...args: unknown[]) => void>;
  exposed: Map<string, unknown>;
}

/** Runs the built preload as Electron's sandbox does: a CommonJS body whose `require('electron')` gets our fake. */
function loadPreload(): { api: FolioApi; electron: FakeElectron } {
  const electron: FakeElectron = { invoked: [], sent: [], once: new Map(), on: new Map(), exposed: new Map() };
  const fake = {
    ipcRenderer: {
      invoke: async (channel: string, ...args: unknown[]) => {
        electron.invoked.push({ channel, args });
        return `answer from ${channel}`;
      },
      send: (channel: string) => electron.sent.push(channel),
      once: (channel: string, listener: (event: { ports: MessagePort[] }) => void) => electron.once.set(channel, listener),
      on: (channel: string, listener: (event: unknown, ...args: unknown[]) => void) => electron.on.set(channel, listener),
    },
    webUtils: { getPathForFile: (file: { name: string }) => `/home/user/${file.name}` },
    contextBridge: { exposeInMainWorld: (key: string, value: unknown) => electron.exposed.set(key, value) },
  };
  const require = (name: string) => {
    if (name !== 'electron') throw new Error(`a sandboxed preload cannot require ${name}`);
    return fake;
  };
  const module = { exports: {} };
  new Function('require', 'module', 'exports', readFileSync(builtPreload, 'utf8'))(require, module, module.exports);
  return { api: electron.exposed.get('folio') as FolioApi, electron };
}

const nextMessage = (port: MessagePort) => new Promise<PortRequest>((resolve) => (port.onmessage = (message) => resolve(message.data as PortRequest)));

describe('the preload', () => {
  beforeAll(() => {
    if (!existsSync(builtPreload)) throw new Error(`${builtPreload} is missing; run "npm run build" before this test.`);
  });

  it('exposes one method per FolioApi member as window.folio and nothing else', () => {
    const { api, electron } = loadPreload();
    expect([...electron.exposed.keys()]).toEqual(['folio']);
    const invokable = Object.keys(IPC_CHANNELS).filter((key) => key !== 'workspacePort' && key !== 'menuCommand');
    expect(Object.keys(api).sort()).toEqual([...invokable, 'pathForFile', 'onWorkspaceEvent', 'onMenuCommand'].sort());
    expect(Object.values(api).every((member) => typeof member === 'function')).toBe(true);
  });

  it('sends each call on its channel from shared/app-api.ts with its arguments', async () => {
    const { api, electron } = loadPreload();
    await api.setEdit('doc', 3, '# text');
    await api.convert({ docId: 'doc', pages: [2], engine: 'text' });
    await api.chooseExportFolder();
    expect(electron.invoked).toEqual([
      { channel: IPC_CHANNELS.setEdit, args: ['doc', 3, '# text'] },
      { channel: IPC_CHANNELS.convert, args: [{ docId: 'doc', pages: [2], engine: 'text' }] },
      { channel: IPC_CHANNELS.chooseExportFolder, args: [] },
    ]);
  });

  it('resolves dropped files to paths with webUtils', async () => {
    const { api } = loadPreload();
    const file = Object.assign(new Blob(['%PDF']), { name: 'report.pdf' });
    expect(await api.pathForFile(file)).toBe('/home/user/report.pdf');
  });

  it('turns the workspace port into events, drops those a snapshot already holds, and unsubscribes', async () => {
    const { api, electron } = loadPreload();
    expect(electron.sent).toEqual([IPC_CHANNELS.workspacePort]);
    const channel = new MessageChannel();
    electron.once.get(IPC_CHANNELS.workspacePort)!({ ports: [channel.port2] });
    const main = channel.port1;
    const received: WorkspaceEvent[] = [];
    const unsubscribe = api.onWorkspaceEvent((event) => received.push(event));

    const asked = nextMessage(main);
    const snapshot = api.getWorkspace();
    const request = await asked;
    const before: WorkspaceEvent = { type: 'page-delta', docId: 'doc', page: 1, text: 'in the snapshot' };
    const after: WorkspaceEvent = { type: 'page-delta', docId: 'doc', page: 1, text: ' after it' };
    const workspace: Workspace = { documents: [] };
    for (const message of [
      { type: 'event', event: before },
      { type: 'workspace', id: request.id, workspace },
      { type: 'event', event: after },
    ] satisfies PortMessage[]) {
      main.postMessage(message);
    }
    expect(await snapshot).toEqual(workspace);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(received).toEqual([after]);

    unsubscribe();
    main.postMessage({ type: 'event', event: after } satisfies PortMessage);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(received).toEqual([after]);
    main.close();
  });

  it('delivers menu commands until unsubscribed', () => {
    const { api, electron } = loadPreload();
    const commands: MenuCommand[] = [];
    const unsubscribe = api.onMenuCommand((command) => commands.push(command));
    const deliver = electron.on.get(IPC_CHANNELS.menuCommand)!;
    deliver({}, 'export');
    unsubscribe();
    deliver({}, 'open');
    expect(commands).toEqual(['export']);
  });
});
