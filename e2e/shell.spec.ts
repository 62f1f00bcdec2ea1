import { expect, test } from '@playwright/test';
import { startBridge, type Bridge } from '../electron/web/bridge-server.js';

let bridge: Bridge;
test.beforeAll(async () => {
  bridge = await startBridge({ settings: { engine: 'text' } });
});
test.afterAll(async () => {
  await bridge.close();
});

test('the window shell loads under the strict CSP and shows the execution provider with its reason', async ({ page }) => {
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(message.text());
  });
  page.on('pageerror', (error) => problems.push(error.message));
  await page.goto(bridge.url);
  await expect(page.getByRole('heading', { name: 'Folio' })).toBeVisible();
  await expect(page.locator('.status')).toContainText(/cpu \(CUDA libraries not installed|cuda:0/);
  expect(problems).toEqual([]);
});
