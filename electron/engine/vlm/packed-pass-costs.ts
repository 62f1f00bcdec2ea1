/**
 * What `--pages-in-flight auto` measures: one decoder pass with one row of each of 1, 2, 4 and 8
 * pages packed into it (each page's lane holding a short prompt), on the opened package's device.
 * The least of a few passes is kept in the app-data folder beside `--device auto`'s measurements,
 * under the same key (package, device, ONNX Runtime, CPU), so it is measured once per package and
 * machine. Rows are embeddings of made-up tokens, each row another token.
 */

import { MAX_AUTO_PAGES_IN_FLIGHT } from '../../../shared/conversion-defaults.js';
import { readPackedPassCalibrations, savePackedPassCalibrations, type PackedPassCalibration } from '../../core/model/device-calibrations.js';
import type { Manifest, ResolutionMode } from '../../core/model/manifest.js';
import { calibrationKey } from './device-calibration.js';
import type { ModelPackage } from './model-package.js';
import { ModelRunner } from './model-runner.js';
import type { PackedPassCost } from './pages-in-flight-choice.js';
import { visualTokenCount } from './visual-layout.js';

export interface PackedPassPlan {
  /** Page counts measured, one row each; the first must be 1. */
  pages: readonly number[];
  /** Rows each lane holds before the passes: attention reads them. */
  laneRows: number;
  /** Counted passes per page count, after one warm-up. */
  passes: number;
}

/**
 * 1 to 8 pages, the least of 5 passes each: on a shared 2-core machine the least of 3 once put 2 pages
 * at 20 ms against 12 in the round before (the real-width 2-layer int4 package: 1.6-1.8 s in all
 * with 3 passes; the tiny one 34-42 ms).
 */
export const DEFAULT_PACKED_PASS_PLAN: PackedPassPlan = { pages: [1, 2, 4, MAX_AUTO_PAGES_IN_FLIGHT], laneRows: 64, passes: 5 };

export async function measurePackedPasses(pkg: ModelPackage, plan: PackedPassPlan = DEFAULT_PACKED_PASS_PLAN): Promise<{ costs: PackedPassCost[]; totalMs: number }> {
  const started = performance.now();
  const runner = new ModelRunner(pkg);
  const vocab = pkg.manifest.architecture.language_config.vocab_size;
  // rows of real token embeddings, a different token in every row: they route to experts as a page's
  // tokens do (rows alike would all pick the same experts and make packing look cheaper than it is)
  let next = 0;
  const rows = (count: number) => runner.embed(Array.from({ length: count }, () => ((next++ * 7919 + 13) % vocab)));
  const costs: PackedPassCost[] = [];
  for (const pages of plan.pages) {
    const { decoder } = runner.packedCaches(pages);
    const lanes = Array.from({ length: pages }, (_, lane) => decoder.lane(lane));
    for (const cache of lanes) await runner.decode(cache, await rows(plan.laneRows), 1);
    let least = Number.POSITIVE_INFINITY;
    for (let pass = 0; pass <= plan.passes; pass++) {
      const embeds = await Promise.all(lanes.map(() => rows(1)));
      const passStarted = performance.now();
      await runner.packed('decoder', decoder, lanes.map((cache, lane) => ({ cache, embeds: embeds[lane] as Float32Array, logits: 1 })));
      // the first pass warms up
      if (pass > 0) least = Math.min(least, performance.now() - passStarted);
    }
    // the pool's buffers are host memory, let go with it
    costs.push({ pages, ms: least });
  }
  return { costs, totalMs: performance.now() - started };
}

/**
 * The packed passes' costs on the package's device: kept from an earlier measurement, else measured
 * now (and kept when `calibrationDir` is given). `measuredNow` tells the caller which.
 */
export async function knownPackedPassCosts(
  pkg: ModelPackage,
  calibrationDir: string | undefined,
  measure = measurePackedPasses,
): Promise<{ costs: PackedPassCost[]; measured: string }> {
  const key = calibrationKey(pkg.manifest, pkg.provider.device, pkg.provider.runtimeVersion);
  const kept = calibrationDir ? (await readPackedPassCalibrations(calibrationDir)).get(key) : undefined;
  if (kept) return { costs: kept.passMs, measured: `measured ${kept.measuredAt.slice(0, 10)}, kept` };
  const { costs, totalMs } = await measure(pkg);
  const calibration: PackedPassCalibration = {
    package: pkg.manifest.name,
    device: pkg.provider.device,
    passMs: costs.map((cost) => ({ pages: cost.pages, ms: Math.round(cost.ms * 1000) / 1000 })),
    totalMs: Math.round(totalMs),
    measuredAt: new Date().toISOString(),
  };
  if (calibrationDir) await savePackedPassCalibrations(calibrationDir, new Map([[key, calibration]]));
  return { costs, measured: `measured now in ${totalMs < 1000 ? `${Math.round(totalMs)} ms` : `${(totalMs / 1000).toFixed(1)} s`}` };
}

/** Why pages cannot share decoder passes with this package on its device (ModelRunner.packs is false). */
export function whyPagesCannotPack(runner: ModelRunner, pkg: ModelPackage): string {
  return runner.resident || pkg.provider.provider !== 'cpu'
    ? `pages decode together on the CPU only for now, not on ${pkg.provider.provider}`
    : "the package's decoder takes no cache at capacity with the pages on its batch axis (export it again, with the default --cache-layout both)";
}

/**
 * Bytes one page's lane holds at its longest: every decoder layer's keys and values (and the draft
 * head's one layer) for the largest prompt the mode makes, its text, the new tokens and the drafts.
 */
export function pageCacheBytes(manifest: Manifest, mode: ResolutionMode, maxNewTokens: number, maxK: number, hasMtp: boolean): number {
  const sizes = manifest.architecture.language_config;
  const headDim = sizes.hidden_size / sizes.num_attention_heads;
  const bytesPerValue = manifest.dtype === 'float16' ? 2 : 4;
  const layers = sizes.num_hidden_layers + (hasMtp ? 1 : 0);
  const perRow = layers * 2 * sizes.num_key_value_heads * headDim * bytesPerValue;
  return perRow * (largestPromptRows(mode) + maxNewTokens + maxK + 1);
}

/** The rows of the largest prompt the mode makes: its visual tokens and the text around them. */
export function largestPromptRows(mode: ResolutionMode): number {
  return largestVisualTokens(mode) + PROMPT_TEXT_ROWS;
}

/** The prompt's text around the image (the chat template and instruction), generously. */
const PROMPT_TEXT_ROWS = 64;

/** SAM's 16-pixel patches, then the 4x compressor: a 1,024 px view is a 16 x 16 grid. */
const PIXELS_PER_FEATURE = 64;

function largestVisualTokens(mode: ResolutionMode): number {
  const globalSide = Math.ceil(mode.base_size / PIXELS_PER_FEATURE);
  const tileSide = Math.ceil(mode.image_size / PIXELS_PER_FEATURE);
  if (!mode.crop) return visualTokenCount(Math.ceil(Math.max(mode.base_size, mode.image_size) / PIXELS_PER_FEATURE), tileSide, [1, 1]);
  const grids = mode.candidate_grids.length ? mode.candidate_grids : [[1, 1] as [number, number]];
  return Math.max(...grids.map((grid) => visualTokenCount(globalSide, tileSide, grid)));
}
