/**
 * The `vlm` page engine: renders the page (or takes an image), runs the model package, and streams
 * the committed tokens as text deltas. K = 0 decodes plain greedy; K = 1..4 uses FastMTP when the
 * package has an MTP head. The router builds it through `vlm-engine-cache.ts`.
 */

import type { Tokenizer } from '@huggingface/tokenizers';
import type { PDFDocumentProxy } from 'pdfjs-dist/legacy/build/pdf.mjs';
import type { PageContent, PageEngine, PageJob } from '../engine.js';
import { prefill, type DecodeResult } from './decoding.js';
import { createDetokeniser } from './detokeniser.js';
import { decodeGreedy } from './greedy.js';
import type { ModelPackage } from './model-package.js';
import { ModelRunner } from './model-runner.js';
import { pageInput, resolutionMode } from './page-input.js';
import { loadTokenizer } from './prompt.js';
import type { RgbImage } from '../raster/rgb-image.js';
import { decodeSpeculative } from './speculative.js';

export interface VlmSettings {
  mode: string;
  /** Draft tokens per step; 0 decodes plain greedy. */
  specK: number;
  maxNewTokens: number;
}

export interface VlmPageStats {
  device: string;
  reason: string;
  model: string;
  mode: string;
  visualTokens: number;
  promptTokens: number;
  newTokens: number;
  steps: number;
  tokensPerStep: number;
  /** Per draft position, accepted / proposed. */
  acceptance: number[];
  prefillMs: number;
  decodeMs: number;
  tokensPerSecond: number;
  /** Bytes held by the decoder's KV cache buffers. */
  cacheBytes: number;
  blank: boolean;
}

export interface ImageConversion {
  markdown: string;
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

  constructor(
    private readonly pkg: ModelPackage,
    private readonly settings: VlmSettings,
  ) {
    this.runner = new ModelRunner(pkg);
    this.tokenizer = loadTokenizer(pkg.tokenizerJson);
    if (settings.specK > 0 && !this.runner.hasMtp) throw new Error(`${pkg.dir}: speculative decoding needs an MTP head, and this package has none; use --spec-k 0`);
  }

  async convertImage(image: RgbImage, signal: AbortSignal | undefined, emitDelta: (text: string) => void): Promise<ImageConversion> {
    const { manifest } = this.pkg;
    const mode = resolutionMode(manifest, this.settings.mode);
    const base = { device: this.pkg.provider.device, reason: this.pkg.provider.reason, model: manifest.name, mode: mode.name };
    if (isNearBlank(image)) {
      return { markdown: '', stats: { ...base, visualTokens: 0, promptTokens: 0, newTokens: 0, steps: 0, tokensPerStep: 0, acceptance: [], prefillMs: 0, decodeMs: 0, tokensPerSecond: 0, cacheBytes: 0, blank: true } };
    }
    const input = await pageInput(this.runner, manifest, this.tokenizer, image, mode);
    const start = await prefill(this.runner, input.embeds, input.ids.length + this.settings.maxNewTokens + this.settings.specK + 1);
    const detokeniser = createDetokeniser(this.tokenizer, [manifest.tokens.bos, manifest.tokens.eos, manifest.tokens.pad]);
    let markdown = '';
    const emit = (text: string): void => {
      if (!text) return;
      markdown += text;
      emitDelta(text);
    };
    const limits = {
      eos: manifest.tokens.eos,
      maxNewTokens: this.settings.maxNewTokens,
      rule: manifest.decoding.no_repeat_ngram,
      signal,
      onTokens: (tokens: readonly number[]) => tokens.forEach((token) => emit(detokeniser.push(token))),
    };
    const result: DecodeResult =
      this.settings.specK > 0
        ? await decodeSpeculative(this.runner, start, null, this.settings.specK, limits, input.ids)
        : await decodeGreedy(this.runner, start, limits);
    emit(detokeniser.flush());
    const newTokens = result.tokens.length;
    return {
      markdown,
      stats: {
        ...base,
        visualTokens: input.visualTokens,
        promptTokens: input.ids.length,
        newTokens,
        steps: result.steps,
        tokensPerStep: result.steps ? newTokens / result.steps : 0,
        acceptance: result.drafted.map((count, i) => (count ? (result.accepted[i] ?? 0) / count : 0)),
        prefillMs: result.prefillMs,
        decodeMs: result.decodeMs,
        tokensPerSecond: result.decodeMs ? (newTokens * 1000) / result.decodeMs : 0,
        cacheBytes: start.decoderCache.bytes,
        blank: false,
      },
    };
  }

  async convertPage(job: PageJob): Promise<PageContent> {
    const { image, size } = await this.pageImage(job);
    const { markdown, stats } = await this.convertImage(image, job.signal, (text) => job.emitDelta(text));
    return {
      width: size.width,
      height: size.height,
      markdown,
      blocks: [],
      images: [],
      device: stats.device,
      reason: stats.blank ? `${stats.reason}; page is blank, not sent to the model` : stats.reason,
      tokens: stats.newTokens,
      steps: stats.steps,
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

  forgetDocument(_pdf: PDFDocumentProxy): void {
    // nothing is cached per document: sessions belong to the package
  }
}
