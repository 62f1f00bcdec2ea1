/**
 * The real Electron shell, driven by Playwright's `_electron`: preload, IPC, the workspace port, the
 * utility-process engine host and the menu. It needs Electron's binary, which this sandbox cannot
 * download, so here (and in CI) it is skipped and named in the run's last line; it runs wherever
 * `npx install-electron` has fetched it.
 */
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { _electron as electron, expect, test, type ElectronApplication, type Page } from '@playwright/test';
import type { FolioApi, MenuCommand } from '../shared/app-api.js';
import type { Workspace } from '../shared/workspace.js';
import { ELECTRON, missingEnvironment, skipDescription } from '../test/environment.js';

declare global {
  interface Window {
    folio: FolioApi;
  }
}

const root = path.resolve(import.meta.dirname, '..');
const fixture = path.join(root, 'test/fixtures/out/running-headers.pdf');

/** Electron's binary when it was downloaded, found without requiring `electron` (which would try to download it). */
function electronBinary(): string | undefined {
  const packageDir = path.join(root, 'node_modules/electron');
  const pathFile = path.join(packageDir, 'path.txt');
  if (!existsSync(pathFile)) return undefined;
  const binary = path.join(process.env.ELECTRON_OVERRIDE_DIST_PATH ?? path.join(packageDir, 'dist'), readFileSync(pathFile, 'utf8'));
  return existsSync(binary) ? binary : undefined;
}

const binary = electronBinary();
const missing = missingEnvironment(ELECTRON, binary ? null : 'node_modules/electron/dist was never downloaded (no network here); run `npx install-electron` and `npm run build` where it can be fetched');
test.skip(missing !== null, missing ? skipDescription(missing) : undefined);

let userData: string;
test.beforeEach(async () => {
  userData = await mkdtemp(path.join(os.tmpdir(), 'folio-electron-'));
});
test.afterEach(async () => {
  await rm(userData, { recursive: true, force: true });
});

async function launch(...documents: string[]): Promise<{ app: ElectronApplication; page: Page }> {
  const app = await electron.launch({
    executablePath: binary!,
    args: [root, ...documents],
    env: { ...process.env, FOLIO_USER_DATA_DIR: userData },
  });
  const page = await app.firstWindow();
  await page.waitForLoadState('domcontentloaded');
  return { app, page };
}

async function workspaceWhen(page: Page, done: (workspace: Workspace) => boolean): Promise<Workspace> {
  let workspace: Workspace = { documents: [] };
  await expect
    .poll(async () => {
      workspace = await page.evaluate(() => window.folio.getWorkspace());
      return done(workspace);
    }, { timeout: 60_000 })
    .toBe(true);
  return workspace;
}

test('a document named on the command line opens and converts in the utility-process engine host', async () => {
  const { app, page } = await launch(fixture);
  try {
    expect(page.url()).toBe('folio://app/index.html');
    const workspace = await workspaceWhen(page, (current) => current.documents[0]?.pages.every((page) => page.state === 'done') === true);
    expect(workspace.documents[0]!.pages).toHaveLength(4);
    expect(workspace.documents[0]!.pages[0]!.engineMarkdown.length).toBeGreaterThan(0);
  } finally {
    await app.close();
  }
});

test('the page sees window.folio and nothing of Node or Electron, and cannot navigate away', async () => {
  const { app, page } = await launch();
  try {
    const globals = await page.evaluate(() => ({
      folio: Object.keys(window.folio).sort(),
      require: typeof (window as unknown as { require?: unknown }).require,
      process: typeof (window as unknown as { process?: unknown }).process,
    }));
    expect(globals.require).toBe('undefined');
    expect(globals.process).toBe('undefined');
    expect(globals.folio).toContain('onWorkspaceEvent');
    await page.evaluate(() => {
      location.href = 'https://example.com/';
    });
    await page.waitForTimeout(500);
    expect(page.url()).toBe('folio://app/index.html');
  } finally {
    await app.close();
  }
});

test('an edit survives quitting and relaunching the app', async () => {
  const first = await launch(fixture);
  const docId = (await workspaceWhen(first.page, (current) => current.documents[0]?.pages[0]?.state === 'done')).documents[0]!.id;
  await first.page.evaluate((id) => window.folio.setEdit(id, 1, '# Kept across launches\n'), docId);
  await first.app.close();

  const second = await launch();
  try {
    const workspace = await second.page.evaluate(() => window.folio.getWorkspace());
    expect(workspace.documents[0]!.pages[0]!.editedMarkdown).toBe('# Kept across launches\n');
  } finally {
    await second.app.close();
  }
});

test('the application menu delivers its commands to the page', async () => {
  const { app, page } = await launch();
  try {
    await page.evaluate(() => {
      const commands: MenuCommand[] = [];
      (window as unknown as { commands: MenuCommand[] }).commands = commands;
      window.folio.onMenuCommand((command) => commands.push(command));
    });
    await app.evaluate(({ Menu }) => {
      const item = Menu.getApplicationMenu()?.items.flatMap((menu) => menu.submenu?.items ?? []).find((candidate) => candidate.label === 'Export…');
      item?.click();
    });
    await expect.poll(() => page.evaluate(() => (window as unknown as { commands: MenuCommand[] }).commands)).toEqual(['export']);
  } finally {
    await app.close();
  }
});
