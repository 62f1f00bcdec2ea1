/** Vitest global setup: prints the fixture PDFs once per test run (only those whose HTML changed). */

import { buildFixtures } from './fixtures/build-fixtures.js';

export default async function setup(): Promise<void> {
  const { printed } = await buildFixtures();
  if (printed.length > 0) console.log(`Printed ${printed.length} fixture PDF(s): ${printed.join(', ')}`);
}
