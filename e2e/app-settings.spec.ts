/**
 * Settings for the remote engine, as a person sets them up in the browser mode: a server, a model,
 * an API key, the model folder picker with its check, then a PDF converted through the server
 * with its Markdown streaming in; the key must be in no file the bridge wrote. Then the nano demo
 * model chosen by name, labelled wherever the model is named, and used to convert a page.
 */
import { cp, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { findDemoModel } from '../shared/demo-models.js';
import { startTestServer, type TestServer } from '../tools/bench/openai-test-server.js';
import { startBridge, type Bridge } from '../electron/web/bridge-server.js';
import { dropFile, FIXTURES, screenshot } from './support/app-page.js';

const API_KEY = 'sk-folio-e2e-5d81b2';
const TINY_PACKAGE = path.resolve(import.meta.dirname, '../tools/model/fixtures/tiny');
const ANSWER = 'Read remotely by the test server, word by word.';

let server: TestServer;
let bridge: Bridge;
test.beforeAll(async () => {
  server = await startTestServer({ apiKey: API_KEY, answer: () => ANSWER, tokenDelayMs: 30 });
  bridge = await startBridge({ settings: { engine: 'text' }, modelFolder: TINY_PACKAGE });
});
test.afterAll(async () => {
  await bridge?.close();
  await server?.close();
});

test('a remote server, its API key and a model folder set in Settings; a PDF converts through the server and the key is in no file', async ({ page }) => {
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(message.text());
  });
  await page.goto(bridge.url);
  await expect(page.getByRole('heading', { name: 'Nothing open yet' })).toBeVisible();
  await page.locator('body').press('ControlOrMeta+,');
  const settings = page.getByRole('dialog', { name: 'Settings' });
  const engine = settings.getByRole('combobox', { name: 'Engine' });

  // each engine shows its own options only: the text layer has none, the OCR engine its language
  await expect(settings.getByRole('textbox', { name: 'Model package folder' })).toHaveCount(0);
  await expect(settings.getByText('Advanced')).toHaveCount(0);
  await engine.selectOption({ label: 'Scan OCR (lite)' });
  await settings.getByRole('combobox', { name: 'Scan OCR language' }).selectOption('fr');
  await engine.selectOption({ label: 'Vision model (VLM)' });
  await expect(settings.getByRole('combobox', { name: 'Scan OCR language' })).toHaveCount(0);

  // a typed folder that is no package is named with the loader's reason; Choose… takes the bridge's package
  const modelFolder = settings.getByRole('textbox', { name: 'Model package folder' });
  await modelFolder.fill(bridge.dataDir);
  await modelFolder.blur();
  await expect(settings.getByRole('alert')).toContainText('no manifest.json here');
  await expect(modelFolder).toHaveAttribute('aria-invalid', 'true');
  await screenshot(page, '29-settings-model-folder-problem');
  await settings.getByRole('button', { name: 'Choose…' }).click();
  await expect(modelFolder).toHaveValue(TINY_PACKAGE);
  await expect(settings.getByRole('alert')).toHaveCount(0);
  // the vlm engine's pages decoding together: a number, or measured on the device
  await settings.getByText('Advanced').click();
  const inFlight = settings.getByRole('combobox', { name: 'Pages decoding together (CPU)' });
  await expect(inFlight).toHaveValue('1');
  await inFlight.selectOption({ label: 'Automatic (measured on this device)' });
  await expect(inFlight).toHaveValue('auto');
  await settings.getByText('Advanced').click();

  await engine.selectOption({ label: 'Remote server' });
  await expect(modelFolder).toHaveCount(0);
  const address = settings.getByRole('textbox', { name: 'Server address' });
  await address.fill('ftp://gpu-box');
  await expect(address).toHaveAttribute('aria-invalid', 'true');
  // no scheme typed means plain http, as a browser's address bar reads it
  await address.fill('gpu-box:8000');
  await expect(address).toHaveAttribute('aria-invalid', 'false');
  await address.fill(server.url);
  await expect(address).toHaveAttribute('aria-invalid', 'false');
  await settings.getByRole('textbox', { name: 'Model name' }).fill('test-ocr');
  await settings.getByText('Advanced').click();
  await settings.getByRole('spinbutton', { name: 'Pages in flight' }).fill('2');
  await expect(settings.getByText('No key stored.')).toBeVisible();
  await settings.getByLabel('API key').fill(API_KEY);
  await settings.getByRole('button', { name: 'Save key' }).click();
  await expect(settings.getByText('A key is stored.')).toBeVisible();
  await expect(settings.getByLabel('API key')).toHaveValue('');
  await screenshot(page, '30-settings-remote');
  await settings.getByRole('button', { name: 'Done' }).click();

  await expect.poll(async () => bridge.service.getSettings()).toMatchObject({
    engine: 'remote',
    remoteServer: server.url,
    remoteModel: 'test-ocr',
    remoteConcurrency: 2,
    modelDir: TINY_PACKAGE,
    ocrLang: 'fr',
    pagesInFlight: 'auto',
  });
  expect(await bridge.service.hasApiKey()).toBe(true);

  await dropFile(page, path.join(FIXTURES, 'letter.pdf'));
  const markdown = page.getByRole('region', { name: 'Markdown' });
  await expect(page.getByText('1 of 1 pages done')).toBeVisible({ timeout: 20_000 });
  await expect(markdown.locator('.page-section[data-page="1"]')).toContainText(ANSWER);
  await screenshot(page, '31-converted-remote');
  expect(server.stats.completed.length).toBe(1);
  expect(server.stats.seen.every((request) => request.authorization === `Bearer ${API_KEY}`)).toBe(true);

  const entries = await readdir(bridge.dataDir, { recursive: true, withFileTypes: true });
  const files = entries.filter((entry) => entry.isFile()).map((entry) => path.join(entry.parentPath, entry.name));
  expect(files.map((file) => path.basename(file))).toContain('settings.json');
  for (const file of files) expect((await readFile(file)).includes(API_KEY), file).toBe(false);
  expect(problems).toEqual([]);
});

