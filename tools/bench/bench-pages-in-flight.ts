/**
 * `npm run bench:pages-in-flight`: the vlm engine's decoding throughput with one page at a time
 * against several pages decoding in the same decoder passes (`--pages-in-flight`), each with the
 * vision encoder on the decoding thread (where it stalls the pages decoding) and on its own thread
 * beside the decoding, the next pages' vision ahead (vision-ahead.ts), measured side by side in one
 * run on the same pages. Each round converts every page at each N and placement, taking turns.
 * The times are the whole document's, each page's vision and prefill included: packing shares
 * neither vision nor the weights' reading during a prefill, so a package whose vision dominates a
 * page gains little from packing alone; `npm run bench:packed-pass` gives one decoder pass's cost.
 * Whether every page's text equals N = 1's (vision on the decoding thread) is checked and printed.
 * Options: --model DIR (default: the tiny package), --pages N (8), --max-tokens N (64: the budget
 * per page), --spec-k K (0), --in-flight LIST (1,4), --rounds N (2: the fastest round counts), --mode NAME,
 * --page-side PX (the pages' longer side as rendered; default: as the engine renders for the mode; a
 * small one makes no tiles, so a real-size package's vision takes less of the run).
 * A benchmark prints; it asserts nothing.
 */

import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { closePdf, openPdf } from '../../electron/engine/pdf/open-pdf.js';
import { renderPdfPage } from '../../electron/engine/raster/page-raster.js';
import type { RgbImage } from '../../electron/engine/raster/rgb-image.js';
import { openModelPackage } from '../../electron/engine/vlm/model-package.js';
import { resolutionMode } from '../../electron/engine/vlm/page-input.js';
import { isNearBlank, VlmEngine, type ImageConversion } from '../../electron/engine/vlm/vlm-engine.js';
import { fixturePdfs, REPO_ROOT } from './bench-set.js';

const TINY_PACKAGE = path.join(REPO_ROOT, 'tools/model/fixtures/tiny');

interface Run {
  ms: number;
  results: ImageConversion[];
  /** Pages whose vision could run ahead of a free lane. */
  ahead: number;
}

