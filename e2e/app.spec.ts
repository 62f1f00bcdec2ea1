/**
 * The app as a person uses it, in Chromium against the browser-mode bridge and the real engine:
 * drop a PDF, watch it convert, correct a page, reload, export. Screenshots of each state land in
 * test-results/ui/ for a human to look at.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { startBridge, type Bridge } from '../electron/web/bridge-server.js';
import { dropFile, FIXTURES, screenshot } from './support/app-page.js';

let bridge: Bridge;
test.beforeAll(async () => {
  bridge = await startBridge({ settings: { engine: 'text' } });
});
test.afterAll(async () => {
  await bridge.close();
});

test('a dropped PDF shows its pages, streams its Markdown, keeps an edit across a reload and exports Markdown and HTML', async ({ page }) => {
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(error.message));
  // a CSP violation (an inline script or style, a worker from elsewhere) is reported as a console error
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(message.text());
  });
  await page.goto(bridge.url);
  await expect(page.getByRole('heading', { name: 'Nothing open yet' })).toBeVisible();
  await screenshot(page, '01-empty');

  await dropFile(page, path.join(FIXTURES, 'running-headers.pdf'));
  const documents = page.getByRole('navigation', { name: 'Documents' });
  await expect(documents.getByRole('button', { name: /^running-headers\.pdf/ })).toBeVisible();

  // the pages are drawn by pdf.js, and only those near the view
  const pages = page.getByRole('region', { name: 'Pages' });
  await expect(pages.getByRole('img', { name: 'Page 1' })).toBeVisible();
  const markdown = page.getByRole('region', { name: 'Markdown' });
  await expect(markdown.getByRole('heading', { name: 'Page 1' })).toBeVisible();
  await expect(page.getByText('4 of 4 pages done')).toBeVisible({ timeout: 30_000 });
  await expect(markdown.locator('.page-section[data-page="1"] .markdown-body')).not.toBeEmpty();
  await screenshot(page, '02-converted');

  // correct page 1 in the editor
  const section = markdown.locator('.page-section[data-page="1"]');
  await section.getByRole('button', { name: 'Edit' }).click();
  const editor = page.getByRole('textbox', { name: 'Markdown of page 1' });
  await editor.press('ControlOrMeta+Home');
  await editor.pressSequentially('# Corrected by hand\n\n');
  await expect(section.locator('.live-preview').getByRole('heading', { name: 'Corrected by hand' })).toBeVisible();
  await section.getByRole('button', { name: 'Changes' }).click();
  const diff = section.getByRole('figure', { name: 'Changes on page 1' });
  await expect(diff).toContainText('+2');
  await expect(diff.locator('.diff-line.added').first()).toContainText('# Corrected by hand');
  await section.getByRole('checkbox', { name: 'Reviewed' }).check();
  await expect(page.getByText('All changes saved')).toBeVisible();
  await screenshot(page, '03-edited');

  await page.reload();
  const reloaded = page.getByRole('region', { name: 'Markdown' }).locator('.page-section[data-page="1"]');
  await expect(reloaded.getByRole('heading', { name: 'Corrected by hand' })).toBeVisible();
  await expect(reloaded.getByRole('checkbox', { name: 'Reviewed' })).toBeChecked();
  await expect(reloaded.locator('.badge')).toHaveText('done, edited, reviewed');

  // export both formats to the bridge's export folder
  await page.getByRole('button', { name: 'Export…' }).click();
  const dialog = page.getByRole('dialog', { name: /Export running-headers/ });
  await dialog.getByRole('checkbox', { name: /HTML/ }).check();
  await dialog.getByRole('button', { name: 'Choose folder…' }).click();
  await expect(dialog.getByText(bridge.exportDir)).toBeVisible();
  await dialog.getByRole('button', { name: 'Export', exact: true }).click();
  await expect(dialog.getByRole('status')).toContainText('Wrote');
  await screenshot(page, '04-exported');
  const written = await dialog.getByRole('listitem').allTextContents();
  const markdownFile = written.find((file) => file.endsWith('.md'))!;
  const htmlFile = written.find((file) => file.endsWith('.html'))!;
  expect(await readFile(markdownFile, 'utf8')).toContain('# Corrected by hand');
  const html = await readFile(htmlFile, 'utf8');
  expect(html).toContain('Corrected by hand');
  expect(html).not.toContain('<script');

  // a second export asks before replacing what the first wrote
  await dialog.getByRole('button', { name: 'Close' }).click();
  await page.getByRole('button', { name: 'Export…' }).click();
  const again = page.getByRole('dialog', { name: /Export running-headers/ });
  await again.getByRole('button', { name: 'Choose folder…' }).click();
  await again.getByRole('button', { name: 'Export', exact: true }).click();
  await expect(again.getByRole('alert')).toContainText('already exist');
  await screenshot(page, '05-would-overwrite');
  await again.getByRole('button', { name: 'Replace files' }).click();
  await expect(again.getByRole('status')).toContainText('Wrote');

  // only page 2, with page markers, Markdown alone
  await again.getByRole('button', { name: 'Close' }).click();
  await page.getByRole('button', { name: 'Export…' }).click();
  const selected = page.getByRole('dialog', { name: /Export running-headers/ });
  await selected.getByRole('radio', { name: 'Selected pages' }).check();
  await selected.getByRole('textbox', { name: 'Pages to export' }).fill('2');
  await selected.getByRole('checkbox', { name: 'Page breaks between pages' }).check();
  await selected.getByRole('button', { name: 'Choose folder…' }).click();
  await selected.getByRole('button', { name: 'Export', exact: true }).click();
  await selected.getByRole('button', { name: 'Replace files' }).click();
  await expect(selected.getByRole('status')).toContainText('Wrote');
  const pageTwo = await readFile(markdownFile, 'utf8');
  expect(pageTwo).toContain('<!-- page 2 -->');
  expect(pageTwo).not.toContain('Corrected by hand');
  expect(problems).toEqual([]);
});
