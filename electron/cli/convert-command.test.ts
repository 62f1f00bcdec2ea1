import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { forkHost } from '../core/engine-client/fork-host.js';
import { convertInProcess } from '../../test/in-process-convert.js';

const root = path.resolve(import.meta.dirname, '../..');
const builtHost = path.join(root, 'dist/electron/engine/host.js');

let folder: string;

beforeAll(async () => {
  if (!existsSync(builtHost)) throw new Error(`${builtHost} is missing; run "npm run build" before these tests.`);
  folder = await mkdtemp(path.join(os.tmpdir(), 'folio-convert-command-'));
});

afterAll(async () => {
  if (folder) await rm(folder, { recursive: true, force: true });
});

/** Runs `folio convert` in this process, counting the engine hosts it starts. */
async function convert(argv: readonly string[]) {
  let hostsStarted = 0;
  const run = await convertInProcess(argv, {
    spawnHost: () => {
      hostsStarted++;
      return forkHost({ modulePath: builtHost });
    },
  });
  return { ...run, hostsStarted };
}

describe('folio convert input checks', () => {
  it('fails missing, folder and empty inputs in the engine host\'s words, without starting one', async () => {
    const missing = path.join(folder, 'missing.pdf');
    const subfolder = path.join(folder, 'a-folder.pdf');
    const empty = path.join(folder, 'empty.pdf');
    await mkdir(subfolder);
    await writeFile(empty, '');
    const run = await convert([missing, subfolder, empty, '-o', path.join(folder, 'out')]);
    expect(run.code).toBe(1);
    expect(run.hostsStarted).toBe(0);
    expect(run.stderr.split('\n')).toEqual(
      expect.arrayContaining([`${missing}: no such file.`, `${subfolder}: is a folder, not a PDF.`, `${empty}: the file is empty.`]),
    );
    expect(run.stderr).toContain('Converted 0 of 3 files');
  });

  it('starts the engine host for a file that exists, after failing the missing ones before it', async () => {
    const notPdf = path.join(folder, 'words.pdf');
    await writeFile(notPdf, 'plain words, not a PDF\n');
    const missing = path.join(folder, 'gone.pdf');
    const run = await convert([missing, notPdf, '-o', path.join(folder, 'out-2')]);
    expect(run.hostsStarted).toBe(1);
    const lines = run.stderr.split('\n');
    expect(lines.indexOf(`${missing}: no such file.`)).toBeLessThan(lines.indexOf(`${notPdf}: neither a PDF (no %PDF header) nor a page image (PNG, JPEG, TIFF, WebP, GIF, BMP).`));
    expect(lines.indexOf(`${missing}: no such file.`)).toBeGreaterThanOrEqual(0);
  });
});
