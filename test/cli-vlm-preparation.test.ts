/**
 * `folio convert` with a model package whose opening takes longer than a page may: the page's time
 * limit counts from when the model is ready, so a slow open (a big package, `--device auto`
 * measuring a slow device) does not fail the first page. The open is slowed in the real engine host
 * (faulty-host.mjs, FOLIO_FAKE_SLOW_PREPARE); the package is the committed tiny one.
 */

import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { forkHost } from '../electron/core/engine-client/fork-host.js';
import { convertInProcess } from './in-process-convert.js';
import { repoRoot } from './folio-process.js';

const faultyHost = path.join(repoRoot, 'test/fake-hosts/faulty-host.mjs');
const tinyPackage = path.join(repoRoot, 'tools/model/fixtures/tiny');
const pdf = path.join(repoRoot, 'test/fixtures/out/headings.pdf');
/** The page's limit, in seconds: several times what a tiny-model page of 4 tokens takes on a busy machine. */
const PAGE_TIMEOUT_S = 10;

let folder: string;

beforeAll(async () => {
  if (!existsSync(path.join(repoRoot, 'dist/electron/engine/host-loop.js'))) throw new Error('The engine is not built; run "npm run build" before these tests.');
  folder = await mkdtemp(path.join(os.tmpdir(), 'folio-cli-preparation-'));
});

afterAll(async () => {
  if (folder) await rm(folder, { recursive: true, force: true });
});

describe('folio convert while the model opens', () => {
  it('converts the first page when opening the model takes longer than the page time limit, and says it is opening the model', async () => {
    const out = path.join(folder, 'slow-open');
    const { code, stderr } = await convertInProcess(
      [pdf, '-o', out, '--model', tinyPackage, '--device', 'cpu', '--max-tokens', '4', '--page-timeout', String(PAGE_TIMEOUT_S)],
      // the host is held half again as long as the page may take, once the model begins to open
      { spawnHost: () => forkHost({ modulePath: faultyHost, env: { ...process.env, FOLIO_FAKE_SLOW_PREPARE: String(PAGE_TIMEOUT_S * 1500) } }) },
    );
    expect(code, stderr).toBe(0);
    expect(stderr).toContain(`${pdf}: page 1: opening the model…\n`);
    expect(stderr).not.toContain('took longer than');
    expect(await readFile(path.join(out, 'headings.md'), 'utf8')).not.toBe('');
  });
});
