/**
 * The `vlm` page engine: renders the page (or takes an image file's pixels), runs the model package,
 * and streams the committed tokens as text deltas. K = 0 decodes plain greedy; K = 1..4 uses FastMTP
 * when the package has an MTP head; `auto` lets the engine pick K from what it measures, learning
 * across the pages it converts. The router builds it through `vlm-engine-cache.ts`.
 */

import os from 'node:os';
import type { Tokenizer } from '@huggingface/tokenizers';
import type { PdfDocument } from '../pdf/pdf-document.js';
import { MAX_SPEC_K } from '../../../shared/conversion-defaults.js';
import { GroundingParser, pageGrounding, type GroundedRegion, type GroundingOptions } from '../../../shared/grounding.js';
import { safeModelMarkdown } from '../../../shared/model-markdown.js';
import type { DecodeStats, PageFlag } from '../../../shared/page.js';
import type { PageContent, PageEngine, PageJob } from '../engine.js';
import { groundedContent } from '../grounded-content.js';
import { PAGE_TEXT_LIMIT, PageTextLimit } from '../page-text-limit.js';
import type { RgbImage } from '../raster/rgb-image.js';
import { prefill, type DecodeLimits, type DecodeResult, type DraftingModel } from './decoding.js';
import { createDetokeniser } from './detokeniser.js';
import { AutoDraftLength, DEFAULT_AUTO_SETTINGS, fixedDraftLength, type DraftLength } from './draft-length.js';
import { FailureError } from '../../core/failure-error.js';
import { bannedIds, packagePrecision } from '../../core/model/manifest.js';
import type { ModelPackage } from './model-package.js';
import { ModelRunner } from './model-runner.js';
import { pageInput, resolutionMode, type PageInput } from './page-input.js';
import { loadTokenizer } from './prompt.js';
import { DEFAULT_REPETITION_RULE } from './repetition.js';
import { largestPromptRows, pageCacheBytes, whyPagesCannotPack } from './packed-pass-costs.js';
import { PassPacker, type PackingStats } from './pass-packer.js';
import { decodeSpeculative } from './speculative.js';
import { DecodingClock, visionPlan, visionThreadCount, type VisionPlan } from './vision-ahead.js';

export interface VlmSettings {
  mode: string;
  /** Draft tokens per step; 0 decodes plain greedy; `auto` measures and chooses. */
  specK: number | 'auto';
  maxNewTokens: number;
  /** The most characters taken for one page; the remote engine's limit unless a test sets a smaller one. */
  textLimit?: number;
  /** Pages decoding together in the same decoder passes (1 unless given); the CPU's capacity layout only. */
  pagesInFlight?: number;
  /** How `--pages-in-flight auto` chose `pagesInFlight`, said in each page's reason; undefined: it was asked for. */
  pagesInFlightReason?: string;
  /**
   * Whether the vision encoder runs on its own thread beside the decoding, the next pages' vision
   * ahead of a free lane within a memory budget (vision-ahead.ts), where the package's vision runs on
   * the CPU. Unset: only with several pages in flight, where it measured even or better on 2 cores;
   * one page at a time it measured 0.8x there (docs/benchmarks.md, bench:pages-in-flight).
   */
  visionBeside?: boolean;
}

export interface VlmPageStats extends DecodeStats {
  device: string;
  reason: string;
  flags: PageFlag[];
}

export interface ImageConversion {
  markdown: string;
  /** DeepSeek-OCR's grounded regions (none for a model that writes no grounding). */
  regions: readonly GroundedRegion[];
  stats: VlmPageStats;
}

/** A page where almost every pixel is near white carries nothing to transcribe; models hallucinate on it. */
export function isNearBlank(image: RgbImage): boolean {
  let inked = 0;
  for (let i = 0; i < image.data.length; i += 3) {
    if (Math.min(image.data[i] ?? 255, image.data[i + 1] ?? 255, image.data[i + 2] ?? 255) < 200) inked++;
  }
  return inked < (image.width * image.height) / 2000;
}

