/**
 * What drawing the UI costs a fast conversion: the same 2,000-page PDF converted by the text engine
 * through the browser bridge, once with only `window.folio` listening and once with the renderer
 * showing it, one after the other in one run. Prints pages/s for each and their ratio.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { test } from '@playwright/test';
import { startBridge } from '../../electron/web/bridge-server.js';
import { writeLongPdf } from '../support/long-pdf.js';

const PAGES = 2000;
/** Pages timed after the first one is done (the first carries the host's start-up). */
const TIMED = 400;

test('pages per second with and without the UI drawing them', async ({ page }) => {
  const scratch = await mkdtemp(path.join(os.tmpdir(), 'folio-bench-'));
  const file = path.join(scratch, 'long.pdf');
  await writeLongPdf(file, PAGES);
  const rates: Record<string, number> = {};
  try {
    for (const withUi of [false, true]) {
      const bridge = await startBridge({ settings: { engine: 'text' } });
      try {
        await page.goto(bridge.url);
        const timing = page.evaluate(
          (timed) =>
            new Promise<number>((resolve) => {
              let done = 0;
              let started = 0;
              window.folio.onWorkspaceEvent((event) => {
                if (event.type !== 'page-done') return;
                done++;
                if (done === 1) started = performance.now();
                if (done === timed + 1) resolve((performance.now() - started) / 1000);
              });
            }),
          TIMED,
        );
        if (withUi) await page.getByLabel('Open…').setInputFiles(file);
        else {
          const bytes = [...(await readFile(file))];
          await page.evaluate(async (data) => {
            const picked = new File([new Uint8Array(data)], 'long.pdf', { type: 'application/pdf' });
            const [docId] = await window.folio.openDocuments([await window.folio.pathForFile(picked)]);
            await window.folio.convert({ docId: docId! });
          }, bytes);
        }
        rates[withUi ? 'with the UI' : 'window.folio only'] = TIMED / (await timing);
      } finally {
        await bridge.close();
      }
    }
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
  for (const [name, rate] of Object.entries(rates)) console.log(`${name.padEnd(18)} ${rate.toFixed(1)} pages/s`);
  console.log(`UI / no UI: ${(rates['with the UI']! / rates['window.folio only']!).toFixed(2)}x`);
});
