/**
 * A page keeps its results as versions, in Chromium against the browser-mode bridge and the real
 * engine host: a page read from the text layer and edited is re-run with the nano demo model
 * (which reads this page badly, as a model can); the model's text is shown, the edit and the text
 * layer's result stay under Versions, each is compared with it, the edit is kept again (a step
 * undo and redo take back and repeat), exported, and still the one shown after the app restarts on
 * the same data folder.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { startBridge, type Bridge } from '../electron/web/bridge-server.js';
import { FIXTURES, dropFile, screenshot } from './support/app-page.js';

const NANO = path.resolve(import.meta.dirname, '../tools/model/fixtures/nano');
const SETTINGS = { engine: 'text', modelDir: NANO, specK: 0, maxNewTokens: 80 } as const;
const HEADING = '# Checked by hand';

let scratch: string;
let bridge: Bridge;
test.beforeAll(async () => {
  scratch = await mkdtemp(path.join(os.tmpdir(), 'folio-ui-versions-'));
  bridge = await startBridge({ dataDir: path.join(scratch, 'data'), settings: SETTINGS });
});
test.afterAll(async () => {
  await bridge.close();
  await rm(scratch, { recursive: true, force: true });
});

function firstPage(page: Page) {
  return page.getByRole('region', { name: 'Markdown' }).locator('.page-section[data-page="1"]');
}

/** The badge of a page showing the demo model's text: not edited, and maybe flagged for review (its text is synthetic). */
const MODEL_SHOWN = /^done(, needs review)?$/;