export class VlmEngine implements Omit<PageEngine, 'name'> {
  readonly name = 'vlm';
  private readonly runner: ModelRunner;
  private readonly tokenizer: Tokenizer;
  /** Outlives pages: under `auto`, what one page measured steers the next. */
  private readonly draftLength: DraftLength;
  /** The manifest's `banned_ids`: never chosen. */
  private readonly alwaysBanned: ReadonlySet<number>;
  /** Several pages' passes packed together; null when pages decode one at a time. */
  private readonly packer: PassPacker | null;
  /** Pages the engine takes at once (PageEngine.pagesInFlight): those decoding, and those whose vision runs ahead. */
  readonly pagesInFlight: number;
  /** Pages decoding together. */
  readonly lanes: number;
  /** Where the vision encoder runs and how many pages' vision may run ahead of a free lane. */
  readonly vision: VisionPlan;
  /** Why fewer pages are in flight than asked for, said in each page's reason. */
  private readonly inFlightNote: string;
  /** Time with a page decoding, against which a page's vision is measured. */
  private readonly decoding = new DecodingClock();
  /** One page decoding at a time (no packer): the end of the last one's turn. */
  private aloneTurn: Promise<void> = Promise.resolve();

  constructor(
    private readonly pkg: ModelPackage,
    private readonly settings: VlmSettings,
  ) {
    this.runner = new ModelRunner(pkg);
    this.tokenizer = loadTokenizer(pkg.tokenizerJson);
    this.alwaysBanned = bannedIds(pkg.manifest);
    const { specK } = settings;
    if (typeof specK === 'number' && specK > 0 && !this.runner.hasMtp) {
      throw new FailureError('model-package', `${pkg.dir}: speculative decoding needs an MTP head, and this package has none`, 'plain-decoding');
    }
    if (specK !== 'auto') this.draftLength = fixedDraftLength(specK);
    else this.draftLength = this.runner.hasMtp ? new AutoDraftLength(MAX_SPEC_K, DEFAULT_AUTO_SETTINGS, pkg.stepCosts) : fixedDraftLength(0);
    const wanted = Math.max(1, settings.pagesInFlight ?? 1);
    const packs = wanted > 1 && this.runner.packs;
    this.packer = packs ? new PassPacker(this.runner, wanted) : null;
    this.lanes = packs ? wanted : 1;
    this.vision = this.planVision();
    if (this.vision.onThread) {
      const cores = os.availableParallelism();
      const beside = visionThreadCount(cores, pkg.threadsOf(pkg.decoderGraph));
      // a page's vision takes every core while no pass runs: before the first page decodes, and while the
      // pages decoding hold their passes for pages on their way to free lanes (pass-packer.ts `arrive`)
      this.runner.visionOnThread(() => (this.decoding.active && !this.packer?.holding ? beside : cores));
    }
    this.pagesInFlight = this.lanes + this.vision.ahead;
    const chosen = settings.pagesInFlightReason ? `; ${settings.pagesInFlightReason}` : '';
    this.inFlightNote = wanted > 1 && !packs ? `; one page at a time, not ${wanted}: ${whyPagesCannotPack(this.runner, pkg)}` : chosen;
  }

  /**
   * The vision encoder on its own thread where the package's vision graphs run on the CPU, and the
   * pages ahead the memory allows: each lane's cache can reach its longest (as `--pages-in-flight
   * auto` counts it); a page ahead holds its prompt's rows.
   */
  private planVision(): VisionPlan {
    const { pkg, settings, runner } = this;
    // an unknown mode fails each page, naming the modes offered (resolutionMode)
    const mode = pkg.manifest.vision.resolution_modes.find((candidate) => candidate.name === settings.mode);
    const graphs = mode ? [`vision_${mode.base_size}`, ...(mode.crop ? [`vision_${mode.image_size}`] : [])] : [];
    if (!mode || !(settings.visionBeside ?? (this.lanes > 1 && this.decoderLeavesCores())) || graphs.some((graph) => pkg.onDevice(graph))) return { onThread: false, ahead: 0, why: '' };
    return visionPlan({
      freeBytes: os.freemem(),
      lanes: this.lanes,
      laneBytes: pageCacheBytes(pkg.manifest, mode, settings.maxNewTokens, MAX_SPEC_K, runner.hasMtp),
      // the laid-out features and the prompt's embeddings they go into, float32
      pageBytes: 2 * largestPromptRows(mode) * runner.hidden * 4,
      // a kept graph has a session for each of two thread counts there; one opened per pass, one at a time
      sessionBytes: Math.max(...graphs.map((graph) => (pkg.perPass.has(graph) ? 1 : 2) * pkg.weightBytes(graph))),
    });
  }

