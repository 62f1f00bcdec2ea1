/**
 * Watching a page stream in, against the browser-mode bridge with the real engine host paced like a
 * vision model: the page's Markdown grows in place while it converts, then settles.
 */
import path from 'node:path';
import { expect, test } from '@playwright/test';
import type { Bridge } from '../electron/web/bridge-server.js';
import { startPacedBridge } from './support/paced-bridge.js';
import { FIXTURES, screenshot } from './support/app-page.js';

let bridge: Bridge;
test.beforeAll(async () => {
  bridge = await startPacedBridge({ engine: 'text' }, { FOLIO_PACE_MS: '0', FOLIO_STREAM_CHUNK: '16', FOLIO_STREAM_MS: '60' });
});
test.afterAll(async () => {
  await bridge.close();
});

test('a page being converted shows its Markdown growing, and the finished page replaces it', async ({ page }) => {
  await page.goto(bridge.url);
  await page.getByLabel('Open…').setInputFiles(path.join(FIXTURES, 'report.pdf'));
  const first = page.getByRole('region', { name: 'Markdown' }).locator('.page-section[data-page="1"]');
  const streaming = first.locator('.streaming');
  await expect(first.locator('.badge')).toHaveText('converting', { timeout: 30_000 });
  await expect(streaming.locator('.markdown-body')).not.toBeEmpty();
  const early = (await streaming.innerText()).length;
  await expect.poll(async () => (await streaming.innerText()).length).toBeGreaterThan(early + 20);
  await screenshot(page, '30-streaming');
  await expect(first.locator('.badge')).toHaveText('done', { timeout: 30_000 });
  await expect(streaming).toHaveCount(0);
  await expect(first.getByRole('heading', { name: 'Community Orchard: Season Report' })).toBeVisible();
  await expect(first.getByRole('table')).toBeVisible();
});
