/**
 * What a typical page costs on an opened package's device, in its three parts: the vision encoder
 * on the page's views, the prefill of its prompt, and decoding its text. It is what `--device auto`
 * compares: on the CPU the vision encoder and the prefill are most of an OCR page, so the device
 * with the cheapest decoding step is not always the one with the quickest page.
 *
 * The typical page is an A4 portrait page rendered as the engine renders it, in the package's first
 * (default) resolution mode; for jina-ocr-v1 the 1,024 px view, 6 tiles of 640 and a 949-token
 * prompt. Each part is measured briefly and scaled to the page: the vision graphs one pass each
 * (on the CPU one tile, which runs alone there), the prefill on a chunk of the prompt's rows, the
 * decoding from the step costs (step-costs.ts) over `TYPICAL_PAGE_TOKENS` tokens, with FastMTP
 * at the acceptance jina-ocr-v1's port measured where the package has a draft head.
 */

import type { Tokenizer } from '@huggingface/tokenizers';
import { pageMs, type PageCosts } from '../../core/model/device-calibrations.js';
import { bannedIds, type Manifest, type ResolutionMode } from '../../core/model/manifest.js';
import { prefill } from './decoding.js';
import type { ModelPackage } from './model-package.js';
import { ModelRunner } from './model-runner.js';
import { loadTokenizer, promptIds } from './prompt.js';
import { DEFAULT_STEP_COST_PLAN, measureStepCosts, type StepCosts } from './step-costs.js';
import { tileGrid } from './views.js';
import { visualTokenCount } from './visual-layout.js';

/** New tokens of a typical page: a dense page of text stays near this. */
export const TYPICAL_PAGE_TOKENS = 1000;

/**
 * Per draft position, the chance a draft is right given the ones before it were: what jina-ocr-v1's
 * port measured (docs/benchmarks.md; 2.53 tokens a step at K = 3). A package's own acceptance is
 * known only once it decodes real pages (draft-length.ts learns it there).
 */
export const FASTMTP_ACCEPTANCE: readonly number[] = [0.79, 0.62, 0.51];

/** Prompt rows prefilled to measure the prefill; a longer prompt is scaled from them by rows. */
export const PREFILL_SAMPLE_ROWS = 256;

/** SAM's 16-pixel patches, then the 4x compressor: a 1,024 px view is a 16 x 16 grid. */
const PIXELS_PER_FEATURE = 64;

export interface TypicalPage {
  mode: ResolutionMode;
  /** The page image's size, pixels. */
  width: number;
  height: number;
  /** Tiles wide and high; `[1, 1]`: none. */
  grid: readonly [number, number];
  /** Rows of the page's prompt: its visual tokens and the text around them. */
  promptRows: number;
}

/** An A4 portrait page rendered as vlm-engine.ts renders for the package's first resolution mode. */
export function typicalPage(manifest: Manifest, tokenizer: Tokenizer): TypicalPage {
  const mode = manifest.vision.resolution_modes[0];
  if (!mode) throw new Error('manifest.json names no resolution mode');
  const height = mode.crop ? Math.max(mode.base_size, mode.image_size * 3) : mode.base_size;
  const width = Math.round(height / Math.SQRT2);
  const grid = tileGrid(width, height, mode);
  const globalSide = Math.ceil(mode.base_size / PIXELS_PER_FEATURE);
  const tileSide = Math.ceil(mode.image_size / PIXELS_PER_FEATURE);
  const promptRows = promptIds(manifest, tokenizer, visualTokenCount(globalSide, tileSide, grid)).length;
  return { mode, width, height, grid, promptRows };
}

/** Expected tokens committed by a step drafting K (1 + a1 + a1 a2 + ...); K past the known acceptance gains nothing more. */
export function tokensPerStep(k: number): number {
  let tokens = 1;
  let chain = 1;
  for (let i = 0; i < k; i++) {
    chain *= FASTMTP_ACCEPTANCE[i] ?? 0;
    tokens += chain;
  }
  return tokens;
}