  /**
   * Whether the decoder's session leaves cores to a vision encoder beside it. One on every core
   * slowed to a crawl beside the encoder's thread (2 cores, the real-width 2-layer int4 package:
   * 4-page passes of 125-145 ms against 20-27 ms alone, docs/benchmarks.md), so then the pages'
   * vision takes turns with their decoding instead, every core to each.
   */
  private decoderLeavesCores(): boolean {
    const cores = os.availableParallelism();
    return (this.pkg.threadsOf(this.pkg.decoderGraph) ?? cores) < cores;
  }

  /** Streams the page's Markdown with any grounding tags taken out (see shared/grounding.ts). */
  async convertImage(
    image: RgbImage,
    signal: AbortSignal | undefined,
    emitDelta: (text: string) => void,
    grounding: GroundingOptions = pageGrounding(1, false),
  ): Promise<ImageConversion> {
    const { manifest } = this.pkg;
    const mode = resolutionMode(manifest, this.settings.mode);
    const base = {
      device: this.pkg.provider.device, reason: this.pkg.provider.reason, model: manifest.name, mode: mode.name, specKSetting: this.settings.specK,
      provider: this.pkg.provider.provider, precision: packagePrecision(manifest), cacheResident: this.runner.resident,
    };
    base.reason += this.inFlightNote + (this.vision.why && this.lanes > 1 ? `; ${this.vision.why}` : '');
    if (isNearBlank(image)) {
      const nothing = {
        visualTokens: 0, promptTokens: 0, newTokens: 0, steps: 0, tokensPerStep: 0, specK: 0, stepsAtK: [], acceptance: [], visionMs: 0, visionOnThread: false, visionWaitMs: 0, visionOverlapMs: 0, laneWaitMs: 0,
        prefillMs: 0, decodeMs: 0, tokensPerSecond: 0, cacheBytes: 0, hostBytesPerStep: 0, pagesTogether: { most: 0, mean: 0 }, rowsPerPass: 0, skippedIds: [],
      };
      return { markdown: '', regions: [], stats: { ...base, ...nothing, stopped: 'blank', flags: ['blank'] } };
    }
    const asked = performance.now();
    let decodedBefore = 0;
    // the pages decoding wait for this one while a lane is free for it (pass-packer.ts `arrive`)
    const arrived = this.packer?.arrive();
    let input: PageInput;
    try {
      input = await pageInput(this.runner, manifest, this.tokenizer, image, mode, () => (decodedBefore = this.decoding.now()));
    } catch (error) {
      arrived?.();
      throw error;
    }
    const embedded = performance.now();
    const vision: VisionFigures = {
      visionMs: embedded - asked - input.vision.waitMs,
      visionOnThread: input.vision.onThread,
      visionWaitMs: input.vision.waitMs,
      // on the decoding thread the others wait for it
      visionOverlapMs: input.vision.onThread ? this.decoding.now() - decodedBefore : 0,
      laneWaitMs: 0,
    };
    // the page joins the others' passes once its prompt is embedded (its vision is its own), or waits for the page decoding alone
    const packed = this.packer ? await this.packer.join().finally(arrived) : null;
    const done = packed ? undefined : await this.decodeAlone();
    vision.laneWaitMs = performance.now() - embedded;
    this.decoding.start();
    try {
      return await this.decodePage(packed ?? this.runner, input, vision, base, emitDelta, grounding, signal, () => packed?.stats);
    } finally {
      this.decoding.stop();
      packed?.leave();
      done?.();
    }
  }

