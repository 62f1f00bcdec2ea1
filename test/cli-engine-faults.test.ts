/**
 * `folio convert` when its engine host dies: at start-up, mid-page, and again while a fresh host
 * reopens the document. What the user sees is checked: the written `.md` and `.json`, the lines on
 * stderr and the exit status. The hosts are the real engine with faults injected (faulty-host.mjs).
 */

import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { convertInProcess } from './in-process-convert.js';
import { forkHost } from '../electron/core/engine-client/fork-host.js';
import { repoRoot } from './folio-process.js';
import { writeSampleDocuments, type SampleDocuments } from './sample-documents.js';

const faultyHost = path.join(repoRoot, 'test/fake-hosts/faulty-host.mjs');

type HostEnv = Record<string, string>;

let folder: string;
let docs: SampleDocuments;
let outCount = 0;

beforeAll(async () => {
  if (!existsSync(path.join(repoRoot, 'dist/electron/engine/host-loop.js'))) throw new Error('The engine is not built; run "npm run build" before these tests.');
  folder = await mkdtemp(path.join(os.tmpdir(), 'folio-cli-faults-'));
  docs = await writeSampleDocuments(folder);
});

afterAll(async () => {
  if (folder) await rm(folder, { recursive: true, force: true });
});

/** Converts `file` to md and json with the n-th engine host started with `faults(n)` in its environment. */
async function convertWithFaults(file: string, faults: (spawn: number) => HostEnv) {
  const outDir = path.join(folder, `out-${++outCount}`);
  let spawned = 0;
  const { code, stderr } = await convertInProcess([file, '-o', outDir, '--format', 'md,json'], {
    spawnHost: () => forkHost({ modulePath: faultyHost, env: { ...process.env, ...faults(++spawned) } }),
  });
  const stem = path.join(outDir, path.basename(file, '.pdf'));
  const json = JSON.parse(await readFile(`${stem}.json`, 'utf8')) as { pages: { page: number }[]; failures: { page: number; failure: { code: string } }[] };
  return { code, stderr, spawned, markdown: await readFile(`${stem}.md`, 'utf8'), json };
}

describe('folio convert when its engine host dies', () => {
  it('survives a host killed at start-up and one killed reopening the file after a crash: the lost page is marked in the .md and the rest converts', async () => {
    const faults: Record<number, HostEnv> = {
      1: { FOLIO_FAKE_KILLED_AT_START: '1' },
      2: { FOLIO_FAKE_CRASH_PAGE: '2' },
      3: { FOLIO_FAKE_KILLED_AT_OPEN: '1' },
    };
    const run = await convertWithFaults(docs.report, (spawn) => faults[spawn] ?? {});
    expect(run.code).toBe(1);
    expect(run.spawned).toBe(4);
    const sections = run.markdown.split('\n\n');
    expect(sections[0]).toBe('# Chapter one');
    expect(sections[2]).toBe('> **Page 2 could not be converted:** the engine crashed while reading it (exit code 70: fake crash on page 2).');
    expect(sections[3]).toBe('# Chapter three');
    expect(run.markdown).toContain('The four chapter has a paragraph of plain words.');
    expect(run.json.pages.map(({ page }) => page)).toEqual([1, 3, 4]);
    expect(run.json.failures).toEqual([{ page: 2, failure: { code: 'engine-crashed', message: 'the engine crashed while reading it (exit code 70: fake crash on page 2).' } }]);
    expect(run.stderr).toContain(`${docs.report}: page 2: the engine crashed while reading it (exit code 70: fake crash on page 2).\n`);
    expect(run.stderr).toMatch(/Converted 1 of 1 file \(3 pages, 1 failed\)/);
  });

  it('keeps the pages converted before a host that cannot be restarted, and marks the pages never tried with the reason', async () => {
    const run = await convertWithFaults(docs.report, (spawn): HostEnv => (spawn === 1 ? { FOLIO_FAKE_CRASH_PAGE: '2' } : { FOLIO_FAKE_KILLED_AT_OPEN: '1' }));
    expect(run.code).toBe(1);
    const notTried = 'not tried: the engine crashed while opening the file, 4 times in a row (last: signal SIGKILL).';
    expect(run.markdown).toBe(
      [
        '# Chapter one',
        'The one chapter has a paragraph of plain words.',
        '> **Page 2 could not be converted:** the engine crashed while reading it (exit code 70: fake crash on page 2).',
        `> **Pages 3 to 4 could not be converted:** ${notTried}`,
      ].join('\n\n') + '\n',
    );
    expect(run.json.failures.map(({ page }) => page)).toEqual([2, 3, 4]);
    expect(run.stderr).toContain(`${docs.report}: page 3: ${notTried}\n`);
    expect(run.stderr).toMatch(/Converted 1 of 1 file \(1 page, 3 failed\)/);
  });
});
