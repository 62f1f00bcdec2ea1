/**
 * Where the tests find real-docs (../shared/real-docs beside the repository, as in CI): tests that
 * read it fail under CI when it is missing, and are skipped elsewhere with the reason.
 */

import { existsSync } from 'node:fs';
import { expect, it } from 'vitest';
import { REAL_DOCS_DIR } from '../../tools/bench/real-docs/build.js';

export const realDocsPresent = existsSync(REAL_DOCS_DIR);

/** Stands in for a suite that needs real-docs when it is missing. */
export function missingRealDocs(): void {
  const reason = `no real-docs at ${REAL_DOCS_DIR} (../shared/real-docs beside the repository, or FOLIO_REAL_DOCS)`;
  if (process.env.CI === 'true') it(`fails in CI: ${reason}`, () => expect.unreachable(reason));
  else it.skip(`skipped: ${reason}`, () => {});
}

export { REAL_DOCS_DIR };
