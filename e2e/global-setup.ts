/** Playwright global setup: the fixture PDFs the specs open, printed if missing (as vitest's setup does). */

import { buildFixtures } from '../test/fixtures/build-fixtures.js';

export default async function setup(): Promise<void> {
  const { printed } = await buildFixtures();
  if (printed.length > 0) console.log(`Printed ${printed.length} fixture PDF(s): ${printed.join(', ')}`);
}