test('a re-run keeps the earlier text and the edit as versions; comparing, keeping the edit again, and finding it kept after a restart', async ({ page }) => {
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(error.message));
  await page.goto(bridge.url);
  await dropFile(page, path.join(FIXTURES, 'running-headers.pdf'));
  await expect(page.getByText('4 of 4 pages done')).toBeVisible({ timeout: 30_000 });
  const first = firstPage(page);
  // one result so far: nothing to choose between
  await expect(first.getByRole('button', { name: /^Versions/ })).toHaveCount(0);

  // an edit
  await first.getByRole('button', { name: 'Edit' }).click();
  const editor = page.getByRole('textbox', { name: 'Markdown of page 1' });
  await editor.press('ControlOrMeta+Home');
  await editor.pressSequentially(`${HEADING}\n\n`);
  await first.getByRole('button', { name: 'Close editor' }).click();
  await expect(page.getByText('All changes saved')).toBeVisible();
  await expect(first.locator('.badge')).toHaveText('done, edited');
  const textLayer = (await bridge.service.getWorkspace()).documents[0]!.pages[0]!.engineMarkdown;

  // re-run with the demo model, showing its output: the edit is not lost
  await first.getByRole('button', { name: 'Re-run…' }).click();
  const rerun = page.getByRole('dialog', { name: 'Re-run page 1' });
  await rerun.getByRole('combobox', { name: 'Engine' }).selectOption('vlm');
  await rerun.getByRole('radio', { name: /Show the new output/ }).check();
  await rerun.getByRole('button', { name: 'Re-run page 1' }).click();
  await expect(first.getByRole('button', { name: 'Versions (3)' })).toBeVisible({ timeout: 60_000 });
  await expect(first.locator('.badge')).toHaveText(MODEL_SHOWN);
  await expect(first).not.toContainText(HEADING.slice(2));
  const modelText = (await bridge.service.getWorkspace()).documents[0]!.pages[0]!.engineMarkdown;
  expect(modelText).not.toBe(textLayer);

  // the list: newest first, who read it and when; the model's result is the one shown
  await first.getByRole('button', { name: 'Versions (3)' }).click();
  const dialog = page.getByRole('dialog', { name: 'Versions of page 1' });
  // titled like every other dialog, not in the small capitals of the page header it opens from
  await expect(dialog.getByRole('heading', { name: 'Versions of page 1' })).toHaveCSS('text-transform', 'none');
  const items = dialog.getByRole('listitem');
  await expect(items).toHaveCount(3);
  await expect(items.nth(0)).toContainText(/^Model · folio-nano-synthetic · \d/);
  await expect(items.nth(0)).toHaveAttribute('aria-current', 'true');
  await expect(items.nth(0).getByRole('button', { name: 'Keep this one' })).toBeDisabled();
  await expect(items.nth(1)).toContainText(/^Edited · \d/);
  await expect(items.nth(2)).toContainText(/^Text layer · \d/);

  // compare the edit with the version shown: its heading is a line only it has
  await items.nth(1).getByRole('button', { name: 'Compare' }).click();
  const compare = dialog.getByRole('figure', { name: /^Edited · .* against the version shown$/ });
  await expect(compare.locator('.diff-line.added').filter({ hasText: HEADING })).toHaveCount(1);
  await expect(compare.locator('figcaption')).toContainText('against the version shown (Model · folio-nano-synthetic');
  await screenshot(page, '40-versions-compare');
  // and the text layer's: no heading there
  await items.nth(2).getByRole('button', { name: 'Compare' }).click();
  await expect(dialog.getByRole('figure', { name: /^Text layer · .* against the version shown$/ })).toBeVisible();
  await expect(dialog.locator('.diff-line').filter({ hasText: HEADING })).toHaveCount(0);

  // keep the edit again: it is shown, and the model's result stays a version
  await items.nth(1).getByRole('button', { name: 'Keep this one' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(first.locator('.badge')).toHaveText('done, edited');
  await expect(first).toContainText(HEADING.slice(2));
  await expect(first.getByRole('button', { name: 'Versions (3)' })).toBeVisible();
  // keeping is one step of undo: Ctrl+Z shows the model's text again, Ctrl+Shift+Z the edit
  await page.locator('body').press('ControlOrMeta+z');
  await expect(first.locator('.badge')).toHaveText(MODEL_SHOWN);
  await expect(first).not.toContainText(HEADING.slice(2));
  await page.locator('body').press('ControlOrMeta+Shift+z');
  await expect(first.locator('.badge')).toHaveText('done, edited');
  await expect(first).toContainText(HEADING.slice(2));
  await expect(page.getByText('All changes saved')).toBeVisible();

  // the export writes the version shown
  const exportDir = path.join(scratch, 'export');
  const docId = (await bridge.service.getWorkspace()).documents[0]!.id;
  const outcome = await bridge.service.exportDocument({ docId, formats: ['md'], pageMarkers: false, assets: false, folder: exportDir, overwrite: true });
  expect(outcome.kind).toBe('written');
  const exported = await readFile(outcome.kind === 'written' ? outcome.files.find((file) => file.endsWith('.md'))! : '', 'utf8');
  expect(exported).toContain(HEADING);
  expect(exported).toContain(textLayer.trim().split('\n')[0]!);

  // a restart on the same data folder: the edit is still the one shown, the other versions still there
  await bridge.close();
  bridge = await startBridge({ dataDir: path.join(scratch, 'data'), settings: SETTINGS });
  await page.goto(bridge.url);
  const again = firstPage(page);
  await expect(again.locator('.badge')).toHaveText('done, edited');
  await expect(again).toContainText(HEADING.slice(2));
  await again.getByRole('button', { name: 'Versions (3)' }).click();
  const reopened = page.getByRole('dialog', { name: 'Versions of page 1' }).getByRole('listitem');
  await expect(reopened.nth(1)).toHaveAttribute('aria-current', 'true');
  await expect(reopened.nth(1)).toContainText(/^Edited · \d/);
  await expect(reopened.nth(0)).toContainText(/^Model · folio-nano-synthetic/);

  // keeping is reversed by keeping the other one: the model's text again
  await reopened.nth(0).getByRole('button', { name: 'Keep this one' }).click();
  await expect(again.locator('.badge')).toHaveText(MODEL_SHOWN);
  await expect(again).not.toContainText(HEADING.slice(2));
  expect(problems).toEqual([]);
});
