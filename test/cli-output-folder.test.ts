/**
 * `folio convert` and its output folder: a read-only folder is found before any page converts, and a
 * disk that fills while a document is written leaves none of that document's files. Write errors are
 * injected where the files are written (the tests run as root, for whom no folder is read-only).
 */

import { existsSync } from 'node:fs';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeDurably, type WriteDurably } from '../electron/core/output/all-or-nothing-write.js';
import { convertInProcess } from './in-process-convert.js';
import { forkHost } from '../electron/core/engine-client/fork-host.js';
import { repoRoot } from './folio-process.js';
import { writeSampleDocuments, type SampleDocuments } from './sample-documents.js';

const builtHost = path.join(repoRoot, 'dist/electron/engine/host.js');

let folder: string;
let docs: SampleDocuments;
let outCount = 0;

beforeAll(async () => {
  if (!existsSync(builtHost)) throw new Error('The engine is not built; run "npm run build" before these tests.');
  folder = await mkdtemp(path.join(os.tmpdir(), 'folio-cli-output-'));
  docs = await writeSampleDocuments(folder);
});

afterAll(async () => {
  if (folder) await rm(folder, { recursive: true, force: true });
});

function failing(code: string, message: string) {
  return Object.assign(new Error(message), { code });
}

async function convert(args: readonly string[], write: WriteDurably) {
  const outDir = path.join(folder, `out-${++outCount}`);
  let hostsStarted = 0;
  const run = await convertInProcess([...args, '-o', outDir], {
    spawnHost: () => {
      hostsStarted++;
      return forkHost({ modulePath: builtHost });
    },
    write,
  });
  return { ...run, hostsStarted, outDir };
}

describe('folio convert and its output folder', () => {
  it('finds a read-only output folder before converting and names the cause', async () => {
    const run = await convert([docs.report], async () => {
      throw failing('EROFS', 'read-only file system');
    });
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(`folio: cannot write to the output folder ${run.outDir} (EROFS: the file system is read-only); choose another with -o.\n`);
    expect(run.hostsStarted).toBe(0);
  });

  it('leaves none of a document\'s files when the disk fills while they are written, and says so', async () => {
    let writes = 0;
    const run = await convert([docs.report, '--format', 'md,html', '--split-pages'], async (file, data) => {
      // the first write is the folder check; the disk fills at the fifth of the document's ten files
      if (++writes === 6) throw failing('ENOSPC', 'no space left on device');
      await writeDurably(file, data);
    });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(
      new RegExp(`: cannot write ${run.outDir}/report_pg3\\.md \\(ENOSPC: the disk is full\\); nothing was written\\. Free some space or choose another -o\\.\\n`),
    );
    expect(run.stderr).toMatch(/Converted 0 of 1 file/);
    expect(await readdir(run.outDir)).toEqual([]);
  });
});
