/**
 * What a newcomer meets in the first hour, in Chromium against the browser-mode bridge: the file's
 * own name on its document, Export ready without choosing a folder, one page said as one page,
 * table numbers kept whole, and a failed file named as the user knows it, not by its upload path.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { startBridge, type Bridge } from '../electron/web/bridge-server.js';
import { dropFile, screenshot } from './support/app-page.js';

const SCANS = path.resolve(import.meta.dirname, '../test/scans/out');

let bridge: Bridge;
let folder: string;
test.beforeAll(async () => {
  bridge = await startBridge({ settings: { engine: 'text' } });
  folder = await mkdtemp(path.join(os.tmpdir(), 'folio-first-hour-'));
});
test.afterAll(async () => {
  await bridge.close();
  await rm(folder, { recursive: true, force: true });
});

/** One page of words, with the metadata title a tool left behind. */
async function titledPdf(file: string): Promise<void> {
  const pdf = await PDFDocument.create();
  pdf.setTitle('example');
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  pdf.addPage([612, 792]).drawText('Quarterly figures in plain words.', { x: 72, y: 700, size: 16, font });
  await writeFile(file, await pdf.save());
}

test('a one-page PDF is shown by its file name, exports at once to the default folder, and keeps table numbers whole', async ({ page }) => {
  const file = path.join(folder, 'quarterly-report.pdf');
  await titledPdf(file);
  await page.goto(bridge.url);
  await dropFile(page, file);
  await expect(page.getByRole('heading', { name: 'quarterly-report.pdf', level: 2 })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'example' })).toHaveCount(0);
  await expect(page.getByText('1 of 1 pages done')).toBeVisible({ timeout: 30_000 });

  // a wide table in the page's Markdown: each number stays on one line
  const section = page.getByRole('region', { name: 'Markdown' }).locator('.page-section[data-page="1"]');
  await section.getByRole('button', { name: 'Edit' }).click();
  const editor = page.getByRole('textbox', { name: 'Markdown of page 1' });
  await editor.press('ControlOrMeta+a');
  const cells = Array.from({ length: 14 }, (_, index) => `0.${87 + index}`);
  await editor.pressSequentially(`| ${cells.map((_, index) => `Column ${index + 1}`).join(' | ')} |\n| ${cells.map(() => '---').join(' | ')} |\n| ${cells.join(' | ')} |\n`);
  await section.getByRole('button', { name: 'Close editor' }).click();
  const cell = section.locator('td', { hasText: '0.87' });
  await expect(cell).toBeVisible();
  const lines = await cell.evaluate((element) => {
    const range = document.createRange();
    range.selectNodeContents(element);
    return new Set(Array.from(range.getClientRects(), (rect) => Math.round(rect.top))).size;
  });
  expect(lines).toBe(1);
  await screenshot(page, 'first-hour-table');

  await page.getByRole('button', { name: 'Export…' }).click();
  const dialog = page.getByRole('dialog', { name: /Export quarterly-report/ });
  await expect(dialog.getByText('Whole document (1 page)')).toBeVisible();
  await expect(dialog.getByText(bridge.exportDir)).toBeVisible();
  await screenshot(page, 'first-hour-export');
  await dialog.getByRole('button', { name: 'Export', exact: true }).click();
  await expect(dialog.getByRole('status')).toContainText('Wrote');
  expect(await dialog.getByRole('listitem').allTextContents()).toEqual([path.join(bridge.exportDir, 'quarterly-report.md')]);
});

test('a file that is not a PDF fails by the name the user dropped, never its upload path', async ({ page }) => {
  const file = path.join(folder, 'minutes.pdf');
  await writeFile(file, 'Minutes of the meeting, saved as text with the wrong extension.\n');
  await page.goto(bridge.url);
  await dropFile(page, file);
  const failed = page.getByRole('heading', { name: 'minutes.pdf could not be opened' });
  await expect(failed).toBeVisible();
  await expect(page.getByRole('alert')).toHaveText('Neither a PDF (no %PDF header) nor a page image (PNG, JPEG, TIFF, WebP, GIF, BMP).');
  await expect(page.getByText('uploads')).toHaveCount(0);
  await screenshot(page, 'first-hour-failed');
});

test('a large scan shows a placeholder on its sheet while it is drawn, then the page', async ({ page }) => {
  await page.goto(bridge.url);
  // a slow machine, so the drawing of a 300 dpi scan is long enough to be seen
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 8 });
  await dropFile(page, path.join(SCANS, 'headings-300.pdf'));
  const pages = page.getByRole('region', { name: 'Pages' });
  await expect(pages.getByRole('status').filter({ hasText: 'Drawing page 1…' })).toBeVisible({ timeout: 30_000 });
  await screenshot(page, 'first-hour-drawing');
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 });
  await expect(pages.getByRole('status').filter({ hasText: 'Drawing page 1…' })).toHaveCount(0, { timeout: 30_000 });
  await expect(pages.getByRole('img', { name: 'Page 1' })).toBeVisible();
});
