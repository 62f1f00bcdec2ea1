/**
 * Robustness over PDF.js's bug-report corpus (`../shared/corpus/pdfjs` beside the clone, or under
 * FOLIO_CORPUS_ROOT): every file converts, or fails with a specific reason, within its time limit,
 * and the process driving the conversions never dies. All 905 files, about 15 s on an idle machine;
 * under CI a missing corpus fails (test/environment.ts).
 */

import { existsSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { forkHost } from '../../electron/core/engine-client/fork-host.js';
import { convertCorpus, type CorpusLimits } from './convert-corpus.js';
import { formatCorpusSummary, summariseCorpus } from './corpus-summary.js';
import { readCorpusPasswords } from './corpus-passwords.js';
import { needs, PDFJS_CORPUS } from '../environment.js';

const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));
const CORPUS_ROOT = path.join(process.env.FOLIO_CORPUS_ROOT ?? path.resolve(REPO_ROOT, '../shared/corpus'), 'pdfjs');
const CORPUS_DIR = path.join(CORPUS_ROOT, 'pdfs');
/** The built host, as the CLI runs it; `npm test` builds before it tests. */
const HOST_MODULE = path.join(REPO_ROOT, 'dist/electron/engine/host.js');

const LIMITS: CorpusLimits = { pageTimeoutMs: 20_000, openTimeoutMs: 20_000, fileTimeoutMs: 60_000 };

const missing = existsSync(CORPUS_DIR) ? null : `no corpus at ${CORPUS_DIR} (../shared/corpus/pdfjs beside the clone, or FOLIO_CORPUS_ROOT)`;

describe('robustness over the pdf.js corpus', () => {
  it(
    'every file converts or fails with a specific reason, and the batch runs to its end',
    { ...needs(PDFJS_CORPUS, missing), timeout: 30 * 60_000 },
    async () => {
      expect(existsSync(HOST_MODULE), `${HOST_MODULE} is missing: run npm run build first`).toBe(true);
      const files = (await readdir(CORPUS_DIR)).filter((name) => name.endsWith('.pdf')).sort();
      const passwords = await readCorpusPasswords(CORPUS_ROOT);
      const started = performance.now();
      const outcomes = await convertCorpus(CORPUS_DIR, files, passwords, () => forkHost({ modulePath: HOST_MODULE }), LIMITS);
      const summary = summariseCorpus(outcomes, performance.now() - started);
      console.log(`\n${formatCorpusSummary(summary)}\n`);

      expect(outcomes.map((o) => path.basename(o.file))).toEqual(files);
      // A file converts whole, or says why not: no page may go missing without a reason.
      for (const o of outcomes) {
        if (!o.timedOut && o.failures.length === 0) expect(o.pagesConverted, o.file).toBe(o.pageCount);
      }
      // An `internal` failure is a bug of ours, not of the file: every failure must say what is wrong with the file.
      expect(summary.internal.map((o) => `${o.file}: ${o.failures.map((f) => f.message).join('; ')}`)).toEqual([]);
    },
  );
});
