/**
 * Memory over a long document: fixture pages repeated (`pdfunite`) into a long document (2,000 pages for bench:text) and converted
 * in one session, with the resident set sampled every 100 pages. Flat means the engine keeps no
 * per-page state beyond what it needs.
 */

import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import v8 from 'node:v8';
import vm from 'node:vm';
import type { EngineRouter } from '../../electron/engine/router.js';
import { convertWithFolio } from './folio-run.js';

const run = promisify(execFile);

export interface MemorySample {
  pages: number;
  rssMiB: number;
  /** Heap in use right after a full collection: what the process really keeps. */
  heapMiB: number;
}

export interface MemoryRun {
  pages: number;
  ms: number;
  samples: MemorySample[];
  /** Growth of the collected heap from the second sample (after warm-up) to the last. */
  heapGrowthMiB: number;
  rssGrowthMiB: number;
  flat: boolean;
}

/** Heap growth beyond this from the second sample to the last means memory follows page count rather than levelling off. */
const FLAT_LIMIT_MIB = 32;

/** A full garbage collection on demand, without asking the user to start node with --expose-gc. */
const collectGarbage = (() => {
  v8.setFlagsFromString('--expose-gc');
  return vm.runInNewContext('gc') as () => void;
})();

export async function runLongDocument(router: EngineRouter, pagePdfs: readonly string[], targetPages: number): Promise<MemoryRun> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'folio-bench-'));
  try {
    const longPdf = path.join(dir, 'long.pdf');
    await unite(pagePdfs, targetPages, longPdf);
    const samples: MemorySample[] = [];
    const totals = await convertWithFolio(router, longPdf, (done) => {
      if (done % 100 === 0) samples.push(sample(done));
    });
    const growth = (key: 'heapMiB' | 'rssMiB') => (samples.length >= 2 ? samples.at(-1)![key] - samples[1]![key] : 0);
    const heapGrowthMiB = growth('heapMiB');
    return { pages: totals.pages, ms: totals.ms, samples, heapGrowthMiB, rssGrowthMiB: growth('rssMiB'), flat: heapGrowthMiB < FLAT_LIMIT_MIB };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Repeats the inputs, skipping any that would overshoot, until exactly `targetPages` pages. */
async function unite(pagePdfs: readonly string[], targetPages: number, out: string): Promise<void> {
  const counts = await Promise.all(pagePdfs.map(pageCount));
  if (!counts.includes(1)) throw new Error('The long document needs at least one single-page PDF to come out at an exact page count.');
  const inputs: string[] = [];
  let pages = 0;
  while (pages < targetPages) {
    for (const [i, pdf] of pagePdfs.entries()) {
      if (pages + counts[i]! > targetPages) continue;
      inputs.push(pdf);
      pages += counts[i]!;
    }
  }
  await run('pdfunite', [...inputs, out], { maxBuffer: 64 * 1024 * 1024 });
}

async function pageCount(pdf: string): Promise<number> {
  const { stdout } = await run('pdfinfo', [pdf]);
  const match = /^Pages:\s+(\d+)/m.exec(stdout);
  if (!match) throw new Error(`${pdf}: pdfinfo reports no page count.`);
  return Number(match[1]);
}

function sample(pages: number): MemorySample {
  collectGarbage();
  const usage = process.memoryUsage();
  return { pages, rssMiB: usage.rss / 2 ** 20, heapMiB: usage.heapUsed / 2 ** 20 };
}
