import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { singlePageBench } from '../../tools/bench/real-docs/single-pages.js';
import { needs, PROGRAMS } from '../environment.js';

const run = promisify(execFile);
const PDFSEPARATE = '/usr/bin/pdfseparate';
const FOUR_PAGES = path.resolve(import.meta.dirname, '../fixtures/out/running-headers.pdf');

describe('the benchmark with each tested page alone', needs(PROGRAMS, existsSync(PDFSEPARATE) ? null : `${PDFSEPARATE} is not installed (Debian poppler-utils)`), () => {
  let dir = '';
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('splits each tested page into a PDF of its own and points its checks at it', async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'folio-single-pages-'));
    await mkdir(path.join(dir, 'bench', 'pdfs'), { recursive: true });
    await symlink(FOUR_PAGES, path.join(dir, 'bench', 'pdfs', 'report.pdf'));
    const checks = [
      { pdf: 'report.pdf', page: 3, id: 'a', type: 'present', text: 'x' },
      { pdf: 'report.pdf', page: 3, id: 'b', type: 'absent', text: 'y' },
      { pdf: 'report.pdf', page: 2, id: 'c', type: 'present', text: 'z' },
    ];
    await writeFile(path.join(dir, 'bench', 'report_present.jsonl'), `${checks.map((c) => JSON.stringify(c)).join('\n')}\n`);
    await singlePageBench(path.join(dir, 'bench'), path.join(dir, 'single'));

    const written = (await readFile(path.join(dir, 'single', 'report_present.jsonl'), 'utf8')).trim().split('\n').map((l) => JSON.parse(l) as { pdf: string; page: number; id: string });
    expect(written.map((c) => [c.id, c.pdf, c.page])).toEqual([['a', 'report_p3.pdf', 1], ['b', 'report_p3.pdf', 1], ['c', 'report_p2.pdf', 1]]);
    for (const [single, page] of [['report_p3.pdf', 3], ['report_p2.pdf', 2]] as const) {
      const info = (await run('pdfinfo', [path.join(dir, 'single', 'pdfs', single)])).stdout;
      expect(info).toMatch(/Pages:\s+1\n/);
      const alone = (await run('pdftotext', [path.join(dir, 'single', 'pdfs', single), '-'])).stdout;
      const inDocument = (await run('pdftotext', ['-f', String(page), '-l', String(page), FOUR_PAGES, '-'])).stdout;
      expect(alone).toBe(inDocument);
    }
  });
});
