/**
 * Reviewing a conversion in the UI, against the browser-mode bridge and the real engine host with
 * a fault injected: a page that crashes the engine fails alone and offers a retry; re-running an
 * edited page asks what to do with the edit; menu shortcuts, undo and the dark theme work.
 */
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { startBridge, type Bridge } from '../electron/web/bridge-server.js';
import { FIXTURES, screenshot } from './support/app-page.js';

let bridge: Bridge;
test.beforeAll(async () => {
  bridge = await startBridge({
    settings: { engine: 'text' },
    hostModule: path.resolve(import.meta.dirname, '../test/fake-hosts/faulty-host.mjs'),
    hostEnv: { FOLIO_FAKE_CRASH_PAGE: '2' },
  });
});
test.afterAll(async () => {
  await bridge.close();
});

test('a page that crashes the engine fails alone with a retry; re-running an edited page keeps the edit unless told; shortcuts, undo and the dark theme', async ({ page }) => {
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(error.message));
  await page.goto(bridge.url);
  await page.getByLabel('Open…').setInputFiles(path.join(FIXTURES, 'running-headers.pdf'));
  const progress = page.locator('.progress-text');
  await expect(progress).toContainText('3 of 4 pages done · 1 failed', { timeout: 30_000 });

  const markdown = page.getByRole('region', { name: 'Markdown' });
  const failed = markdown.locator('.page-section[data-page="2"]');
  await expect(failed.locator('.badge')).toHaveText('failed');
  await expect(failed.getByRole('alert')).toHaveText(/^The engine crashed while reading it \(.+\)\.$/);
  await expect(failed.getByRole('button', { name: 'Retry' })).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Page thumbnails' }).getByRole('button', { name: 'Page 2, failed' })).toBeVisible();
  await screenshot(page, '20-page-failed');
  // the injected fault strikes again: the retry runs and the page fails again, alone
  await failed.getByRole('button', { name: 'Retry' }).click();
  await expect(failed.locator('.badge')).toHaveText(/queued|converting|failed/);
  await expect(failed.locator('.badge')).toHaveText('failed', { timeout: 30_000 });
  await expect(progress).toContainText('3 of 4 pages done · 1 failed');

  // the source view (Ctrl+/ toggles it) takes no keystrokes until Edit; then edit page 3 there and re-run it keeping the edit
  await page.locator('body').press('ControlOrMeta+/');
  const editor = page.getByRole('textbox', { name: 'Markdown of page 3' });
  const third = markdown.locator('.page-section[data-page="3"]');
  await editor.click();
  await editor.press('ControlOrMeta+End');
  await editor.pressSequentially('typed before Edit');
  await expect(editor).not.toContainText('typed before Edit');
  await expect(third.locator('.badge')).toHaveText('done');
  await third.getByRole('button', { name: 'Edit' }).click();
  await editor.click();
  await editor.press('ControlOrMeta+End');
  await editor.pressSequentially('\n\nA note added in review.');
  await expect(page.getByText('All changes saved')).toBeVisible();
  await third.getByRole('button', { name: 'Re-run…' }).click();
  const rerun = page.getByRole('dialog', { name: 'Re-run page 3' });
  await expect(rerun.getByRole('radio', { name: /Keep my edits/ })).toBeChecked();
  await screenshot(page, '21-rerun-dialog');
  await rerun.getByRole('button', { name: 'Re-run page 3' }).click();
  await expect(third.locator('.badge')).toHaveText('done, edited', { timeout: 30_000 });
  await expect(editor).toContainText('A note added in review.');

  // revert from the preview, then undo the revert with the shortcut
  await page.locator('body').press('ControlOrMeta+/');
  await third.getByRole('button', { name: 'Revert' }).click();
  await expect(third.locator('.badge')).toHaveText('done');
  await page.locator('body').press('ControlOrMeta+z');
  await expect(third.locator('.badge')).toHaveText('done, edited');
  await expect(third).toContainText('A note added in review.');

  // next page from the keyboard, then settings: the dark theme
  await page.locator('body').press('ControlOrMeta+]');
  await expect(page.getByRole('textbox', { name: 'Page number' })).toHaveValue(/\d/);
  await page.locator('body').press('ControlOrMeta+,');
  const settings = page.getByRole('dialog', { name: 'Settings' });
  await settings.getByRole('combobox', { name: 'Theme' }).selectOption('dark');
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  await screenshot(page, '22-settings-dark');
  await settings.getByRole('button', { name: 'Done' }).click();
  await screenshot(page, '23-dark');
  expect((await bridge.service.getSettings()).theme).toBe('dark');
  expect(problems).toEqual([]);
});
