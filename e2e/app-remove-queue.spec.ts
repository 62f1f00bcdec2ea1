/**
 * Nothing lost by a click, and a queue that says where each document stands, in Chromium against
 * the browser-mode bridge and the real engine host (paced like a vision model, so a conversion is
 * long enough to watch the queue): removing an edited document asks first and can be undone with
 * its edits; an unedited one goes at once and comes back too; waiting documents say their place in
 * line, a cancelled one says it stopped and offers Resume; a file dropped again is not added twice.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import type { Bridge } from '../electron/web/bridge-server.js';
import { startPacedBridge } from './support/paced-bridge.js';
import { dropFile, FIXTURES, screenshot } from './support/app-page.js';
import { writeLongPdf } from './support/long-pdf.js';

let bridge: Bridge;
let scratch: string;
test.beforeAll(async () => {
  scratch = await mkdtemp(path.join(os.tmpdir(), 'folio-ui-remove-'));
  bridge = await startPacedBridge({ engine: 'text' }, { FOLIO_PACE_MS: '40' });
});
test.afterAll(async () => {
  await bridge.close();
  await rm(scratch, { recursive: true, force: true });
});

/** The document's entry in the sidebar list. */
function entry(page: Page, name: string) {
  return page.getByRole('navigation', { name: 'Documents' }).getByRole('listitem').filter({ hasText: name });
}

async function docId(name: string): Promise<string> {
  const document = (await bridge.service.getWorkspace()).documents.find((candidate) => candidate.name === name);
  if (!document) throw new Error(`${name} is not in the workspace`);
  return document.id;
}

test('removing an edited document asks first and can be undone with its edits; an unedited one goes at once and comes back too', async ({ page }) => {
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(error.message));
  await page.goto(bridge.url);
  await dropFile(page, path.join(FIXTURES, 'running-headers.pdf'));
  await expect(page.getByText('4 of 4 pages done')).toBeVisible({ timeout: 30_000 });

  // an edit on page 1 and a review mark on page 2
  const markdown = page.getByRole('region', { name: 'Markdown' });
  const first = markdown.locator('.page-section[data-page="1"]');
  await first.getByRole('button', { name: 'Edit' }).click();
  const editor = page.getByRole('textbox', { name: 'Markdown of page 1' });
  await editor.press('ControlOrMeta+Home');
  await editor.pressSequentially('# Kept through an undo\n\n');
  await first.getByRole('button', { name: 'Close editor' }).click();
  await markdown.locator('.page-section[data-page="2"]').getByRole('checkbox', { name: 'Reviewed' }).check();
  await expect(page.getByText('All changes saved')).toBeVisible();
  const id = await docId('running-headers.pdf');

  // Escape keeps it
  await page.getByRole('button', { name: 'Remove running-headers.pdf' }).click();
  const confirm = page.getByRole('dialog', { name: 'Remove running-headers.pdf?' });
  await expect(confirm).toContainText('running-headers.pdf has 1 edited page and 1 reviewed page.');
  await expect(confirm).toContainText('You can undo the removal until Folio closes.');
  await expect(confirm.getByRole('button', { name: 'Remove' })).toBeFocused();
  await screenshot(page, '30-remove-confirm');
  await page.keyboard.press('Escape');
  await expect(confirm).toHaveCount(0);
  await expect(entry(page, 'running-headers.pdf')).toBeVisible();

  // Enter removes it: out of the list, its folder set aside on disk, an Undo offered
  await page.getByRole('button', { name: 'Remove running-headers.pdf' }).click();
  await expect(confirm).toBeVisible();
  await page.keyboard.press('Enter');
  await expect(confirm).toHaveCount(0);
  await expect(page.getByRole('navigation', { name: 'Documents' })).toHaveCount(0);
  const removed = page.getByRole('region', { name: 'Removed documents' });
  await expect(removed).toContainText('Removed running-headers.pdf');
  // the list changes first; the folder moves when the removal is saved
  await expect.poll(() => existsSync(path.join(bridge.dataDir, 'removed', id, 'document.json'))).toBe(true);
  await expect.poll(() => existsSync(path.join(bridge.dataDir, 'documents', id))).toBe(false);
  await screenshot(page, '31-removed-undo');

  // Undo brings it back with the edit and the review mark, on disk too
  await removed.getByRole('button', { name: 'Undo removing running-headers.pdf' }).click();
  await expect(entry(page, 'running-headers.pdf')).toBeVisible();
  await expect(removed.getByRole('listitem')).toHaveCount(0);
  await expect(first.locator('.badge')).toHaveText('done, edited');
  await expect(first.getByRole('heading', { name: 'Kept through an undo' })).toBeVisible();
  await expect(markdown.locator('.page-section[data-page="2"]').getByRole('checkbox', { name: 'Reviewed' })).toBeChecked();
  await expect.poll(() => existsSync(path.join(bridge.dataDir, 'documents', id, 'document.json'))).toBe(true);

  // an unedited document goes without a question, and comes back the same way
  await dropFile(page, path.join(FIXTURES, 'letter.pdf'));
  await expect(entry(page, 'letter.pdf')).toContainText('1/1 pages', { timeout: 30_000 });
  await page.getByRole('button', { name: 'Remove letter.pdf' }).click();
  await expect(entry(page, 'letter.pdf')).toHaveCount(0);
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await removed.getByRole('button', { name: 'Undo removing letter.pdf' }).click();
  await expect(entry(page, 'letter.pdf')).toContainText('1/1 pages');
  await expect(page.getByRole('heading', { name: 'letter.pdf', level: 2 })).toBeVisible();
  expect(problems).toEqual([]);
});

