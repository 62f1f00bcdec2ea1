import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { WorkspaceEvent } from '../../shared/workspace.js';
import { startTestServer, type TestServer } from '../../tools/bench/openai-test-server.js';
import { forkHost } from '../core/engine-client/fork-host.js';
import { MemoryApiKeyStore } from './api-key-store.js';
import { AppService } from './app-service.js';

const root = path.resolve(import.meta.dirname, '../..');
const builtHost = path.join(root, 'dist/electron/engine/host.js');
const twoPages = path.join(root, 'test/fixtures/out/letter.pdf');
const tinyPackage = path.join(root, 'tools/model/fixtures/tiny');
const API_KEY = 'sk-folio-test-7f3a9c';

const folders: string[] = [];
const cleanups: (() => Promise<void>)[] = [];

beforeAll(() => {
  if (!existsSync(builtHost)) throw new Error(`${builtHost} is missing; run "npm run build" before these tests.`);
  if (!existsSync(twoPages)) throw new Error(`${twoPages} is missing; the vitest global setup prints it.`);
});

afterEach(async () => {
  vi.restoreAllMocks();
  await Promise.all(cleanups.splice(0).map((cleanup) => cleanup()));
  await Promise.all(folders.splice(0).map((folder) => rm(folder, { recursive: true, force: true })));
});

async function tempFolder(): Promise<string> {
  const folder = await mkdtemp(path.join(os.tmpdir(), 'folio-app-settings-'));
  folders.push(folder);
  return folder;
}

async function startService(dataDir: string, apiKeys = new MemoryApiKeyStore()): Promise<AppService> {
  const service = await AppService.start({
    dataDir,
    version: '0.0.0-test',
    pageTimeoutMs: 20_000,
    apiKeys,
    // what the host gets is all it gets: no FOLIO_API_KEY from the test runner's own environment
    spawnHost: (env) => forkHost({ modulePath: builtHost, env: { ...withoutKey(process.env), ...env } }),
    probeDevice: async () => ({ device: 'cpu', reason: 'test' }),
  });
  cleanups.push(() => service.close());
  return service;
}

function withoutKey(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const { FOLIO_API_KEY: _dropped, ...rest } = env;
  return rest;
}

async function startServer(): Promise<TestServer> {
  const server = await startTestServer({ apiKey: API_KEY, tokensPerAnswer: 12 });
  cleanups.push(() => server.close());
  return server;
}

/** Converts the document (or its `pages`) and resolves with every event until its convert-done. */
async function convertAll(service: AppService, docId: string, pages?: number[]): Promise<WorkspaceEvent[]> {
  const seen: WorkspaceEvent[] = [];
  const done = new Promise<void>((resolve) => {
    const unsubscribe = service.onWorkspaceEvent((event) => {
      seen.push(event);
      if (event.type !== 'convert-done') return;
      unsubscribe();
      resolve();
    });
  });
  await service.convert({ docId, pages });
  await done;
  return seen;
}

async function filesUnder(folder: string): Promise<string[]> {
  const entries = await readdir(folder, { recursive: true, withFileTypes: true });
  return entries.filter((entry) => entry.isFile()).map((entry) => path.join(entry.parentPath, entry.name));
}