  /** Waits for the page decoding alone before it (one whose vision ran ahead); call the result when done. */
  private async decodeAlone(): Promise<() => void> {
    const before = this.aloneTurn;
    let done = (): void => {};
    this.aloneTurn = new Promise<void>((resolve) => (done = resolve));
    await before;
    return done;
  }

  private async decodePage(
    model: DraftingModel,
    input: PageInput,
    vision: VisionFigures,
    base: Pick<VlmPageStats, 'device' | 'reason' | 'model' | 'mode' | 'specKSetting' | 'provider' | 'precision' | 'cacheResident'>,
    emitDelta: (text: string) => void,
    grounding: GroundingOptions,
    signal: AbortSignal | undefined,
    packing: () => PackingStats | undefined,
  ): Promise<ImageConversion> {
    const { manifest } = this.pkg;
    // Pages decoding together each keep their own `auto` chooser: sharing one, every page reported each
    // shared pass's time, so the probes' budget grew with the pages while a probe, which first feeds the
    // draft head the page's whole prompt, stalled them all (docs/benchmarks.md, "Through the CLI").
    const draftLength = packing() && this.draftLength instanceof AutoDraftLength ? new AutoDraftLength(MAX_SPEC_K, DEFAULT_AUTO_SETTINGS, this.pkg.stepCosts) : this.draftLength;
    const start = await prefill(model, input.embeds, input.ids.length + this.settings.maxNewTokens + draftLength.maxK + 1);
    draftLength.beginPage?.(input.ids.length, start.ms);
    const skippedIds: number[] = [];
    const detokeniser = createDetokeniser(this.tokenizer, [manifest.tokens.bos, manifest.tokens.eos, manifest.tokens.pad], (id) => skippedIds.push(id));
    const parser = new GroundingParser(grounding);
    // a model that never stops within max tokens of short tokens (or emits long ones) is stopped at the page's text limit, as the remote engine is
    const textLimit = this.settings.textLimit ?? PAGE_TEXT_LIMIT;
    const enough = new AbortController();
    const limit = new PageTextLimit(textLimit, () => enough.abort());
    const emit = (text: string): void => {
      const clean = text && parser.push(limit.take(text));
      if (clean) emitDelta(clean);
    };
    const limits: DecodeLimits = {
      eos: manifest.tokens.eos,
      maxNewTokens: this.settings.maxNewTokens,
      rule: { ...manifest.decoding.no_repeat_ngram, alwaysBanned: this.alwaysBanned },
      // table structure (`<td>`, `<tr>`) repeats in any table; it is no sign of a loop
      repetition: { ...DEFAULT_REPETITION_RULE, ignored: Object.values(manifest.tokens.special) },
      signal: signal ? AbortSignal.any([signal, enough.signal]) : enough.signal,
      onTokens: (tokens: readonly number[]) => tokens.forEach((token) => emit(detokeniser.push(token))),
    };
    // what crosses per step, not the prompt's one-off upload
    this.runner.resetTraffic();
    const result: DecodeResult = await decodeSpeculative(model, start, null, draftLength, limits, input.ids);
    emit(detokeniser.flush());
    const tail = parser.finish();
    if (tail) emitDelta(tail);
    const cacheBytes = start.decoderCache.bytes;
    start.decoderCache.release();
    const { uploaded, downloaded } = this.runner.traffic;
    const passes = Math.max(1, result.steps - 1);
    // stopped by the text limit rather than a cancel: the page is cut short as at the token limit
    const decoded: DecodeResult = limit.reached ? { ...result, stopped: 'limit' } : result;
    return {
      markdown: parser.markdown,
      regions: parser.regions,
      stats: {
        ...base, reason: limit.reached ? `${base.reason}; stopped at ${textLimit} characters, the most Folio takes for one page` : base.reason,
        ...decodeFigures(decoded, input.visualTokens, input.ids.length, cacheBytes),
        ...packingFigures(packing(), decoded.stepsAtK),
        ...vision,
        hostBytesPerStep: (uploaded + downloaded) / passes, skippedIds, flags: pageFlags(decoded.stopped),
      },
    };
  }