test('waiting documents say their place in line, a cancelled one says it stopped and resumes; a file dropped again is shown, not added twice', async ({ page }) => {
  test.setTimeout(120_000);
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(error.message));
  const long = path.join(scratch, 'long.pdf');
  await writeLongPdf(long, 1000);
  await page.goto(bridge.url);
  await page.getByLabel('Open…').setInputFiles([long, path.join(FIXTURES, 'headings.pdf'), path.join(FIXTURES, 'table-simple.pdf')]);

  await expect(entry(page, 'long.pdf').locator('.document-state')).toHaveText(/^Converting · \d+\/1000 pages$/, { timeout: 30_000 });
  await expect(entry(page, 'headings.pdf').locator('.document-state')).toHaveText('Queued (1st)');
  await expect(entry(page, 'table-simple.pdf').locator('.document-state')).toHaveText('Queued (2nd)');
  await screenshot(page, '32-queue');
  await entry(page, 'table-simple.pdf').getByRole('button', { name: /^table-simple\.pdf/ }).click();
  await expect(page.locator('.progress-text')).toHaveText('0 of 1 pages done · Queued (2nd), after long.pdf');

  // cancelled part-way, the long one says it stopped and offers Resume; the others convert in turn
  await entry(page, 'long.pdf').getByRole('button', { name: /^long\.pdf/ }).click();
  await expect(page.locator('.progress-text')).toContainText(/pages\/s/, { timeout: 30_000 });
  await page.getByRole('button', { name: 'Cancel' }).click();
  await expect(entry(page, 'long.pdf').locator('.document-state')).toHaveText(/^Stopped · \d+\/1000 pages$/);
  await expect(page.locator('.progress-text')).toHaveText(/^Stopped · \d+ of 1000 pages done$/);
  await expect(entry(page, 'headings.pdf').locator('.document-state')).toHaveText('1/1 pages', { timeout: 30_000 });
  await expect(entry(page, 'table-simple.pdf').locator('.document-state')).toHaveText('1/1 pages', { timeout: 30_000 });
  await screenshot(page, '33-stopped');
  await entry(page, 'long.pdf').getByRole('button', { name: 'Resume long.pdf' }).click();
  await expect(entry(page, 'long.pdf').locator('.document-state')).toHaveText(/^Converting · \d+\/1000 pages$/);
  await expect(entry(page, 'long.pdf').getByRole('button', { name: 'Resume long.pdf' })).toHaveCount(0);
  await page.getByRole('button', { name: 'Cancel' }).click();
  await expect(entry(page, 'long.pdf').getByRole('button', { name: 'Resume long.pdf' })).toBeVisible();

  // the same file again, and the same bytes under another name: the open document is shown, with a word why
  const listed = await page.getByRole('navigation', { name: 'Documents' }).getByRole('listitem').count();
  await dropFile(page, path.join(FIXTURES, 'headings.pdf'));
  const info = page.getByRole('main').getByRole('status').filter({ hasText: 'already open' }).locator('span');
  await expect(info).toHaveText('headings.pdf is already open; it is shown instead of being added twice.');
  await expect(entry(page, 'headings.pdf').getByRole('button', { name: /^headings\.pdf/ })).toHaveAttribute('aria-current', 'true');
  await dropFile(page, path.join(FIXTURES, 'table-simple.pdf'), 'table copy.pdf');
  await expect(info).toHaveText('table copy.pdf is the same file as table-simple.pdf, which is already open; it is shown instead of being added twice.');
  await expect(entry(page, 'table-simple.pdf').getByRole('button', { name: /^table-simple\.pdf/ })).toHaveAttribute('aria-current', 'true');
  await screenshot(page, '34-duplicate');
  await expect(page.getByRole('navigation', { name: 'Documents' }).getByRole('listitem')).toHaveCount(listed);
  expect(problems).toEqual([]);
});