/** The vision encoder on the decoding thread, then on its own beside it. */
const PLACES = [false, true] as const;

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      model: { type: 'string' }, pages: { type: 'string' }, 'max-tokens': { type: 'string' }, 'spec-k': { type: 'string' },
      'in-flight': { type: 'string' }, rounds: { type: 'string' }, mode: { type: 'string' }, 'page-side': { type: 'string' },
    },
  });
  const modelDir = path.resolve(values.model ?? TINY_PACKAGE);
  const pageCount = whole(values.pages ?? '8', '--pages', 1);
  const maxNewTokens = whole(values['max-tokens'] ?? '64', '--max-tokens', 2);
  const specK = whole(values['spec-k'] ?? '0', '--spec-k', 0);
  const rounds = whole(values.rounds ?? '2', '--rounds', 1);
  const inFlight = (values['in-flight'] ?? '1,4').split(',').map((text) => whole(text, '--in-flight', 1));
  const pkg = await openModelPackage(modelDir);
  try {
    const mode = resolutionMode(pkg.manifest, values.mode ?? pkg.manifest.vision.resolution_modes[0]?.name ?? '');
    const side = values['page-side'] ? whole(values['page-side'], '--page-side', 16) : mode.crop ? Math.max(mode.base_size, mode.image_size * 3) : mode.base_size;
    const images = await benchPages(pageCount, side);
    console.log(`${pkg.manifest.name} (${modelDir}, ${pkg.manifest.precision}) on ${pkg.provider.device}, decoder graph ${pkg.decoderGraph}, mode ${mode.name}`);
    console.log(`${images.length} pages rendered at ${side} px, up to ${maxNewTokens} new tokens each, K = ${specK}, ${rounds} rounds (the fastest counts); load ${os.loadavg()[0]?.toFixed(1)} on ${os.cpus().length} cores\n`);
    const best = new Map<string, Run>();
    const runs = inFlight.flatMap((n) => PLACES.map((beside) => ({ n, beside, key: `${n}${beside ? ' beside' : ''}` })));
    for (let round = 0; round < rounds; round++) {
      for (const { n, beside, key } of runs) {
        const engine = new VlmEngine(pkg, { mode: mode.name, specK, maxNewTokens, pagesInFlight: n, visionBeside: beside });
        // as many pages as the engine takes: with vision beside, a page ahead per lane as memory allows
        const run = await convertAll(engine, engine.pagesInFlight, images);
        if (!best.has(key) || run.ms < (best.get(key) as Run).ms) best.set(key, run);
      }
    }
    const reference = best.get('1') ?? best.get(runs[0]?.key ?? '');
    console.log('in flight | vision            | pages/min | tokens | tokens/s          | vision ms/page (waited, overlapped decoding) | lane wait ms/page | most/mean pages per pass | rows per pass | same text as N=1');
    let baseline = 0;
    for (const { n, beside, key } of runs) {
      const full = best.get(key) as Run;
      const tokens = full.results.reduce((sum, r) => sum + r.stats.newTokens, 0);
      const rate = (tokens * 1000) / full.ms;
      if (!baseline) baseline = rate;
      const most = Math.max(...full.results.map((r) => r.stats.pagesTogether.most));
      const mean = average(full.results.map((r) => r.stats.pagesTogether.mean));
      const rows = average(full.results.map((r) => r.stats.rowsPerPass));
      const vision = average(full.results.map((r) => r.stats.visionMs));
      const waited = average(full.results.map((r) => r.stats.visionWaitMs));
      const overlapped = average(full.results.map((r) => r.stats.visionOverlapMs));
      const laneWait = average(full.results.map((r) => r.stats.laneWaitMs));
      const same = full.results.every((r, i) => r.markdown === reference?.results[i]?.markdown);
      const place = beside ? `own thread, ${full.ahead} ahead` : 'decoding thread';
      console.log(
        `${String(n).padStart(9)} | ${place.padEnd(17)} | ${((full.results.length * 60_000) / full.ms).toFixed(1).padStart(9)} | ${String(tokens).padStart(6)} | ${rate.toFixed(1).padStart(9)} (${(rate / baseline).toFixed(2)}x) | ${vision.toFixed(0).padStart(6)} (${waited.toFixed(0)}, ${overlapped.toFixed(0)}) | ${laneWait.toFixed(0).padStart(6)} | ${most} / ${mean.toFixed(2)} | ${rows.toFixed(1)} | ${same ? 'yes' : 'NO'}`,
      );
    }
    console.log('');
    for (const { key } of runs) {
      (best.get(key) as Run).results.forEach((r, i) => {
        const alone = reference?.results[i];
        if (!alone || r.markdown === alone.markdown) return;
        let at = 0;
        while (at < r.markdown.length && r.markdown[at] === alone.markdown[at]) at++;
        console.log(`N=${key}, page ${i + 1}: differs from N=1 at character ${at} of ${alone.markdown.length} (${r.stats.newTokens} against ${alone.stats.newTokens} tokens, stopped ${r.stats.stopped} against ${alone.stats.stopped})`);
      });
    }
  } finally {
    await pkg.release();
  }
}

/** Every page through one engine, at most `inFlight` at once, each starting as soon as one ends (as DocumentSession does). */
async function convertAll(engine: VlmEngine, inFlight: number, images: readonly RgbImage[]): Promise<Run> {
  const started = performance.now();
  const results: ImageConversion[] = [];
  let next = 0;
  const lane = async () => {
    while (next < images.length) {
      const index = next++;
      results[index] = await engine.convertImage(images[index] as RgbImage, undefined, () => {});
    }
  };
  await Promise.all(Array.from({ length: inFlight }, lane));
  return { ms: performance.now() - started, results, ahead: engine.vision.ahead };
}

/** The first pages of the project's fixture PDFs that are not blank. */
async function benchPages(count: number, longSide: number): Promise<RgbImage[]> {
  const pages: RgbImage[] = [];
  for (const file of await fixturePdfs()) {
    if (pages.length >= count) break;
    const { pdf } = await openPdf(file);
    try {
      const pixels = await renderPdfPage(pdf, 1, longSide);
      if (!isNearBlank(pixels)) pages.push(pixels);
    } finally {
      await closePdf(pdf);
    }
  }
  if (pages.length === 0) throw new Error('no pages: print the fixture PDFs first (npx vitest run test/fixtures prints them into test/fixtures/out).');
  return pages;
}

function average(values: readonly number[]): number {
  return values.length ? values.reduce((sum, v) => sum + v, 0) / values.length : 0;
}

function whole(text: string, flag: string, least: number): number {
  const value = Number(text);
  if (!Number.isInteger(value) || value < least) throw new Error(`${flag} "${text}" is not a whole number from ${least}`);
  return value;
}

await main();