/** The least ms a token over the K measured (0: plain steps; K > 0: FastMTP at `FASTMTP_ACCEPTANCE`); NaN when none was. */
export function msPerToken(stepMs: readonly (number | null)[]): number {
  const perToken = stepMs.flatMap((ms, k) => (ms === null || !Number.isFinite(ms) ? [] : [ms / tokensPerStep(k)]));
  return perToken.length ? Math.min(...perToken) : Number.NaN;
}

/** What a device measured to be compared with the others: its decoding steps, and a page's parts. */
export interface DeviceCosts {
  steps: StepCosts;
  page: PageCosts;
}

/**
 * Measures the package's device: its decoding steps, then the typical page's prefill and vision.
 * `quickestPageMs`: the quickest page of a device measured before; once this one's page is sure
 * to be slower (the parts measured so far sum past it), it has lost and the rest is not measured
 * (a slow device's vision encoder alone can take minutes), and the page says it is incomplete.
 */
export async function measureDevice(pkg: ModelPackage, quickestPageMs = Number.POSITIVE_INFINITY): Promise<DeviceCosts> {
  const started = performance.now();
  const page = typicalPage(pkg.manifest, loadTokenizer(pkg.tokenizerJson));
  const hasMtp = pkg.sessions.has('mtp');
  // a step drafting never costs less than a plain one: a plain step past this and decoding alone is slower than that page
  const lostAtStepMs = (quickestPageMs * tokensPerStep(hasMtp ? DEFAULT_STEP_COST_PLAN.draftK : 0)) / TYPICAL_PAGE_TOKENS;
  const steps = await measureStepCosts(pkg, DEFAULT_STEP_COST_PLAN, lostAtStepMs);
  const perToken = msPerToken(steps.stepMs);
  const costs: PageCosts = {
    tokens: TYPICAL_PAGE_TOKENS,
    promptRows: page.promptRows,
    tiles: page.grid[0] * page.grid[1] > 1 ? page.grid[0] * page.grid[1] : 0,
    visionMs: 0,
    prefillMs: 0,
    decodeMs: Number.isNaN(perToken) ? 0 : perToken * TYPICAL_PAGE_TOKENS,
    complete: false,
    totalMs: 0,
  };
  const lost = () => Number.isNaN(perToken) || pageMs(costs) > quickestPageMs;
  const runner = new ModelRunner(pkg);
  if (!lost()) costs.prefillMs = await prefillMs(runner, pkg.manifest, page.promptRows);
  if (!lost()) {
    await pkg.openVision();
    // the tiles first: on a page with tiles they are most of the encoder's work
    if (costs.tiles) {
      const tiles = await runner.visionCost(page.mode.image_size, costs.tiles);
      costs.visionMs += tiles.openMs + tiles.passes * tiles.passMs;
    }
    if (!lost()) {
      const global = await runner.visionCost(page.mode.base_size, 1);
      costs.visionMs += global.openMs + global.passMs;
      costs.complete = true;
    }
  }
  costs.totalMs = performance.now() - started;
  return { steps, page: costs };
}

/**
 * Ms to prefill `rows` prompt rows: the least of two prefills of up to `PREFILL_SAMPLE_ROWS` rows
 * (the first on a GPU compiles its shaders), scaled by rows. Rows are embeddings of made-up tokens.
 */
async function prefillMs(runner: ModelRunner, manifest: Manifest, rows: number): Promise<number> {
  const sample = Math.min(rows, PREFILL_SAMPLE_ROWS);
  const banned = bannedIds(manifest);
  const vocab = manifest.architecture.language_config.vocab_size;
  const ids: number[] = [];
  for (let i = 0; ids.length < sample; i++) {
    const id = (i * 7919 + 13) % vocab;
    if (!banned.has(id)) ids.push(id);
  }
  const embeds = await runner.embed(ids);
  let least = Number.POSITIVE_INFINITY;
  for (let run = 0; run < 2; run++) {
    const { decoderCache, ms } = await prefill(runner, embeds, sample + 1);
    decoderCache.release();
    least = Math.min(least, ms);
  }
  return (least * rows) / sample;
}
