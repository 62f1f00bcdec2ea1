/**
 * `npm run bench:vlm`: the VLM engine's decoding speed, from one run on the same pages. Part one:
 * greedy tokens/s against FastMTP at K = 1..4 and `auto`, their ratio, tokens per step, acceptance
 * by draft position, the host-side share of each step, and whether every run's tokens equal
 * greedy's. Part two: the host-side work of one step at the real model's sizes (target < 1 ms).
 * Options: --model DIR (default: the tiny package), --inputs DIR (PDFs whose first pages are decoded;
 * default: the project's fixture PDFs), --pages N (5), --max-tokens N (64), --mode NAME, --rounds N (3:
 * each page's fastest round per run counts).
 * A benchmark prints; it asserts nothing.
 */

import { readdir, readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { closePdf, openPdf } from '../../electron/engine/pdf/open-pdf.js';
import { decodeImage, renderPdfPage } from '../../electron/engine/raster/page-raster.js';
import type { RgbImage } from '../../electron/engine/raster/rgb-image.js';
import { openModelPackage, type ModelPackage } from '../../electron/engine/vlm/model-package.js';
import { ModelRunner } from '../../electron/engine/vlm/model-runner.js';
import { pageInput, resolutionMode, type PageInput } from '../../electron/engine/vlm/page-input.js';
import { loadTokenizer } from '../../electron/engine/vlm/prompt.js';
import { isNearBlank } from '../../electron/engine/vlm/vlm-engine.js';
import { fixturePdfs, REPO_ROOT } from './bench-set.js';
import { decodeRuns, type RunTotals } from './vlm-decode-run.js';
import { REAL_SIZES, timeHostStep } from './vlm-host-step.js';

const TINY_PACKAGE = path.join(REPO_ROOT, 'tools/model/fixtures/tiny');
const HOST_STEP_ROUNDS = 300;
const HOST_STEP_TARGET_MS = 1;

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { model: { type: 'string' }, inputs: { type: 'string' }, pages: { type: 'string' }, 'max-tokens': { type: 'string' }, mode: { type: 'string' }, rounds: { type: 'string' } },
  });
  const modelDir = path.resolve(values.model ?? TINY_PACKAGE);
  const pageCount = positive(values.pages ?? '5', '--pages');
  const maxNewTokens = positive(values['max-tokens'] ?? '64', '--max-tokens');
  const rounds = positive(values.rounds ?? '3', '--rounds');
  const pkg = await openModelPackage(modelDir);
  try {
    const runner = new ModelRunner(pkg);
    const mode = resolutionMode(pkg.manifest, values.mode ?? pkg.manifest.vision.resolution_modes[0]?.name ?? '');
    const pdfs = values.inputs ? await pdfsIn(path.resolve(values.inputs)) : await fixturePdfs();
    const images = await benchPages(pdfs, pageCount, mode.crop ? Math.max(mode.base_size, mode.image_size * 3) : mode.base_size, modelDir);
    const tokenizer = loadTokenizer(pkg.tokenizerJson);
    const inputs: PageInput[] = [];
    for (const image of images) inputs.push(await pageInput(runner, pkg.manifest, tokenizer, image.pixels, mode));

    console.log(`Part one: ${pkg.manifest.name} (${modelDir}) on ${pkg.provider.device} (${pkg.provider.reason}), mode ${mode.name}`);
    console.log(`${inputs.length} pages (${images.map((image) => image.name).join(', ')}), up to ${maxNewTokens} new tokens each, all runs on each page back to back,`);
    console.log(`${rounds} rounds; each page's fastest round per run counts (on a shared machine the slow ones measure the neighbours)\n`);
    if (isRandomTiny(pkg)) {
      console.log('Note: the tiny package has random weights. Its MTP head almost never drafts the token the decoder picks,');
      console.log('so speculation here can only cost time and the ratios below are its overhead, not its gain; auto should');
      console.log('settle on K = 0. A trained package (--model DIR) shows the real acceptance.\n');
    }
    const { totals, priorMs, calibrationMs, probeShares } = await decodeRuns(runner, pkg, inputs, maxNewTokens, rounds);
    if (priorMs.length) {
      const measured = priorMs.flatMap((ms, k) => (Number.isNaN(ms) ? [] : [`K=${k} ${ms.toFixed(2)} ms`])).join(', ');
      console.log(`Step costs measured before the pages (auto starts from them): ${measured}; the measurement took ${calibrationMs.toFixed(0)} ms\n`);
    }
    printRuns(totals);
    if (probeShares.length) {
      console.log(`\nauto's probes, by its own account (time beyond what its best K would have taken, the draft head's catching up included), per round: ${probeShares.map((share) => `${(share * 100).toFixed(1)}%`).join(', ')} of decoding time`);
    }

    console.log(`\nPart two: host-side work of one decode step at the real model's sizes (vocabulary ${REAL_SIZES.vocab.toLocaleString('en')},`);
    console.log(`${REAL_SIZES.layers} layers x ${REAL_SIZES.heads} heads x ${REAL_SIZES.headDim}, ${REAL_SIZES.context.toLocaleString('en')}-token context), synthetic arrays, ${HOST_STEP_ROUNDS} steps each; target < ${HOST_STEP_TARGET_MS} ms\n`);
    console.log('Between the steps it sums one logits row, a yardstick of how loaded the machine is: a step measured in');
    console.log(`row sums compares across machines and loads (load average now ${loadAverage()})\n`);
    console.log(row(['step', 'median ms', 'p95 ms', 'row sum ms', 'row sums', 'target']));
    for (const [k, fp16] of [[0, false], [0, true], [3, false], [3, true], [4, true]] as const) {
      const timing = timeHostStep(k, fp16, HOST_STEP_ROUNDS);
      const met = timing.medianMs < HOST_STEP_TARGET_MS ? 'met' : 'NOT met here';
      console.log(row([timing.name, timing.medianMs.toFixed(3), timing.p95Ms.toFixed(3), timing.rowSumMs.toFixed(3), (timing.medianMs / timing.rowSumMs).toFixed(1), met]));
    }
  } finally {
    await pkg.release();
  }
}

