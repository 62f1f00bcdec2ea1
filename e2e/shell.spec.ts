import { expect, test } from '@playwright/test';
import { startBridge, type Bridge } from '../electron/web/bridge-server.js';

let bridge: Bridge;
test.beforeAll(async () => {
  bridge = await startBridge({ settings: { engine: 'vlm' } });
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
  // the vision model's engine runs on an execution provider; why this one is the fact's detail (hover or click)
  const device = page.getByRole('status', { name: 'Status' }).getByLabel('Settings in use').locator('.status-fact', { hasText: 'Device:' });
  await expect(device).toContainText(/Device: (auto|cpu|webgpu|cuda:0)/);
  await expect(device.locator('.status-more')).toHaveAttribute('title', /cuda:0/);
  expect(problems).toEqual([]);
});
