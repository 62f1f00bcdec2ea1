/**
 * Settings in the user's words and export of several documents, as a person uses them in the browser
 * mode: the remote server tested before any page is sent (refused, then asking for its key, then
 * listing its model, chosen from the list), only the chosen engine's options with the internals
 * under Advanced; then two documents exported at once with visible page breaks in every format (the
 * dialog staying open while it writes), the dialog's choices still there when it is opened again,
 * after a reload too.
 */
import { readFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { createServer } from 'node:net';
import path from 'node:path';
import { strFromU8, unzipSync } from 'fflate';
import { expect, test } from '@playwright/test';
import { startTestServer, type TestServer } from '../tools/bench/openai-test-server.js';
import { startBridge, type Bridge } from '../electron/web/bridge-server.js';
import { dropFile, FIXTURES, screenshot } from './support/app-page.js';

const API_KEY = 'sk-folio-e2e-test-connection-41c7';
const MODEL = 'folio-ocr-remote-7b';

let server: TestServer;
let bridge: Bridge;
test.beforeAll(async () => {
  server = await startTestServer({ apiKey: API_KEY, models: [MODEL] });
  bridge = await startBridge({ settings: { engine: 'text' } });
});
test.afterAll(async () => {
  await bridge?.close();
  await server?.close();
});

test('Test connection says what is wrong in words, lists the server model to choose from; internals wait under Advanced', async ({ page }) => {
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(error.message));
  await page.goto(bridge.url);
  await expect(page.getByRole('heading', { name: 'Nothing open yet' })).toBeVisible();
  await page.locator('body').press('ControlOrMeta+,');
  const settings = page.getByRole('dialog', { name: 'Settings' });
  await settings.getByRole('combobox', { name: 'Engine' }).selectOption({ label: 'Remote server' });
  // the vision model's internals are no business of the remote engine, shown or hidden
  await expect(settings.getByRole('textbox', { name: 'Model package folder' })).toHaveCount(0);
  await expect(settings.getByRole('textbox', { name: 'Resolution mode' })).toHaveCount(0);

  const address = settings.getByRole('textbox', { name: 'Server address' });
  const testButton = settings.getByRole('button', { name: 'Test connection' });
  const result = settings.getByLabel('Connection test');

  // nothing listens there: refused, said as such, with http:// added to the bare host
  const closedPort = await freePort();
  await address.fill(`127.0.0.1:${closedPort}`);
  await testButton.click();
  await expect(result).toContainText(`http://127.0.0.1:${closedPort} refused the connection`);

  // the server wants a key that is not stored yet
  const bare = server.url.replace('http://', '');
  await address.fill(bare);
  await testButton.click();
  await expect(result).toContainText('asks for an API key');
  await expect(result).toHaveAttribute('role', 'alert');

  await settings.getByLabel('API key').fill(API_KEY);
  await settings.getByRole('button', { name: 'Save key' }).click();
  await expect(settings.getByText('A key is stored.')).toBeVisible();
  await testButton.click();
  await expect(result).toContainText(`lists one model: ${MODEL}`);
  await expect(result).toHaveAttribute('role', 'status');

  // the model is chosen from the server's list, and stays typeable
  const modelName = settings.getByRole('textbox', { name: 'Model name' });
  await settings.getByRole('combobox', { name: 'Models the server lists' }).selectOption(MODEL);
  await expect(modelName).toHaveValue(MODEL);
  await modelName.fill('no-such-model');
  await expect(settings.getByText('The server does not list “no-such-model”')).toBeVisible();
  await settings.getByRole('combobox', { name: 'Models the server lists' }).selectOption(MODEL);
  await expect(modelName).toHaveValue(MODEL);

  // how pages are sent waits under Advanced
  const inFlight = settings.getByRole('spinbutton', { name: 'Pages in flight' });
  await expect(inFlight).toBeHidden();
  await settings.getByText('Advanced').click();
  await expect(inFlight).toBeVisible();
  await expect(settings.getByRole('spinbutton', { name: 'Token limit per page' })).toBeVisible();
  await expect(settings.getByRole('combobox', { name: 'Device' })).toHaveCount(0);
  await screenshot(page, '50-settings-test-connection');
  await settings.getByRole('button', { name: 'Done' }).click();
  await expect.poll(async () => bridge.service.getSettings()).toMatchObject({ engine: 'remote', remoteServer: server.url, remoteModel: MODEL });

  // the vision model's internals, under its own Advanced; the text layer has none
  await page.locator('body').press('ControlOrMeta+,');
  await settings.getByRole('combobox', { name: 'Engine' }).selectOption({ label: 'Vision model (VLM)' });
  await expect(settings.getByRole('textbox', { name: 'Server address' })).toHaveCount(0);
  await settings.getByText('Advanced').click();
  await expect(settings.getByRole('combobox', { name: 'Device' })).toBeVisible();
  await expect(settings.getByRole('textbox', { name: 'Resolution mode' })).toBeVisible();
  await settings.getByRole('combobox', { name: 'Engine' }).selectOption({ label: 'Text layer' });
  await expect(settings.getByText('Advanced')).toHaveCount(0);
  await settings.getByRole('button', { name: 'Done' }).click();

  // the test only asked for the model list: no page went to the server
  expect(server.stats.seen).toEqual([]);
  expect(problems).toEqual([]);
});