function printRuns(totals: readonly RunTotals[]): void {
  const greedy = totals.find((total) => total.name === 'greedy');
  const rate = (total: RunTotals) => (total.decodeMs ? (total.tokens * 1000) / total.decodeMs : 0);
  console.log(row(['run', 'tokens', 'steps', 'tok/step', 'tokens/s', 'vs greedy', 'host share', 'steps by K (0..4)', 'acceptance by position', 'tokens = greedy']));
  for (const total of totals) {
    const acceptance = total.drafted.map((count, i) => (count ? `${Math.round((100 * (total.accepted[i] ?? 0)) / count)}%` : '-')).join(' ');
    console.log(row([
      total.name,
      String(total.tokens),
      String(total.steps),
      (total.tokens / Math.max(1, total.steps)).toFixed(2),
      rate(total).toFixed(1),
      greedy ? `${(rate(total) / rate(greedy)).toFixed(2)}x` : '-',
      `${((100 * (total.decodeMs - total.runMs)) / Math.max(1e-9, total.decodeMs)).toFixed(1)}%`,
      total.stepsAtK.join('/') || '-',
      acceptance || '-',
      total.name === 'greedy' ? '-' : total.pagesDiffering === 0 ? 'yes' : `NO (${total.pagesDiffering} pages differ)`,
    ]));
  }
}

async function pdfsIn(dir: string): Promise<string[]> {
  const names = (await readdir(dir)).filter((name) => name.toLowerCase().endsWith('.pdf')).sort();
  if (names.length === 0) throw new Error(`--inputs ${dir}: no PDF files there.`);
  return names.map((name) => path.join(dir, name));
}

/** The first page of each PDF, rendered as the engine renders it; else the package's parity images. */
async function benchPages(pdfs: readonly string[], count: number, longSide: number, modelDir: string): Promise<{ name: string; pixels: RgbImage }[]> {
  const pages: { name: string; pixels: RgbImage }[] = [];
  for (const file of pdfs) {
    if (pages.length >= count) break;
    const { pdf } = await openPdf(file);
    try {
      const pixels = await renderPdfPage(pdf, 1, longSide);
      if (!isNearBlank(pixels)) pages.push({ name: path.basename(file, '.pdf'), pixels });
    } finally {
      await closePdf(pdf);
    }
  }
  if (pages.length === 0) {
    const parity = path.join(modelDir, 'parity');
    const pngs = (await readdir(parity).catch(() => [])).filter((name) => name.endsWith('.png')).slice(0, count);
    for (const name of pngs) pages.push({ name, pixels: await decodeImage(await readFile(path.join(parity, name))) });
  }
  if (pages.length === 0) throw new Error(`no pages to decode: print the fixture PDFs (npm test) or give a package with a parity/ folder of PNGs.`);
  return pages;
}

function loadAverage(): string {
  return `${os.loadavg()[0]?.toFixed(1) ?? '?'} on ${os.cpus().length} cores`;
}

function isRandomTiny(pkg: ModelPackage): boolean {
  return pkg.manifest.name === 'folio-tiny';
}

function positive(text: string, flag: string): number {
  const value = Number(text);
  if (!Number.isInteger(value) || value < 1) throw new Error(`${flag} "${text}" is not a positive whole number.`);
  return value;
}

const WIDTHS = [30, 9, 8, 10, 9, 10, 11, 18, 24, 16];
function row(cells: readonly string[]): string {
  return cells.map((cell, i) => cell.padEnd(WIDTHS[i] ?? 12)).join(' ').trimEnd();
}

main().catch((error: unknown) => {
  console.error(`bench:vlm: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
});