describe('AppService remote settings and API key', () => {
  it('converts through the remote server with the stored key, and the key is in no file, event, setting or log line', async () => {
    const logged: unknown[][] = [];
    for (const method of ['log', 'info', 'warn', 'error'] as const) vi.spyOn(console, method).mockImplementation((...args) => void logged.push(args));
    const server = await startServer();
    const dataDir = await tempFolder();
    const service = await startService(dataDir);
    await service.setSettings({ engine: 'remote', remoteServer: server.url, remoteModel: 'test-ocr', remoteConcurrency: 2 });
    expect(await service.hasApiKey()).toBe(false);
    await service.setApiKey(API_KEY);
    expect(await service.hasApiKey()).toBe(true);

    const [docId] = await service.openDocuments([twoPages]);
    const events = await convertAll(service, docId!);
    const document = (await service.getWorkspace()).documents[0]!;
    expect(document.pages.map((page) => page.state)).toEqual(document.pages.map(() => 'done'));
    expect(document.pages[0]!.engineMarkdown.length).toBeGreaterThan(0);
    expect(server.stats.completed.length).toBe(document.pages.length);
    expect(server.stats.seen.every((request) => request.authorization === `Bearer ${API_KEY}`)).toBe(true);

    await service.close();
    const files = await filesUnder(dataDir);
    expect(files.some((file) => file.endsWith('settings.json'))).toBe(true);
    for (const file of files) expect(await readFile(file, 'utf8'), file).not.toContain(API_KEY);
    expect(JSON.stringify(events)).not.toContain(API_KEY);
    expect(JSON.stringify(await service.getSettings())).not.toContain(API_KEY);
    expect(JSON.stringify(logged)).not.toContain(API_KEY);
  });

  it('restarts the engine host when the key changes, so a forgotten key is no longer sent', async () => {
    const server = await startServer();
    const service = await startService(await tempFolder());
    await service.setSettings({ engine: 'remote', remoteServer: server.url, remoteModel: 'test-ocr' });
    await service.setApiKey(API_KEY);
    const [docId] = await service.openDocuments([twoPages]);
    await convertAll(service, docId!);
    const sentWithKey = server.stats.seen.length;

    await service.setApiKey(null);
    expect(await service.hasApiKey()).toBe(false);
    await convertAll(service, docId!, [1]);
    const later = server.stats.seen.slice(sentWithKey);
    expect(later.length).toBeGreaterThan(0);
    expect(later.every((request) => request.authorization === undefined)).toBe(true);
    const page = (await service.getWorkspace()).documents[0]!.pages[0]!;
    expect(page.state).toBe('failed');
  });

  it('reads the stored key at start, as the app does from its keychain', async () => {
    const keys = new MemoryApiKeyStore();
    await keys.write(API_KEY);
    const service = await startService(await tempFolder(), keys);
    expect(await service.hasApiKey()).toBe(true);
  });
});

describe('AppService model folder', () => {
  it('says why a folder is not a model package and leaves the setting alone', async () => {
    const service = await startService(await tempFolder());
    const empty = await tempFolder();
    const check = await service.useModelFolder(empty);
    expect(check).toEqual({ folder: empty, problem: expect.stringContaining(`${path.join(empty, 'manifest.json')}: no manifest.json here`) });
    expect((await service.getSettings()).modelDir).toBeNull();
  });

  it('uses a folder that holds a model package', async () => {
    const service = await startService(await tempFolder());
    expect(await service.checkModelFolder(tinyPackage)).toEqual({ folder: tinyPackage, problem: null });
    expect((await service.getSettings()).modelDir).toBeNull();
    expect(await service.useModelFolder(tinyPackage)).toEqual({ folder: tinyPackage, problem: null });
    expect((await service.getSettings()).modelDir).toBe(tinyPackage);
  });
});

describe('setSettings', () => {
  it('reads a model folder typed with ~ as the home folder, as a shell does', async () => {
    const service = await startService(await tempFolder());
    expect((await service.setSettings({ modelDir: '~/models/jina' })).modelDir).toBe(path.join(os.homedir(), 'models/jina'));
    expect((await service.getSettings()).modelDir).toBe(path.join(os.homedir(), 'models/jina'));
  });

  it('keeps every one of quick changes made while an earlier one is being written, in the file too', async () => {
    const dataDir = await tempFolder();
    const service = await startService(dataDir);
    // as the settings dialog sends them: one change per control, none awaited before the next
    await Promise.all([service.setSettings({ ocrLang: 'fr' }), service.setSettings({ engine: 'vlm' }), service.setSettings({ pagesInFlight: 'auto' })]);
    expect(await service.getSettings()).toMatchObject({ ocrLang: 'fr', engine: 'vlm', pagesInFlight: 'auto' });
    expect(JSON.parse(await readFile(path.join(dataDir, 'settings.json'), 'utf8'))).toMatchObject({ ocrLang: 'fr', engine: 'vlm', pagesInFlight: 'auto' });
  });
});
