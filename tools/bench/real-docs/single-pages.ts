/**
 * The benchmark as olmOCR-Bench poses it: each tested page a PDF of its own. A converter then has
 * no neighbouring pages to tell running heads by, only the page itself; `bench:real
 * --single-pages` scores that. Pages are split out with poppler's `pdfseparate`.
 */

import { execFile } from 'node:child_process';
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/**
 * Writes `out` as a copy of the olmOCR-Bench folder `dir` with each tested page its own one-page
 * PDF (`<stem>_p<N>.pdf`) and each check pointed at it.
 */
export async function singlePageBench(dir: string, out: string): Promise<void> {
  await rm(out, { recursive: true, force: true });
  await mkdir(path.join(out, 'pdfs'), { recursive: true });
  const split = new Set<string>();
  for (const name of (await readdir(dir)).filter((n) => n.endsWith('.jsonl'))) {
    const lines: string[] = [];
    for (const line of (await readFile(path.join(dir, name), 'utf8')).split('\n').filter((l) => l.trim() !== '')) {
      const check = JSON.parse(line) as { pdf: string; page: number };
      const single = `${check.pdf.replace(/\.pdf$/, '')}_p${check.page}.pdf`;
      if (!split.has(single)) {
        await run('pdfseparate', ['-f', String(check.page), '-l', String(check.page), path.join(dir, 'pdfs', check.pdf), path.join(out, 'pdfs', single)]);
        split.add(single);
      }
      lines.push(JSON.stringify({ ...check, pdf: single, page: 1 }));
    }
    await writeFile(path.join(out, name), `${lines.join('\n')}\n`);
  }
}
