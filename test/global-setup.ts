/**
 * Vitest's and Playwright's global setup: prints the fixture PDFs and makes the scans from them, once per test run and
 * only those whose sources changed. Here, before any test file starts, because test files run in
 * parallel processes: when each built the scans it uses, two could write the same file at once,
 * or one read a scan another had half written (a fresh clone's first run).
 */

import { buildFixtures } from './fixtures/build-fixtures.js';
import { buildDocumentScans } from './scans/document-scans.js';
import { buildScanFixtures } from './scans/scan-fixtures.js';
import { buildTurnedScans } from './scans/turned-scans.js';

export default async function setup(): Promise<void> {
  const { printed } = await buildFixtures();
  if (printed.length > 0) console.log(`Printed ${printed.length} fixture PDF(s): ${printed.join(', ')}`);
  await buildScanFixtures();
  await buildTurnedScans();
  await buildDocumentScans();
}
