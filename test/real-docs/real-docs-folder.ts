/** Where the tests find real-docs (../shared/real-docs beside the repository, as in CI), and why not when it is missing. */

import { existsSync } from 'node:fs';
import { REAL_DOCS_DIR } from '../../tools/bench/real-docs/build.js';

/** For `needs(REAL_DOCS, realDocsProblem)` (test/environment.ts). */
export const realDocsProblem = existsSync(REAL_DOCS_DIR) ? null : `no real-docs at ${REAL_DOCS_DIR} (../shared/real-docs beside the repository, or FOLIO_REAL_DOCS)`;

export { REAL_DOCS_DIR };