test('two documents exported at once with visible page breaks in every format; the choices are there when the dialog opens again', async ({ page }) => {
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(error.message));
  // the export request is held on its way to the bridge until the test lets it go, so that the dialog is seen while it works
  let releaseExport = () => {};
  const exportHeld = new Promise<void>((resolve) => (releaseExport = resolve));
  await page.routeWebSocket(/./, (socket) => {
    const server = socket.connectToServer();
    socket.onMessage((message) => {
      if ((JSON.parse(String(message)) as { method?: string }).method === 'exportDocuments') void exportHeld.then(() => server.send(message));
      else server.send(message);
    });
  });
  await page.goto(bridge.url);
  await dropFile(page, path.join(FIXTURES, 'running-headers.pdf'));
  await expect(page.getByText('4 of 4 pages done')).toBeVisible({ timeout: 30_000 });
  await dropFile(page, path.join(FIXTURES, 'table-two-pages.pdf'));
  await expect(page.getByText('2 of 2 pages done')).toBeVisible({ timeout: 30_000 });

  await page.getByRole('button', { name: 'Export…' }).click();
  let dialog = page.getByRole('dialog', { name: /^Export / });
  await dialog.getByRole('radio', { name: 'All 2 documents' }).check();
  await expect(dialog.getByRole('radio', { name: /Whole document/ })).toHaveCount(0);
  for (const format of [/HTML/, /Word/, /LaTeX/]) await dialog.getByRole('checkbox', { name: format }).check();
  await expect(dialog.getByText('pdflatex has no Chinese, Japanese or Korean fonts')).toBeVisible();
  await dialog.getByRole('checkbox', { name: 'Page breaks between pages' }).check();
  await dialog.getByRole('button', { name: 'Choose folder…' }).click();
  await dialog.getByRole('button', { name: 'Export', exact: true }).click();
  // while the files are written the dialog cannot be closed: Escape and Cancel would hide the result, not stop the export
  await expect(dialog.getByRole('button', { name: 'Exporting…' })).toBeDisabled();
  await expect(dialog.getByRole('button', { name: 'Cancel' })).toBeDisabled();
  await page.keyboard.press('Escape');
  await expect(dialog).toBeVisible();
  releaseExport();
  await expect(dialog.getByRole('status')).toContainText('Wrote 8 files');
  await screenshot(page, '51-export-two-documents');

  const stems = ['running-headers', 'table-two-pages'];
  const written = (await dialog.getByRole('status').getByRole('listitem').allTextContents()).sort();
  expect(written).toEqual(stems.flatMap((stem) => ['docx', 'html', 'md', 'tex'].map((format) => path.join(bridge.exportDir, `${stem}.${format}`))).sort());
  for (const stem of stems) {
    const file = (format: string) => path.join(bridge.exportDir, `${stem}.${format}`);
    const markdown = await readFile(file('md'), 'utf8');
    expect(markdown).toContain('*Page 1*');
    expect(markdown).toContain('\n\n---\n\n<!-- page 2 -->\n*Page 2*\n\n');
    const html = await readFile(file('html'), 'utf8');
    expect(html).toMatch(/<hr>\s*(<!-- page 2 -->\s*)?<p><em>Page 2<\/em><\/p>/);
    expect(await readFile(file('tex'), 'utf8')).toContain('\n\\newpage\n');
    const docx = strFromU8(unzipSync(new Uint8Array(await readFile(file('docx'))))['word/document.xml']!);
    expect(docx).toContain('<w:br w:type="page"/>');
  }

  // a browser cannot open the file manager: the folder's path is shown instead
  await dialog.getByRole('button', { name: 'Show in folder' }).click();
  await expect(dialog.getByText('The folder cannot be opened from this browser')).toContainText(bridge.exportDir);

  // opened again, and after a reload, the dialog starts from the last export's choices
  await dialog.getByRole('button', { name: 'Close' }).click();
  for (const reload of [false, true]) {
    if (reload) await page.reload();
    await expect(page.getByRole('button', { name: 'Export…' })).toBeEnabled();
    await page.getByRole('button', { name: 'Export…' }).click();
    dialog = page.getByRole('dialog', { name: /^Export / });
    for (const format of [/Markdown/, /HTML/, /Word/, /LaTeX/]) await expect(dialog.getByRole('checkbox', { name: format })).toBeChecked();
    await expect(dialog.getByRole('checkbox', { name: 'Page breaks between pages' })).toBeChecked();
    await expect(dialog.getByRole('checkbox', { name: 'Figures to an assets folder' })).toBeChecked();
    await expect(dialog.getByText(bridge.exportDir)).toBeVisible();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
  }
  expect((await bridge.service.getSettings()).exportChoices).toEqual({ formats: ['md', 'html', 'docx', 'tex'], pageBreaks: true, assets: true, folder: bridge.exportDir });
  expect(problems).toEqual([]);
});

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}
