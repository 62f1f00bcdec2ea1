/**
 * The nano demo model (tools/model/fixtures/nano, trained on synthetic pages) reading a held-out
 * synthetic page in the browser-mode app: the real engine host, the real VLM engine on
 * onnxruntime-node, speculative decoding with the model's FastMTP head. The page's Markdown
 * streams in token by token, then settles into the page's text. The nano model writes a page in
 * well under a second, which a test can miss whole, so the host waits 25 ms after each piece it
 * streams, and holds the model's open 3 s so the conversion bar can be seen saying so
 * (e2e/support/paced-host.mjs).
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { findDemoModel } from '../shared/demo-models.js';
import { levenshtein } from '../shared/text-match/fuzzy-match.js';
import type { Bridge } from '../electron/web/bridge-server.js';
import { startPacedBridge } from './support/paced-bridge.js';
import { dropFile, screenshot } from './support/app-page.js';

const NANO = path.resolve(import.meta.dirname, '../tools/model/fixtures/nano');
const PAGE = path.join(NANO, 'pages/heldout-0001');
/** As the CLI test (test/cli-vlm-nano.test.ts): this page measured 0.048. */
const CER_LIMIT = 0.08;

let bridge: Bridge;
test.beforeAll(async () => {
  bridge = await startPacedBridge({ engine: 'vlm', modelDir: NANO, specK: 3, maxNewTokens: 400 }, { FOLIO_PACE_MS: '0', FOLIO_STREAM_CHUNK: '16', FOLIO_STREAM_MS: '25', FOLIO_PREPARE_MS: '3000' });
});
test.afterAll(async () => {
  await bridge.close();
});

test('the nano model\'s Markdown for a synthetic page streams in and settles into the page\'s text', async ({ page }) => {
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(error.message));
  await page.goto(bridge.url);
  await expect(page.getByRole('status', { name: 'Status' })).toContainText(`Model: ${findDemoModel('nano-demo')!.label}`);
  await dropFile(page, `${PAGE}.pdf`);
  // the model's open (held 3 s by the host) is said in the conversion bar while it lasts
  await expect(page.locator('.progress-text')).toContainText('opening the model…', { timeout: 30_000 });
  const first = page.getByRole('region', { name: 'Markdown' }).locator('.page-section[data-page="1"]');
  const streaming = first.locator('.streaming');
  await expect(streaming.locator('.markdown-body')).not.toBeEmpty({ timeout: 30_000 });
  const early = (await streaming.innerText()).length;
  await expect.poll(async () => (await streaming.innerText()).length).toBeGreaterThan(early);
  await screenshot(page, '34-nano-streaming');
  await expect(first.locator('.badge')).toHaveText('done', { timeout: 60_000 });
  await expect(streaming).toHaveCount(0);
  await screenshot(page, '35-nano-done');

  const truth = (await readFile(`${PAGE}.md`, 'utf8')).trim();
  const [converted] = (await bridge.service.getWorkspace()).documents;
  const result = converted?.pages[0]?.result;
  expect(result?.stats?.decode).toMatchObject({ model: 'folio-nano-synthetic' });
  const markdown = (result?.markdown ?? '').trim();
  expect(levenshtein(markdown, truth) / truth.length, markdown).toBeLessThan(CER_LIMIT);
  expect(problems).toEqual([]);
});
