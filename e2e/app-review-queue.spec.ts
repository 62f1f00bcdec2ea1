/**
 * Stepping through the pages that need review, in the browser mode with the real text engine: two
 * documents whose formulas a PDF sets as loose italic glyphs are converted; the list counts their
 * flagged pages, the thumbnails mark them, F8 and Shift+F8 step to them across the documents, the
 * page says why and offers the model; the status bar keeps the settings apart from what read the page.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { startBridge, type Bridge } from '../electron/web/bridge-server.js';
import { screenshot } from './support/app-page.js';
import { writeReviewPdf } from './support/review-pdf.js';

let bridge: Bridge;
let folder: string;
test.beforeAll(async () => {
  folder = await mkdtemp(path.join(tmpdir(), 'folio-review-queue-'));
  await writeReviewPdf(path.join(folder, 'survey-a.pdf'), 5, [2, 4]);
  await writeReviewPdf(path.join(folder, 'survey-b.pdf'), 3, [3]);
  // a server is set up (nothing listens there: no page is sent to it here), so flagged pages offer it
  bridge = await startBridge({ settings: { engine: 'text', remoteServer: 'http://127.0.0.1:9', remoteModel: 'jina-ocr-v1' } });
});
test.afterAll(async () => {
  await bridge.close();
  await rm(folder, { recursive: true, force: true });
});

test('flagged pages are counted, marked and stepped through with F8 across documents; the status bar keeps settings apart from the page', async ({ page }) => {
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(error.message));
  await page.goto(bridge.url);
  await page.getByLabel('Open…').setInputFiles([path.join(folder, 'survey-a.pdf'), path.join(folder, 'survey-b.pdf')]);

  const documents = page.getByRole('navigation', { name: 'Documents' });
  const first = documents.getByRole('listitem').filter({ hasText: 'survey-a.pdf' });
  const second = documents.getByRole('listitem').filter({ hasText: 'survey-b.pdf' });
  await expect(first.locator('.document-state')).toHaveText('5/5 pages', { timeout: 60_000 });
  await expect(second.locator('.document-state')).toHaveText('3/3 pages', { timeout: 60_000 });
  await expect(first.locator('.document-review')).toHaveText('2 to review');
  await expect(second.locator('.document-review')).toHaveText('1 to review');
  const stepper = page.getByRole('group', { name: 'Pages to review' });
  await expect(stepper).toContainText('3 to review');
  await expect(stepper.getByRole('button', { name: /Next to review/ })).toHaveAttribute('title', /\(F8\)$/);

  // the flagged thumbnails carry their own mark, not the clean pages' dot
  await first.locator('.document-item').click();
  const thumbnails = page.getByRole('navigation', { name: 'Page thumbnails' });
  const flaggedThumb = thumbnails.getByRole('button', { name: 'Page 2, done, needs review' });
  await expect(flaggedThumb.locator('.review-mark-flag')).toBeVisible();
  await expect(flaggedThumb.locator('.state-dot')).toHaveCount(0);
  const cleanThumb = thumbnails.getByRole('button', { name: 'Page 1, done' });
  await expect(cleanThumb.locator('.state-dot.done')).toBeVisible();
  await expect(cleanThumb.locator('.review-mark-flag')).toHaveCount(0);

  // F8: to page 2, which says why and offers the configured model
  const pageNumber = page.getByRole('textbox', { name: 'Page number' });
  await page.locator('body').press('F8');
  await expect(pageNumber).toHaveValue('2');
  const markdown = page.getByRole('region', { name: 'Markdown' });
  const note = markdown.getByRole('note', { name: 'Page 2 needs review' });
  await expect(note).toContainText('Math is written as loose symbols, not as a formula: “*x* = *y* + *z*”.');
  await expect(note.getByRole('button', { name: 'Re-run with the model' })).toHaveAttribute('title', /jina-ocr-v1 at http:\/\/127\.0\.0\.1:9/);
  await screenshot(page, '60-review-queue');

  // F8 again: page 4; marking it reviewed takes it off the count and its note away
  await page.locator('body').press('F8');
  await expect(pageNumber).toHaveValue('4');
  const fourth = markdown.locator('.page-section[data-page="4"]');
  await fourth.getByRole('checkbox', { name: 'Reviewed' }).check();
  await expect(first.locator('.document-review')).toHaveText('1 to review');
  await expect(stepper).toContainText('2 to review');
  await expect(fourth.getByRole('note')).toHaveCount(0);
  await expect(thumbnails.getByRole('button', { name: 'Page 4, done, reviewed' }).locator('.state-dot.reviewed')).toBeVisible();

  // F8 once more: into the second document's page 3; Shift+F8 back to the first's page 2
  await page.locator('body').press('F8');
  await expect(second.locator('.document-item')).toHaveAttribute('aria-current', 'true');
  await expect(pageNumber).toHaveValue('3');
  await expect(markdown.getByRole('note', { name: 'Page 3 needs review' })).toContainText('“*x* = *y* + *z*”');
  await page.locator('body').press('Shift+F8');
  await expect(first.locator('.document-item')).toHaveAttribute('aria-current', 'true');
  await expect(pageNumber).toHaveValue('2');

  // the status bar: the settings in use, and apart from them what read page 2
  const status = page.getByRole('status', { name: 'Status' });
  const settingsInUse = status.getByLabel('Settings in use');
  const readBy = status.getByLabel('Page 2 was read by');
  await expect(settingsInUse).toContainText('Engine: Text layer');
  await expect(readBy).toContainText('Engine: Text layer');
  await expect(readBy).toContainText('Device: cpu');
  await expect(readBy).toContainText(/Time: \d+ ms|Time: \d+(\.\d)? s/);

  await page.getByRole('button', { name: 'Settings' }).click();
  const settings = page.getByRole('dialog', { name: 'Settings' });
  await settings.getByRole('combobox', { name: 'Engine' }).selectOption('remote');
  await settings.getByRole('button', { name: 'Done' }).click();
  await expect(settingsInUse).toContainText('Engine: Remote server');
  await expect(settingsInUse).toContainText('Model: jina-ocr-v1');
  await expect(settingsInUse).toContainText('Server: 127.0.0.1:9');
  // the page was read by the text layer, on the CPU, with no model: switching engines changes none of that
  await expect(readBy).toContainText('Engine: Text layer');
  await expect(readBy).toContainText('Device: cpu');
  await expect(readBy).not.toContainText('Model');
  await expect(readBy).not.toContainText('Remote');
  // the server's whole address on a click
  await settingsInUse.getByRole('button', { name: /127\.0\.0\.1:9/ }).click();
  await expect(status.getByRole('tooltip')).toHaveText('http://127.0.0.1:9');
  await screenshot(page, '61-status-bar');
  expect(problems).toEqual([]);
});
