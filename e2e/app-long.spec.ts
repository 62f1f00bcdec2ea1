/**
 * Long and broken documents in the UI, against the browser-mode bridge and the real engine:
 * a 2,000-page PDF stays light and can be cancelled and resumed; a damaged PDF says why it failed;
 * a page image is shown as itself.
 */
import { execFileSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { aes256Pdf } from '../test/encrypted-pdf.js';
import type { Bridge } from '../electron/web/bridge-server.js';
import { startPacedBridge } from './support/paced-bridge.js';
import { FIXTURES, screenshot } from './support/app-page.js';
import { writeLongPdf } from './support/long-pdf.js';

let bridge: Bridge;
let scratch: string;
test.beforeAll(async () => {
  scratch = await mkdtemp(path.join(os.tmpdir(), 'folio-ui-'));
  // paced like a vision model, so a conversion is long enough to cancel half-way
  bridge = await startPacedBridge({ engine: 'text' }, { FOLIO_PACE_MS: '40' });
});
test.afterAll(async () => {
  await bridge.close();
  await rm(scratch, { recursive: true, force: true });
});

test('a 2,000-page PDF draws only the pages in view, follows navigation on both sides, and cancels and resumes', async ({ page }) => {
  test.setTimeout(120_000);
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(error.message));
  const long = path.join(scratch, 'long.pdf');
  await writeLongPdf(long, 2000);
  await page.goto(bridge.url);
  await page.getByLabel('Open…').setInputFiles(long);
  await expect(page.getByText('of 2000', { exact: true })).toBeVisible({ timeout: 30_000 });

  const progress = page.locator('.progress-text');
  await expect(progress).toContainText(/pages\/s/, { timeout: 30_000 });
  await expect(progress).toContainText(/about .* left/);
  await screenshot(page, '10-long-converting');
  await page.getByRole('button', { name: 'Cancel' }).click();
  const resume = page.getByRole('button', { name: 'Resume', exact: true });
  await expect(resume).toBeVisible({ timeout: 15_000 });
  const stopped = await progress.textContent();
  const done = Number(/(\d+) of 2000 pages done/.exec(stopped ?? '')?.[1]);
  expect(done).toBeGreaterThan(0);
  expect(done).toBeLessThan(2000);
  await page.waitForTimeout(500);
  await expect(progress).toHaveText(stopped!);

  // jump far in: the page pane and the Markdown both go there, and only a few canvases exist
  const pages = page.getByRole('region', { name: 'Pages' });
  const markdown = page.getByRole('region', { name: 'Markdown' });
  const pageNumber = page.getByRole('textbox', { name: 'Page number' });
  await pageNumber.fill('1500');
  await pageNumber.press('Enter');
  await expect(pages.getByRole('img', { name: 'Page 1500', exact: true })).toBeInViewport();
  await expect(markdown.getByRole('heading', { name: 'Page 1500', exact: true })).toBeInViewport();
  await expect(markdown.locator('.page-section[data-page="1500"] .badge')).toHaveText('not converted');
  expect(await pages.locator('canvas').count()).toBeLessThanOrEqual(8);

  // scrolling the Markdown moves the page pane to the same page
  await markdown.evaluate((element) => {
    const section = element.querySelector<HTMLElement>('[data-page="3"]')!;
    element.scrollTop = section.offsetTop;
  });
  await expect(pageNumber).toHaveValue('3');
  await expect(pages.getByRole('img', { name: 'Page 3', exact: true })).toBeInViewport();

  // a block hovered in the Markdown is outlined on its page; a region clicked on the page reveals its block
  const heading = markdown.locator('.page-section[data-page="3"] .block').first();
  await heading.hover();
  await expect(pages.locator('.block-region.hovered')).toHaveCount(1);
  await screenshot(page, '11-long-hover');
  await markdown.evaluate((element) => (element.scrollTop += 40));
  await pages.getByRole('button', { name: 'Show the paragraph on page 3 in the Markdown' }).click();
  await expect(markdown.locator('.page-section[data-page="3"] .block.revealed')).toBeInViewport();

  await resume.click();
  await expect(page.getByRole('button', { name: 'Cancel' })).toBeVisible();
  await expect(progress).not.toHaveText(stopped!);
  await page.getByRole('button', { name: 'Cancel' }).click();
  await expect(resume).toBeVisible();
  expect(problems).toEqual([]);
});

test('a damaged PDF shows what went wrong and which file', async ({ page }) => {
  const damaged = path.join(scratch, 'damaged.pdf');
  await writeFile(damaged, '%PDF-1.7\n1 0 obj << /Type /Catalog /Pages 2 0 R >>\nthis is not a PDF any more\n');
  await page.goto(bridge.url);
  await page.getByLabel('Open…').setInputFiles(damaged);
  await expect(page.getByRole('heading', { name: 'damaged.pdf could not be opened' })).toBeVisible();
  const message = page.getByRole('main').getByRole('alert');
  // the file's path is shown beneath, so the message does not start with it
  await expect(message).toHaveText(/^Damaged PDF that cannot be repaired \(.+\)\.$/);
  await expect(page.getByRole('navigation', { name: 'Documents' })).toContainText('Could not open');
  await screenshot(page, '12-damaged');
});

test('an encrypted PDF asks for its password, says when it is wrong, then opens, shows its page and converts', async ({ page }) => {
  const locked = path.join(scratch, 'locked.pdf');
  // AES-256 revision 5 with a password that is not ASCII, which pdf.js 5.6 alone cannot open
  await writeFile(locked, aes256Pdf('Hafentor-7-ä', 'Tide tables for the outer harbour'));
  await page.goto(bridge.url);
  await page.getByLabel('Open…').setInputFiles(locked);
  await expect(page.getByRole('heading', { name: 'locked.pdf needs its password' })).toBeVisible();
  const form = page.getByRole('form', { name: 'Password for locked.pdf' });
  await form.getByLabel('Password').fill('not-it');
  await form.getByRole('button', { name: 'Open' }).click();
  await expect(form.getByRole('alert')).toContainText('That password does not open it');
  await screenshot(page, '14-password');

  await form.getByLabel('Password').fill('Hafentor-7-ä');
  await form.getByRole('button', { name: 'Open' }).click();
  await expect(page.getByRole('region', { name: 'Pages' }).getByRole('img', { name: 'Page 1', exact: true })).toBeVisible();
  const section = page.getByRole('region', { name: 'Markdown' }).locator('.page-section[data-page="1"]');
  await expect(section.locator('.badge')).toHaveText('done', { timeout: 30_000 });
  await expect(section.locator('.markdown-body')).toContainText('Tide tables for the outer harbour');
  await screenshot(page, '15-unlocked');
});

test('a page image is shown as an image, and a page the chosen engine cannot read says so', async ({ page }) => {
  const prefix = path.join(scratch, 'scan');
  execFileSync('pdftoppm', ['-png', '-r', '60', '-f', '1', '-l', '1', '-singlefile', path.join(FIXTURES, 'report.pdf'), prefix]);
  await page.goto(bridge.url);
  await page.getByLabel('Open…').setInputFiles(`${prefix}.png`);
  await expect(page.getByRole('region', { name: 'Pages' }).getByRole('img', { name: 'Page 1', exact: true })).toBeVisible();
  const section = page.getByRole('region', { name: 'Markdown' }).locator('.page-section[data-page="1"]');
  await expect(section.locator('.badge')).toHaveText('failed', { timeout: 30_000 });
  await expect(section.getByRole('alert')).not.toBeEmpty();
  await screenshot(page, '13-image-text-engine');
});
