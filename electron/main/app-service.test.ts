import { existsSync } from 'node:fs';
import { copyFile, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { WorkspaceEvent } from '../../shared/workspace.js';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { aes256Pdf, encryptedPdf } from '../../test/encrypted-pdf.js';
import { writeFileAtomic } from '../core/output/atomic-write.js';
import { forkHost } from '../core/engine-client/fork-host.js';
import type { HostProcess } from '../core/engine-client/host-process.js';
import { AppService } from './app-service.js';
import { readSavedWorkspace } from '../core/workspace-store.js';

const root = path.resolve(import.meta.dirname, '../..');
const builtHost = path.join(root, 'dist/electron/engine/host.js');
const faultyHost = path.join(root, 'test/fake-hosts/faulty-host.mjs');
/** Four pages, each with running headers and body text. */
const fourPages = path.join(root, 'test/fixtures/out/running-headers.pdf');
const twoPages = path.join(root, 'test/fixtures/out/report.pdf');

const folders: string[] = [];
const services: AppService[] = [];

beforeAll(() => {
  if (!existsSync(builtHost)) throw new Error(`${builtHost} is missing; run "npm run build" before these tests.`);
  if (!existsSync(fourPages)) throw new Error(`${fourPages} is missing; the vitest global setup prints it.`);
});

afterEach(async () => {
  await Promise.all(services.splice(0).map((service) => service.close()));
  await Promise.all(folders.splice(0).map((folder) => rm(folder, { recursive: true, force: true })));
});

async function tempFolder(): Promise<string> {
  const folder = await mkdtemp(path.join(os.tmpdir(), 'folio-app-service-'));
  folders.push(folder);
  return folder;
}

async function startService(dataDir: string, hostModule = builtHost, env: Record<string, string> = {}, pageTimeoutMs = 20_000): Promise<AppService> {
  const service = await AppService.start({
    dataDir,
    version: '0.0.0-test',
    pageTimeoutMs,
    spawnHost: () => forkHost({ modulePath: hostModule, env: { ...process.env, ...env } }),
    probeDevice: async () => ({ device: 'cpu', reason: 'test' }),
  });
  services.push(service);
  return service;
}

/** Resolves with the first event that matches, recording every event seen until then. */
function nextEvent(service: AppService, matches: (event: WorkspaceEvent) => boolean, seen: WorkspaceEvent[] = []): Promise<WorkspaceEvent> {
  return new Promise((resolve) => {
    const unsubscribe = service.onWorkspaceEvent((event) => {
      seen.push(event);
      if (!matches(event)) return;
      unsubscribe();
      resolve(event);
    });
  });
}

const convertDone = (event: WorkspaceEvent) => event.type === 'convert-done';

describe('AppService', () => {
  it('opens a PDF, converts every page through a real engine host, streaming deltas, and keeps the results', async () => {
    const service = await startService(await tempFolder());
    const [docId] = await service.openDocuments([fourPages]);
    const opened = (await service.getWorkspace()).documents[0]!;
    expect(opened.id).toBe(docId);
    expect(opened.info?.pageCount).toBe(4);
    expect(opened.pages.map((page) => page.state)).toEqual(['pending', 'pending', 'pending', 'pending']);

    const seen: WorkspaceEvent[] = [];
    const done = nextEvent(service, convertDone, seen);
    await service.convert({ docId: docId! });
    expect(await done).toEqual({ type: 'convert-done', docId, cancelled: false });

    const document = (await service.getWorkspace()).documents[0]!;
    expect(document.failure).toBeUndefined();
    expect(document.converting).toBe(false);
    expect(document.pages.map((page) => page.state)).toEqual(['done', 'done', 'done', 'done']);
    expect(document.pages.every((page) => page.engineMarkdown.trim().length > 0)).toBe(true);
    expect(seen.filter((event) => event.type === 'page-delta').length).toBeGreaterThan(0);
    expect(seen.map((event) => event.type).filter((type) => type === 'page-done')).toHaveLength(4);
  });

  it('keeps edits, review marks and engine output across a restart', async () => {
    const dataDir = await tempFolder();
    const first = await startService(dataDir);
    const [docId] = await first.openDocuments([fourPages]);
    const done = nextEvent(first, convertDone);
    await first.convert({ docId: docId!, pages: [1, 2] });
    await done;
    await first.setEdit(docId!, 2, '# My own second page\n');
    await first.setReviewed(docId!, 1, true);
    const engineMarkdown = (await first.getWorkspace()).documents[0]!.pages[0]!.engineMarkdown;
    await first.close();

    const second = await startService(dataDir);
    const document = (await second.getWorkspace()).documents[0]!;
    expect(document.id).toBe(docId);
    expect(document.pages.map((page) => page.state)).toEqual(['done', 'done', 'pending', 'pending']);
    expect(document.pages[0]).toMatchObject({ reviewed: true, engineMarkdown });
    expect(document.pages[1]!.editedMarkdown).toBe('# My own second page\n');
  });

  it('cancels a running conversion, leaves unfinished pages resumable, and resumes only those', async () => {
    // page 2 hangs the first host only, so the conversion is surely running when it is cancelled (text pages take milliseconds)
    const folder = await tempFolder();
    const service = await startService(folder, faultyHost, { FOLIO_FAKE_HANG_PAGE: '2', FOLIO_FAKE_HANG_ONCE: path.join(folder, 'hung-once') }, 120_000);
    const [docId] = await service.openDocuments([fourPages]);
    const firstPageDone = nextEvent(service, (event) => event.type === 'page-done');
    const cancelled = nextEvent(service, convertDone);
    await service.convert({ docId: docId! });
    await firstPageDone;
    await service.cancel(docId!);
    expect(await cancelled).toEqual({ type: 'convert-done', docId, cancelled: true });
    const afterCancel = (await service.getWorkspace()).documents[0]!;
    expect(afterCancel.converting).toBe(false);
    expect(afterCancel.pages.map((page) => page.state)).toEqual(['done', 'pending', 'pending', 'pending']);

    const started: number[] = [];
    const resumed = nextEvent(service, (event) => {
      if (event.type === 'page-started') started.push(event.page);
      return convertDone(event);
    });
    await service.convert({ docId: docId! });
    await resumed;
    expect(started).toEqual([2, 3, 4]);
    expect((await service.getWorkspace()).documents[0]!.pages.every((page) => page.state === 'done')).toBe(true);
  });

  it('fails only the page whose engine host crashed; the others convert in a fresh host', async () => {
    const service = await startService(await tempFolder(), faultyHost, { FOLIO_FAKE_CRASH_PAGE: '2' });
    const [docId] = await service.openDocuments([fourPages]);
    const done = nextEvent(service, convertDone);
    await service.convert({ docId: docId! });
    await done;
    const pages = (await service.getWorkspace()).documents[0]!.pages;
    expect(pages.map((page) => page.state)).toEqual(['done', 'failed', 'done', 'done']);
    expect(pages[1]!.failure?.code).toBe('engine-crashed');
  });

  it('opens a document while another converts, and converts documents one after the other', async () => {
    // page 2 of the first document hangs its host (until the page time limit), so the first conversion is surely still running
    const service = await startService(await tempFolder(), faultyHost, { FOLIO_FAKE_HANG_PAGE: '2' }, 8000);
    const [first] = await service.openDocuments([fourPages]);
    const hung = nextEvent(service, (event) => event.type === 'page-done' && event.result.page === 1);
    await service.convert({ docId: first! });
    await hung;
    const [secondId] = await service.openDocuments([twoPages]);
    let workspace = await service.getWorkspace();
    expect(workspace.documents.find((document) => document.id === secondId)?.info?.pageCount).toBe(2);
    expect(workspace.documents.find((document) => document.id === first)?.converting).toBe(true);

    const order: string[] = [];
    const bothDone = nextEvent(service, (event) => {
      if (event.type === 'page-started' || event.type === 'convert-done') order.push(`${event.docId === first ? 'first' : 'second'} ${event.type}`);
      return event.type === 'convert-done' && event.docId === secondId;
    });
    await service.convert({ docId: secondId!, pages: [1] });
    workspace = await service.getWorkspace();
    expect(workspace.documents.find((document) => document.id === secondId)?.pages[0]?.state).toBe('queued');
    await service.cancel(first!);
    await bothDone;
    expect(order).toEqual(['first convert-done', 'second page-started', 'second convert-done']);
  });

  it('closes at once while a page hangs: the conversion ends cancelled, not after the page time limit', async () => {
    // a page time limit past the test's own: a close that waited for it would time the test out
    const service = await startService(await tempFolder(), faultyHost, { FOLIO_FAKE_HANG_PAGE: '2' }, 120_000);
    const [docId] = await service.openDocuments([fourPages]);
    const firstDone = nextEvent(service, (event) => event.type === 'page-done');
    const ended = nextEvent(service, convertDone);
    await service.convert({ docId: docId! });
    await firstDone;
    await service.close();
    expect(await ended).toEqual({ type: 'convert-done', docId, cancelled: true });
    expect((await service.getWorkspace()).documents[0]!.pages.map((page) => page.state)).toEqual(['done', 'pending', 'pending', 'pending']);
  });

  it('cancels a page stuck in the engine at once, not after the page time limit, and converts again afterwards', async () => {
    const service = await startService(await tempFolder(), faultyHost, { FOLIO_FAKE_HANG_PAGE: '2' }, 120_000);
    const [docId] = await service.openDocuments([fourPages]);
    const firstDone = nextEvent(service, (event) => event.type === 'page-done');
    const cancelled = nextEvent(service, convertDone);
    await service.convert({ docId: docId! });
    await firstDone;
    await service.cancel(docId!);
    expect(await cancelled).toEqual({ type: 'convert-done', docId, cancelled: true });
    const again = nextEvent(service, convertDone);
    await service.convert({ docId: docId!, pages: [3] });
    expect(await again).toEqual({ type: 'convert-done', docId, cancelled: false });
    expect((await service.getWorkspace()).documents[0]!.pages.map((page) => page.state)).toEqual(['done', 'pending', 'done', 'pending']);
  });

  it('records that a folder is not a document instead of failing the call', async () => {
    const folder = await tempFolder();
    const service = await startService(folder);
    const [docId] = await service.openDocuments([folder]);
    const document = (await service.getWorkspace()).documents.find((candidate) => candidate.id === docId)!;
    expect(document.failure?.message).toContain(folder);
  });

  it('records why a damaged file cannot be opened, and converts nothing for it', async () => {
    const folder = await tempFolder();
    const damaged = path.join(folder, 'damaged.pdf');
    await writeFile(damaged, '%PDF-1.7\nthis file was cut off after its header');
    const service = await startService(folder);
    const [docId] = await service.openDocuments([damaged]);
    const document = (await service.getWorkspace()).documents.find((candidate) => candidate.id === docId)!;
    expect(document.failure?.code).toBe('damaged');
    expect(document.failure?.message).toMatch(/damaged\.pdf/);
    expect(document.pages).toEqual([]);
  });

  it('opens an encrypted PDF with the password the user gives and converts it, saving the password nowhere', async () => {
    const folder = await tempFolder();
    const dataDir = path.join(folder, 'data');
    const locked = path.join(folder, 'locked.pdf');
    const password = 'harbour-Gate-7';
    await writeFile(locked, encryptedPdf(password, 'Tide tables for the outer harbour'));
    const service = await startService(dataDir);
    const [docId] = await service.openDocuments([locked]);
    const failure = () => service.getWorkspace().then((workspace) => workspace.documents[0]!.failure);
    expect((await failure())?.code).toBe('encrypted');

    expect(await service.unlockDocument(docId!, 'not-it')).toBe(false);
    expect((await failure())?.code).toBe('wrong-password');
    // a wrong password is not kept: converting still finds the document locked
    await service.convert({ docId: docId! });
    expect((await failure())?.code).toBe('encrypted');

    expect(await service.unlockDocument(docId!, password)).toBe(true);
    expect(await failure()).toBeUndefined();
    const done = nextEvent(service, convertDone);
    await service.convert({ docId: docId! });
    await done;
    const document = (await service.getWorkspace()).documents[0]!;
    expect(document.failure).toBeUndefined();
    expect(document.pages[0]!.engineMarkdown).toContain('Tide tables for the outer harbour');
    await service.close();
    for (const file of await readdir(dataDir, { recursive: true })) {
      const text = await readFile(path.join(dataDir, file)).catch(() => Buffer.alloc(0));
      expect(text.includes(password), file).toBe(false);
    }
  });

  it('opens an encrypted PDF that needs no password without asking, for the engine and for the page preview', async () => {
    const folder = await tempFolder();
    const file = path.join(folder, 'empty-owner.pdf');
    await writeFile(file, aes256Pdf('user secret', 'Open to every reader', { revision: 6, ownerPassword: '' }));
    const service = await startService(folder);
    const [docId] = await service.openDocuments([file]);
    expect((await service.getWorkspace()).documents[0]!.failure).toBeUndefined();
    // what the renderer's pdf.js is given opens with no password
    const bytes = await service.readDocument(docId!);
    const preview = await getDocument({ data: bytes.data, isEvalSupported: false, verbosity: 0 }).promise;
    const text = await (await preview.getPage(1)).getTextContent();
    expect(text.items.map((item) => ('str' in item ? item.str : '')).join('')).toContain('Open to every reader');
    await preview.destroy();
  });

  it('makes one document of a file opened twice at once', async () => {
    const service = await startService(await tempFolder());
    const [first, second] = await Promise.all([service.openDocuments([fourPages]), service.openDocuments([fourPages, fourPages])]);
    expect(second).toEqual([first![0], first![0]]);
    expect((await service.getWorkspace()).documents).toHaveLength(1);
  });

  it('answers the same bytes under another name or folder (a copy, a second upload) with the document already open', async () => {
    const service = await startService(await tempFolder());
    const copy = path.join(await tempFolder(), 'copy of running-headers.pdf');
    await copyFile(fourPages, copy);
    const [original] = await service.openDocuments([fourPages]);
    const [again, other] = await service.openDocuments([copy, twoPages]);
    expect(again).toBe(original);
    expect(other).not.toBe(original);
    expect((await service.getWorkspace()).documents.map((document) => document.name)).toEqual(['running-headers.pdf', 'report.pdf']);
  });

  it('puts a removed document back with its edit and review mark until it closes; then the removal is final', async () => {
    const dataDir = await tempFolder();
    const service = await startService(dataDir);
    const [kept, removed] = await service.openDocuments([twoPages, fourPages]);
    await service.setEdit(removed!, 2, '# Mine\n');
    await service.setReviewed(removed!, 1, true);
    await service.removeDocument(removed!);
    let workspace = await service.getWorkspace();
    expect(workspace.documents.map((document) => document.id)).toEqual([kept]);
    expect(workspace.removed?.map((entry) => entry.document.id)).toEqual([removed]);

    await service.restoreDocument(removed!);
    workspace = await service.getWorkspace();
    expect(workspace.documents.map((document) => document.id)).toEqual([kept, removed]);
    expect(workspace.documents[1]!.pages[1]!.editedMarkdown).toBe('# Mine\n');
    expect(workspace.documents[1]!.pages[0]!.reviewed).toBe(true);
    await expect(service.restoreDocument(removed!)).rejects.toThrow(/was removed in this session; a removal can be undone only until Folio closes/);

    await service.removeDocument(removed!);
    await service.close();
    expect(await readdir(dataDir)).not.toContain('removed');
    const reopened = await startService(dataDir);
    expect((await reopened.getWorkspace()).documents.map((document) => document.id)).toEqual([kept]);
    await expect(reopened.restoreDocument(removed!)).rejects.toThrow(/No document .* was removed in this session/);
  });

  it('says the order of the queue as it changes: the document converting first, then those waiting', async () => {
    const service = await startService(await tempFolder());
    const [first, second] = await service.openDocuments([fourPages, twoPages]);
    const said: string[] = [];
    const name = (docId: string) => (docId === first ? 'first' : 'second');
    const bothDone = nextEvent(service, (event) => {
      if (event.type === 'queue-changed') said.push(`queue: ${event.docIds.map(name).join(', ')}`);
      if (event.type === 'convert-done') said.push(`${name(event.docId)} done`);
      return event.type === 'convert-done' && event.docId === second;
    });
    // asked together, so the second is queued while the first's host is still starting
    await Promise.all([service.convert({ docId: first! }), service.convert({ docId: second! })]);
    await bothDone;
    // a document is out of the queue by the time it is said to be done
    expect(said).toEqual(['queue: first', 'queue: first, second', 'queue: second', 'first done', 'queue: ', 'second done']);
    expect((await service.getWorkspace()).queue).toEqual([]);
  });

  it('refuses an edit for a page the document does not have', async () => {
    const service = await startService(await tempFolder());
    const [docId] = await service.openDocuments([fourPages]);
    await expect(service.setEdit(docId!, 9, 'text')).rejects.toThrow(/has no page 9/);
  });
});

describe('AppService when things fail around an edit', () => {
  it('keeps an edit made while the engine host is killed mid-page, through the crash and a restart', async () => {
    const dataDir = await tempFolder();
    const hosts: HostProcess[] = [];
    const options = {
      dataDir,
      version: '0.0.0-test',
      pageTimeoutMs: 60_000,
      probeDevice: async () => ({ device: 'cpu', reason: 'test' }),
    };
    // page 3 spins in its host until the host is killed
    const service = await AppService.start({
      ...options,
      spawnHost: () => {
        const host = forkHost({ modulePath: faultyHost, env: { ...process.env, FOLIO_FAKE_HANG_PAGE: '3' } });
        hosts.push(host);
        return host;
      },
    });
    const [docId] = await service.openDocuments([fourPages]);
    const secondDone = nextEvent(service, (event) => event.type === 'page-done' && event.result.page === 2);
    const done = nextEvent(service, convertDone);
    await service.convert({ docId: docId! });
    await secondDone;
    const edit = service.setEdit(docId!, 1, '# Edited while the host died\n');
    for (const host of hosts) host.kill();
    await edit;
    await done;
    const pages = (await service.getWorkspace()).documents[0]!.pages;
    expect(pages.map((page) => page.state)).toEqual(['done', 'done', 'failed', 'done']);
    expect(pages[0]!.editedMarkdown).toBe('# Edited while the host died\n');
    await service.close();

    const again = await startService(dataDir);
    const restored = (await again.getWorkspace()).documents[0]!.pages;
    expect(restored[0]!.editedMarkdown).toBe('# Edited while the host died\n');
    expect(restored.map((page) => page.state)).toEqual(['done', 'done', 'failed', 'done']);
  });

  it('loses nothing to a full disk and says so: the window is told, the last save stays whole, and the next change saves everything', async () => {
    const dataDir = await tempFolder();
    let full = false;
    const service = await AppService.start({
      dataDir,
      version: '0.0.0-test',
      pageTimeoutMs: 20_000,
      spawnHost: () => forkHost({ modulePath: builtHost, env: process.env }),
      probeDevice: async () => ({ device: 'cpu', reason: 'test' }),
      writeWorkspaceFile: async (file, data) => {
        if (full) throw Object.assign(new Error(`ENOSPC: no space left on device, write '${file}'`), { code: 'ENOSPC' });
        await writeFileAtomic(file, data);
      },
    });
    services.push(service);
    const [docId] = await service.openDocuments([fourPages]);
    let done = nextEvent(service, convertDone);
    await service.convert({ docId: docId!, pages: [1] });
    await done;
    // a change whose save is awaited: everything before it is on disk too
    await service.setReviewed(docId!, 4, false);

    full = true;
    await expect(service.setEdit(docId!, 1, '# Mine\n')).rejects.toThrow(/the disk holding .* is full\. Nothing is lost/);
    // the conversion's saves fail behind it: the window hears of it as an event
    const told = nextEvent(service, (event) => event.type === 'save-failed');
    done = nextEvent(service, convertDone);
    await service.convert({ docId: docId!, pages: [2] });
    await done;
    const notice = await told;
    expect(notice.type === 'save-failed' && notice.message).toMatch(/^Folio could not save the workspace: the disk holding .* is full\. Nothing is lost/);
    const inWindow = (await service.getWorkspace()).documents[0]!.pages;
    expect(inWindow[0]!.editedMarkdown).toBe('# Mine\n');
    expect(inWindow[1]!.state).toBe('done');
    // on disk: the last save, whole
    const { workspace: onDisk, problems } = await readSavedWorkspace(dataDir);
    expect(problems).toEqual([]);
    expect(onDisk.documents[0]!.pages.map((page) => page.state)).toEqual(['done', 'pending', 'pending', 'pending']);
    expect(onDisk.documents[0]!.pages[0]!.editedMarkdown).toBeUndefined();

    full = false;
    await service.setReviewed(docId!, 3, true);
    const { workspace: saved, problems: none } = await readSavedWorkspace(dataDir);
    expect(none).toEqual([]);
    const pages = saved.documents[0]!.pages;
    expect(pages.map((page) => page.state)).toEqual(['done', 'done', 'pending', 'pending']);
    expect(pages[0]!.editedMarkdown).toBe('# Mine\n');
    expect(pages[1]!.engineMarkdown).toBe(inWindow[1]!.engineMarkdown);
    expect(pages[2]!.reviewed).toBe(true);
  });
});
