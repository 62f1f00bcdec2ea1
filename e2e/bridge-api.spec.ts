/**
 * The browser mode's `window.folio`, driven in Chromium without the UI: everything the renderer can
 * ask for, against the real engine host, as the renderer would ask for it.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import type { FolioApi, MenuCommand } from '../shared/app-api.js';
import { applyWorkspaceEvent, type Workspace, type WorkspaceEvent } from '../shared/workspace.js';
import { startBridge, type Bridge } from '../electron/web/bridge-server.js';

declare global {
  interface Window {
    folio: FolioApi;
  }
}

const fixture = path.resolve(import.meta.dirname, '../test/fixtures/out/running-headers.pdf');
/** Another document: the same bytes uploaded again would be the document the first test opened. */
const another = path.resolve(import.meta.dirname, '../test/fixtures/out/paper.pdf');

let bridge: Bridge;
test.beforeAll(async () => {
  bridge = await startBridge({ settings: { engine: 'text' } });
});
test.afterAll(async () => {
  await bridge.close();
});

test('window.folio uploads, opens, converts with streamed events, keeps an edit across a reload, exports, and maps shortcuts to menu commands', async ({ page }) => {
  await page.goto(bridge.url);
  const bytes = [...(await readFile(fixture))];

  const { docId, events, pageCount } = await page.evaluate(async (data) => {
    const file = new File([new Uint8Array(data)], 'running headers.pdf', { type: 'application/pdf' });
    const seen: WorkspaceEvent[] = [];
    const filePath = await window.folio.pathForFile(file);
    const [id] = await window.folio.openDocuments([filePath]);
    const finished = new Promise<void>((resolve) => {
      window.folio.onWorkspaceEvent((event) => {
        seen.push(event);
        if (event.type === 'convert-done') resolve();
      });
    });
    await window.folio.convert({ docId: id! });
    await finished;
    const workspace = await window.folio.getWorkspace();
    return { docId: id!, events: seen.map((event) => event.type), pageCount: workspace.documents[0]!.info!.pageCount };
  }, bytes);
  expect(pageCount).toBe(4);
  expect(events).toContain('page-delta');
  expect(events.filter((type) => type === 'page-done')).toHaveLength(4);

  const document = await page.evaluate(async (id) => {
    await window.folio.setEdit(id, 1, '# Edited in the browser\n');
    const read = await window.folio.readDocument(id);
    return { mime: read.mime, size: read.data.length };
  }, docId);
  expect(document).toEqual({ mime: 'application/pdf', size: bytes.length });

  await page.reload();
  const restored = await page.evaluate(() => window.folio.getWorkspace());
  expect(restored.documents[0]!.pages[0]!.editedMarkdown).toBe('# Edited in the browser\n');

  const outcome = await page.evaluate(async (id) => {
    const folder = await window.folio.chooseExportFolder();
    const request = { docId: id, formats: ['md', 'html'] as ('md' | 'html')[], pageMarkers: true, assets: true, folder: folder!, overwrite: false };
    const first = await window.folio.exportDocument(request);
    const again = await window.folio.exportDocument(request);
    return { first, again };
  }, docId);
  expect(outcome.first.kind).toBe('written');
  expect(outcome.again.kind).toBe('would-overwrite');
  const markdown = await readFile(path.join(bridge.exportDir, 'running headers.md'), 'utf8');
  expect(markdown.startsWith('<!-- page 1 -->\n*Page 1*\n\n# Edited in the browser\n')).toBe(true);
  expect(await readFile(path.join(bridge.exportDir, 'running headers.html'), 'utf8')).toContain('<h1>Edited in the browser</h1>');

  await page.evaluate(() => {
    const commands: MenuCommand[] = [];
    window.folio.onMenuCommand((command) => commands.push(command));
    (window as unknown as { commands: MenuCommand[] }).commands = commands;
  });
  await page.keyboard.press('Control+O');
  await page.keyboard.press('Control+Shift+Z');
  await page.keyboard.press('Control+]');
  expect(await page.evaluate(() => (window as unknown as { commands: MenuCommand[] }).commands)).toEqual(['open', 'redo', 'next-page']);
});

test('a snapshot taken mid-conversion, plus the events delivered after asking for it, tracks the conversion exactly', async ({ page }) => {
  await page.goto(bridge.url);
  const bytes = [...(await readFile(another))];
  const { snapshot, after, final } = await page.evaluate(async (data) => {
    const file = new File([new Uint8Array(data)], 'snapshot.pdf', { type: 'application/pdf' });
    const [docId] = await window.folio.openDocuments([await window.folio.pathForFile(file)]);
    const delivered: WorkspaceEvent[] = [];
    let taken: Workspace | null = null;
    let asked = false;
    const finished = new Promise<void>((resolve) => {
      window.folio.onWorkspaceEvent((event) => {
        // as the renderer does: everything delivered from the moment it asks is applied on top of the snapshot
        if (asked) delivered.push(event);
        if (!asked && event.type === 'page-delta') {
          asked = true;
          void window.folio.getWorkspace().then((workspace) => {
            taken = workspace;
            // a conversion that ended before the snapshot is in it, its convert-done included
            if (!workspace.documents.find((document) => document.id === docId)?.converting) resolve();
          });
        }
        if (event.type === 'convert-done' && event.docId === docId) resolve();
      });
    });
    await window.folio.convert({ docId: docId! });
    await finished;
    return { snapshot: taken as Workspace | null, after: delivered, final: await window.folio.getWorkspace() };
  }, bytes);
  expect(snapshot).not.toBeNull();
  const document = final.documents.find((candidate) => candidate.name === 'snapshot.pdf')!;
  // streamed Markdown is always a prefix of the page's final Markdown: an event applied twice would break that
  let state = snapshot!;
  for (const event of after) {
    state = applyWorkspaceEvent(state, event);
    for (const current of state.documents.find((candidate) => candidate.id === document.id)!.pages) {
      expect(document.pages[current.page - 1]!.engineMarkdown.startsWith(current.engineMarkdown)).toBe(true);
    }
  }
  expect(state).toEqual(final);
});
