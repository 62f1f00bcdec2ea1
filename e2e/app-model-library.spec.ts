/**
 * The model manager in Settings, in the browser mode, against the stand-in Hub
 * (tools/bench/hub-test-server.ts) serving the tiny fixture package as repos: jina-ocr-v1 got from
 * the offered list with its licence shown and accepted first, installed and chosen; a gated repo's
 * message; a download cancelled, resumed, interrupted by the app closing and finished after it
 * reopens, fetching each byte about once; a package removed.
 */
import { cp, mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { startBridge, type Bridge } from '../electron/web/bridge-server.js';
import { startHubTestServer, type HubTestServer } from '../tools/bench/hub-test-server.js';
import { screenshot } from './support/app-page.js';

const TINY = path.resolve(import.meta.dirname, '../tools/model/fixtures/tiny');
const PACKAGE_FILES = ['decoder.onnx', 'decoder_capacity.onnx', 'embedding.onnx', 'mtp.onnx', 'tokenizer.json', 'vision_128.onnx', 'vision_256.onnx'];

let folder: string;
let hub: HubTestServer;
let hubEnv: Record<string, string>;
let bridge: Bridge;

test.beforeAll(async () => {
  folder = await mkdtemp(path.join(os.tmpdir(), 'folio-e2e-models-'));
  const nonCommercial = path.join(folder, 'jina');
  await cp(TINY, nonCommercial, { recursive: true });
  await writeFile(path.join(nonCommercial, 'README.md'), '---\nlicense: cc-by-nc-4.0\n---\n# stand-in for jina-ocr-v1\n');
  const mit = path.join(folder, 'mit');
  await cp(TINY, mit, { recursive: true });
  await writeFile(path.join(mit, 'README.md'), '---\nlicense: mit\n---\n# a package\n');
  hub = await startHubTestServer({
    repos: [
      { id: 'jinaai/jina-ocr-v1', dir: nonCommercial },
      { id: 'acme/slow-package', dir: mit },
      { id: 'acme/gated', dir: mit, gated: 'manual' },
    ],
  });
  hubEnv = { HF_ENDPOINT: hub.url, HF_HOME: path.join(folder, 'hf'), HF_TOKEN: '', HF_HUB_CACHE: '' };
  bridge = await startBridge({ dataDir: path.join(folder, 'data'), settings: { engine: 'text' }, hubEnv });
});

test.afterAll(async () => {
  await bridge?.close();
  await hub?.close();
  if (folder) await rm(folder, { recursive: true, force: true });
});

async function openSettings(page: Page, url: string) {
  await page.goto(url);
  await expect(page.getByRole('heading', { name: 'Nothing open yet' })).toBeVisible();
  await page.locator('body').press('ControlOrMeta+,');
  const settings = page.getByRole('dialog', { name: 'Settings' });
  // the model manager is among the vision model's options, shown when that engine is chosen
  await settings.getByRole('combobox', { name: 'Engine' }).selectOption({ label: 'Vision model (VLM)' });
  return settings;
}

test('jina-ocr-v1 got from the offered list: its licence shown and accepted before the download, then installed and chosen', async ({ page }) => {
  const settings = await openSettings(page, bridge.url);
  await expect(settings.getByText('None installed yet.')).toBeVisible();
  await settings.getByRole('button', { name: 'Get a model…' }).click();
  const form = settings.getByRole('group', { name: 'Get a model' });
  await form.getByRole('button', { name: 'jina-ocr-v1' }).click();
  await expect(form.getByRole('textbox', { name: 'Hugging Face repo or checkpoint folder' })).toHaveValue('jinaai/jina-ocr-v1');
  await expect(form.getByText('Licence of the weights: CC BY-NC 4.0, non-commercial use only.')).toBeVisible();
  await expect(form.getByText('a Folio model package, installed as it is')).toBeVisible();
  const install = form.getByRole('button', { name: 'Download and install' });
  await expect(install).toBeDisabled();
  await screenshot(page, '40-settings-model-licence');
  await form.getByRole('checkbox', { name: 'I accept the CC BY-NC 4.0 licence (non-commercial use only)' }).check();
  await install.click();

  const installed = settings.getByRole('list', { name: 'Installed models' }).getByRole('listitem', { name: 'jinaai/jina-ocr-v1 fp32' });
  await expect(installed).toBeVisible();
  await expect(installed).toContainText('licence CC BY-NC 4.0: non-commercial use only');
  await expect(installed).toContainText('for CPU, CUDA');
  await expect(settings.getByRole('status', { name: 'Download of jinaai/jina-ocr-v1' })).toContainText('Installed jinaai/jina-ocr-v1 (fp32).');
  await installed.getByRole('button', { name: 'Use' }).click();
  const folderOf = path.join(bridge.dataDir, 'models', 'jinaai--jina-ocr-v1--fp32');
  await expect(settings.getByRole('textbox', { name: 'Model package folder' })).toHaveValue(folderOf);
  await expect(installed).toContainText('in use');
  await screenshot(page, '41-settings-model-installed');
  // the status bar names the model the settings use, so only with an engine that uses it
  await settings.getByRole('combobox', { name: 'Engine' }).selectOption('vlm');
  await settings.getByRole('button', { name: 'Done' }).click();
  await expect.poll(async () => (await bridge.service.getSettings()).modelDir).toBe(folderOf);
  // the status bar names the model by its repo, not its folder
  await expect(page.getByText('Model: jinaai/jina-ocr-v1 (fp32)')).toBeVisible();
});

test('a gated repo is refused at look-up with where to accept its conditions and how to give a token', async ({ page }) => {
  const settings = await openSettings(page, bridge.url);
  await settings.getByRole('button', { name: 'Get a model…' }).click();
  const form = settings.getByRole('group', { name: 'Get a model' });
  await form.getByRole('textbox', { name: 'Hugging Face repo or checkpoint folder' }).fill('acme/gated');
  await form.getByRole('button', { name: 'Look up' }).click();
  await expect(form.getByRole('alert')).toContainText(`acme/gated is gated: its authors ask each user to accept their conditions before downloading. Accept them at ${hub.url}/acme/gated`);
  await expect(form.getByRole('alert')).toContainText('set HF_TOKEN');
  await expect(form.getByRole('button', { name: 'Download and install' })).toBeDisabled();
});

test('a download cancelled, resumed, stopped by the app closing and finished after it reopens, then removed', async ({ page }) => {
  test.setTimeout(180_000);
  hub.bytesSent.clear();
  hub.faults.bytesPerSecond = 250_000;
  let settings = await openSettings(page, bridge.url);
  await settings.getByRole('button', { name: 'Get a model…' }).click();
  const form = settings.getByRole('group', { name: 'Get a model' });
  await form.getByRole('textbox', { name: 'Hugging Face repo or checkpoint folder' }).fill('acme/slow-package');
  await form.getByRole('button', { name: 'Look up' }).click();
  await form.getByRole('checkbox', { name: 'I accept the MIT licence (any use, commercial included)' }).check();
  await form.getByRole('button', { name: 'Download and install' }).click();

  const status = settings.getByRole('status', { name: 'Download of acme/slow-package' });
  await expect(status).toContainText(/downloading [1-9][\d.]* (kB|MB) of \d+\.\d MB/);
  await screenshot(page, '42-settings-model-downloading');
  await status.getByRole('button', { name: 'Cancel' }).click();
  await expect(status).toContainText('Cancelled acme/slow-package: what arrived is kept, and Resume goes on from there.');
  const unfinished = settings.getByRole('list', { name: 'Unfinished downloads' }).getByRole('listitem', { name: 'acme/slow-package int4, unfinished' });
  await expect(unfinished).toBeVisible();

  await unfinished.getByRole('button', { name: 'Resume' }).click();
  await expect(status).toContainText(/downloading [1-9]/);
  // the app closes mid-download, and opens again on the same data folder
  await bridge.close();
  bridge = await startBridge({ dataDir: path.join(folder, 'data'), settings: { engine: 'text' }, hubEnv });
  hub.faults.bytesPerSecond = undefined;
  settings = await openSettings(page, bridge.url);
  const reopened = settings.getByRole('list', { name: 'Unfinished downloads' }).getByRole('listitem', { name: 'acme/slow-package int4, unfinished' });
  await expect(reopened).toContainText('Stopped: cancelled; what was downloaded is kept');
  await reopened.getByRole('button', { name: 'Resume' }).click();
  const installed = settings.getByRole('list', { name: 'Installed models' }).getByRole('listitem', { name: 'acme/slow-package fp32' });
  await expect(installed).toBeVisible();
  await expect(settings.getByRole('list', { name: 'Unfinished downloads' })).toHaveCount(0);

  // three starts, one byte stream: each file sent about once (what was in flight at each stop aside)
  const sizes = await Promise.all(PACKAGE_FILES.map(async (file) => (await stat(path.join(TINY, file))).size));
  const whole = sizes.reduce((sum, size) => sum + size, 0);
  const sent = PACKAGE_FILES.reduce((sum, file) => sum + (hub.bytesSent.get(`acme/slow-package/${file}`) ?? 0), 0);
  expect(sent).toBeGreaterThanOrEqual(whole);
  expect(sent).toBeLessThan(whole + 1_000_000);

  await installed.getByRole('button', { name: 'Remove…' }).click();
  await installed.getByRole('button', { name: /^Remove \d+\.\d MB$/ }).click();
  await expect(installed).toHaveCount(0);
});
