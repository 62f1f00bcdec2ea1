/** What every engine produces for one page, in the same shape whichever engine ran. */

import type { EngineName } from './engine-name.js';

/** A rectangle in PDF points: origin at the page's top-left corner, y growing downwards. */
export type BBox = readonly [x0: number, y0: number, x1: number, y1: number];

export type BlockKind =
  | 'heading'
  | 'paragraph'
  | 'list'
  | 'table'
  | 'image'
  | 'formula'
  | 'code'
  | 'caption'
  /** Running text repeated across pages; left out of the Markdown unless headers are kept. */
  | 'header'
  | 'footer';

export interface Block {
  kind: BlockKind;
  bbox: BBox;
  /** The block's own Markdown, as it appears in the page's Markdown (empty for dropped running text). */
  markdown: string;
  /** 1-6 for headings. */
  level?: number;
}

/** An image found on the page; `data` is present only when images are extracted. */
export interface PageImage {
  /** Stable within the document, e.g. `page-3-image-1.png`; Markdown links to it as `folio-image:<name>`. */
  name: string;
  bbox: BBox;
  mime: 'image/png';
  data?: Uint8Array;
}

/**
 * Why a page wants a person's look: `repetition`, the model looped and was stopped there; `blank`,
 * judged blank and not read; `empty`, read but nothing came out of it; `truncated`, the answer
 * reached a length limit (the token limit, or the most text Folio takes for a page) and was cut there;
 * `low-confidence`, OCR read much of it by guesses (handwriting, a poor photo), so its text may be
 * wrong and no line of it was made a heading.
 */
export type PageFlag = 'repetition' | 'blank' | 'empty' | 'truncated' | 'low-confidence';

/** How a model decoded the page (the vlm engine). */
export interface DecodeStats {
  model: string;
  /** The package's resolution mode. */
  mode: string;
  visualTokens: number;
  promptTokens: number;
  newTokens: number;
  /** Decoder passes, the prefill included. */
  steps: number;
  tokensPerStep: number;
  /** Drafts per step: the setting (`auto` or 0..4), and the K most of this page's steps ran with. */
  specKSetting: number | 'auto';
  specK: number;
  /** Decoder passes after the prefill, by the K they checked (index 0: plain passes). */
  stepsAtK: number[];
  /** Per draft position, the share of drafts judged there that were right. */
  acceptance: number[];
  /**
   * From the page's turn on the vision encoder to its prompt embedded, wall time: on the decoding
   * thread the pages decoding meanwhile stall for it; on its own thread they go on.
   */
  visionMs: number;
  /** Whether the page's vision ran on its own thread beside the decoding (`--pages-in-flight`, the CPU). */
  visionOnThread: boolean;
  /** Waiting for the vision encoder while other pages' vision ran, before `visionMs`. */
  visionWaitMs: number;
  /** Of `visionMs`, how long other pages decoded meanwhile (0 on the decoding thread, where they wait). */
  visionOverlapMs: number;
  /** After its vision, waiting for a decoding lane: a page whose vision ran ahead of the decoding. */
  laneWaitMs: number;
  prefillMs: number;
  decodeMs: number;
  tokensPerSecond: number;
  /** Bytes held by the decoder's KV cache buffers. */
  cacheBytes: number;
  /** The execution provider that ran the model: `cpu`, `cuda`, `webgpu`. */
  provider: string;
  /** The package's weights: `fp32`, `fp16` or `int4`. */
  precision: 'fp32' | 'fp16' | 'int4';
  /** True when the KV caches stayed on the device between steps (WebGPU); false when they live on the host. */
  cacheResident: boolean;
  /**
   * Bytes that crossed between host and device per decoder pass after the prefill: host inputs
   * uploaded plus outputs downloaded, counted by the runtime (0 on the CPU provider).
   */
  hostBytesPerStep: number;
  /**
   * Pages that decoded in the same decoder passes as this one, itself counted (`--pages-in-flight`):
   * the most in one pass and the mean over its passes; 1 and 1 when it decoded alone.
   */
  pagesTogether: { most: number; mean: number };
  /** Rows per decoder pass this page took part in after its prefill, every page's together (another page's prefill included), on average. */
  rowsPerPass: number;
  /** Generated ids the package's tokenizer cannot decode, skipped from the text (in order, repeats kept). */
  skippedIds: number[];
  stopped: 'eos' | 'limit' | 'cancelled' | 'repetition' | 'blank';
}

export interface PageStats {
  engine: EngineName;
  /** Where the engine ran: `cpu`, `cuda:0`, `remote`. */
  device: string;
  /** The model that read the page: the package's name (vlm) or the name the server serves (remote). */
  model?: string;
  /** Why that device (e.g. "CUDA libraries not installed"), or why this engine was routed to. */
  reason?: string;
  timeMs: number;
  chars: number;
  tokens?: number;
  steps?: number;
  tokensPerStep?: number;
  decode?: DecodeStats;
  /** OCR engines: the mean probability the recogniser gave the characters it read, 0-1. */
  confidence?: number;
  /** Present when the page should be reviewed. */
  flags?: PageFlag[];
}

export interface PageResult {
  /** 1-based page number. */
  page: number;
  width: number;
  height: number;
  markdown: string;
  blocks: Block[];
  images: PageImage[];
  stats: PageStats;
}

/** The prefix of image links in engine Markdown, resolved by export to an asset path or a placeholder. */
export const IMAGE_LINK_PREFIX = 'folio-image:';