  async convertPage(job: PageJob): Promise<PageContent> {
    const { image, size } = await this.pageImage(job);
    const grounding = pageGrounding(job.page, job.options.keepHeaders);
    const { markdown, regions, stats } = await this.convertImage(image, job.signal, (text) => job.emitDelta(text), grounding);
    const { device, reason, flags, ...decode } = stats;
    const { blocks, images } = await groundedContent(regions, size, job.options.extractImages, async () => image);
    return {
      width: size.width,
      height: size.height,
      markdown: safeModelMarkdown(markdown),
      blocks,
      images,
      device,
      reason: decode.stopped === 'blank' ? `${reason}; page is blank, not sent to the model` : reason,
      tokens: decode.newTokens,
      steps: decode.steps,
      decode,
      flags,
    };
  }

  /** An image file's own pixels, as the reference preprocesses them; a PDF page rendered as sharp as the mode needs. */
  private async pageImage(job: PageJob): Promise<{ image: RgbImage; size: { width: number; height: number } }> {
    if (!job.pdf && job.storedImage) {
      const image = await job.storedImage();
      return { image, size: { width: image.width, height: image.height } };
    }
    const mode = resolutionMode(this.pkg.manifest, this.settings.mode);
    // tiles need the page sharper than the global view does
    const longSide = mode.crop ? Math.max(mode.base_size, mode.image_size * 3) : mode.base_size;
    const image = await job.render(longSide);
    const viewport = job.pdf ? (await job.pdf.getPage(job.page)).getViewport({ scale: 1 }) : image;
    return { image, size: { width: viewport.width, height: viewport.height } };
  }

  forgetDocument(_pdf: PdfDocument): void {
    // nothing is cached per document: sessions belong to the package, and `auto`'s measurements hold for any page
  }
}

type VisionFigures = Pick<DecodeStats, 'visionMs' | 'visionOnThread' | 'visionWaitMs' | 'visionOverlapMs' | 'laneWaitMs'>;
type DecodeFigures = Omit<DecodeStats, 'model' | 'mode' | 'specKSetting' | 'provider' | 'precision' | 'cacheResident' | 'hostBytesPerStep' | 'skippedIds' | 'pagesTogether' | 'rowsPerPass' | keyof VisionFigures>;

/** How the page's decoder passes were shared; a page decoded alone took one page per pass. */
function packingFigures(packing: PackingStats | undefined, stepsAtK: readonly number[]): Pick<DecodeStats, 'pagesTogether' | 'rowsPerPass'> {
  if (packing?.passes) return { pagesTogether: { most: packing.mostPages, mean: packing.meanPages }, rowsPerPass: packing.meanRows };
  const passes = stepsAtK.reduce((sum, count) => sum + count, 0);
  const rows = stepsAtK.reduce((sum, count, k) => sum + count * (k + 1), 0);
  return { pagesTogether: { most: 1, mean: 1 }, rowsPerPass: passes ? rows / passes : 0 };
}

function decodeFigures(result: DecodeResult, visualTokens: number, promptTokens: number, cacheBytes: number): DecodeFigures {
  const newTokens = result.tokens.length;
  const stepsAtK = result.stepsAtK;
  const mostUsed = stepsAtK.reduce((best, count, k) => (count > (stepsAtK[best] ?? 0) ? k : best), 0);
  return {
    visualTokens,
    promptTokens,
    newTokens,
    steps: result.steps,
    tokensPerStep: result.steps ? newTokens / result.steps : 0,
    specK: mostUsed,
    stepsAtK,
    acceptance: result.drafted.map((count, i) => (count ? (result.accepted[i] ?? 0) / count : 0)),
    prefillMs: result.prefillMs,
    decodeMs: result.decodeMs,
    tokensPerSecond: result.decodeMs ? (newTokens * 1000) / result.decodeMs : 0,
    cacheBytes,
    stopped: result.stopped,
  };
}

/** A page the model looped on, or that ran into the token limit, is cut short: a person should look at its end. */
function pageFlags(stopped: DecodeResult['stopped']): PageFlag[] {
  if (stopped === 'repetition') return ['repetition'];
  return stopped === 'limit' ? ['truncated'] : [];
}