test('the nano demo model, chosen in Settings, is labelled as trained on synthetic pages only and converts a page', async ({ page }) => {
  // a copy of the tiny package stands in for nano, found by main through FOLIO_DEMO_MODELS as the app finds its resources
  const scratch = await mkdtemp(path.join(os.tmpdir(), 'folio-e2e-demo-'));
  const standIns = path.join(scratch, 'demo-models');
  await cp(TINY_PACKAGE, path.join(standIns, 'nano'), { recursive: true });
  const label = findDemoModel('nano-demo')!.label;
  process.env.FOLIO_DEMO_MODELS = path.join(scratch, 'not-installed');
  const demoBridge = await startBridge({ settings: { engine: 'vlm', maxNewTokens: 12, specK: 0 } });
  try {
    const problems: string[] = [];
    page.on('pageerror', (error) => problems.push(error.message));
    await page.goto(demoBridge.url);
    const status = page.getByRole('status', { name: 'Status' });
    // the dialog takes its fields from the settings as loaded: opened sooner, Done would save the defaults' token limit
    await expect(status).toContainText('Engine: Vision model (VLM)');
    await page.locator('body').press('ControlOrMeta+,');
    const settings = page.getByRole('dialog', { name: 'Settings' });
    const modelFolder = settings.getByRole('textbox', { name: 'Model package folder' });
    const useDemo = settings.getByRole('button', { name: 'Use the nano demo model' });

    await useDemo.click();
    await expect(settings.getByRole('alert')).toContainText('the nano-demo model is not installed');
    await expect(modelFolder).toHaveValue('');

    process.env.FOLIO_DEMO_MODELS = standIns;
    await useDemo.click();
    await expect(modelFolder).toHaveValue(path.join(standIns, 'nano'));
    await expect(settings.getByRole('alert')).toHaveCount(0);
    await expect(settings.getByText(label)).toBeVisible();
    await expect(modelFolder).toHaveAccessibleDescription(label);
    await screenshot(page, '32-settings-demo-model');
    await settings.getByRole('button', { name: 'Done' }).click();
    await expect.poll(async () => (await demoBridge.service.getSettings()).modelDir).toBe(path.join(standIns, 'nano'));

    await expect(status).toContainText(`Model: ${label}`);
    await dropFile(page, path.join(FIXTURES, 'headings.pdf'));
    await expect(page.getByText('1 of 1 pages done')).toBeVisible({ timeout: 30_000 });
    await expect(status).toContainText('Vision model (VLM)');
    await expect(status).toContainText(`Model: ${label}`);
    const [converted] = (await demoBridge.service.getWorkspace()).documents;
    expect(converted?.pages[0]?.result?.stats?.decode).toMatchObject({ model: 'folio-tiny', newTokens: 12 });
    await screenshot(page, '33-demo-model-converted');

    // reopened, the dialog checks the saved folder and names it as the demo again
    await page.locator('body').press('ControlOrMeta+,');
    await expect(settings.getByText(label)).toBeVisible();
    expect(problems).toEqual([]);
  } finally {
    delete process.env.FOLIO_DEMO_MODELS;
    await demoBridge.close();
    await rm(scratch, { recursive: true, force: true });
  }
});
