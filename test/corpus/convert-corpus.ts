/**
 * Converts corpus files through the engine host and its supervisor, as the CLI does: every page
 * of every file with the text engine, a time limit per page and per file, a fresh host after a
 * crash or hang. Reports what happened to each file; never throws for a file's sake.
 */

import path from 'node:path';
import type { FailureCode } from '../../shared/failure.js';
import { DEFAULT_CONVERT_OPTIONS } from '../../shared/protocol.js';
import { toFailure } from '../../electron/core/failure-error.js';
import { HostClient } from '../../electron/core/engine-client/host-client.js';
import type { SpawnHost } from '../../electron/core/engine-client/host-process.js';
import { wordCount } from './text-coverage.js';

export interface CorpusLimits {
  pageTimeoutMs: number;
  openTimeoutMs: number;
  /** A file still converting after this long is stopped and counted as timed out. */
  fileTimeoutMs: number;
}

export interface FileOutcome {
  file: string;
  pageCount: number;
  pagesConverted: number;
  /** Words of the Markdown written for the converted pages, image links left out (text-coverage.ts). */
  words: number;
  /** Failures of the document (page undefined) or of single pages. */
  failures: { page?: number; code: FailureCode; message: string }[];
  /** Stopped by the per-file limit. */
  timedOut: boolean;
  ms: number;
}

export async function convertCorpus(
  corpusDir: string,
  files: readonly string[],
  passwords: ReadonlyMap<string, string>,
  spawnHost: SpawnHost,
  limits: CorpusLimits,
  onFile?: (outcome: FileOutcome) => void,
): Promise<FileOutcome[]> {
  const client = new HostClient({ spawnHost, pageTimeoutMs: limits.pageTimeoutMs, openTimeoutMs: limits.openTimeoutMs });
  const outcomes: FileOutcome[] = [];
  try {
    for (const file of files) {
      const outcome = await convertFile(client, path.join(corpusDir, file), passwords.get(file), limits.fileTimeoutMs);
      outcomes.push({ ...outcome, file });
      onFile?.(outcomes.at(-1)!);
    }
  } finally {
    client.dispose();
  }
  return outcomes;
}

async function convertFile(client: HostClient, file: string, password: string | undefined, fileTimeoutMs: number): Promise<FileOutcome> {
  const started = performance.now();
  const signal = AbortSignal.timeout(fileTimeoutMs);
  const outcome: FileOutcome = { file, pageCount: 0, pagesConverted: 0, words: 0, failures: [], timedOut: false, ms: 0 };
  try {
    const doc = await client.open(file, password, signal);
    outcome.pageCount = doc.info.pageCount;
    try {
      const pages = Array.from({ length: doc.info.pageCount }, (_, i) => i + 1);
      const { cancelled } = await client.convert(doc, pages, { ...DEFAULT_CONVERT_OPTIONS, engine: 'text' }, {
        pageDone: (result) => {
          outcome.pagesConverted++;
          outcome.words += wordCount(result.markdown);
        },
        pageFailed: (page, failure) => outcome.failures.push({ page, ...failure }),
      }, signal);
      outcome.timedOut = cancelled;
    } finally {
      client.close(doc);
    }
  } catch (error) {
    if (signal.aborted) outcome.timedOut = true;
    else outcome.failures.push(toFailure(error));
  }
  outcome.ms = performance.now() - started;
  return outcome;
}
