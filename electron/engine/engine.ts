/** The interface every page engine implements inside the engine host. */

import type { PdfDocument } from './pdf/pdf-document.js';
import type { EngineName } from '../../shared/engine-name.js';
import type { Block, DecodeStats, PageFlag, PageImage } from '../../shared/page.js';
import type { ConvertOptions } from '../../shared/protocol.js';
import type { RgbImage } from './raster/rgb-image.js';

export interface PageJob {
  /** Absent when the document is an image file, which has no text layer. */
  pdf?: PdfDocument;
  /** 1-based. */
  page: number;
  options: ConvertOptions;
  signal: AbortSignal;
  /** The page as pixels on white, its longer side `longSide` pixels: what image-reading engines see. */
  render(longSide: number): Promise<RgbImage>;
  /** An image file's page as stored (upright), unresampled; one pixel is one point. Absent for PDF pages. */
  storedImage?(): Promise<RgbImage>;
  /**
   * Streams Markdown as it is produced, for the live view. The concatenation of all deltas equals the
   * final Markdown, except that a model's final Markdown is made safe (shared/model-markdown.ts):
   * where the model wrote markup the export would not keep, the final text has it as text.
   */
  emitDelta(text: string): void;
  /** Whether the same conversion also converts `page`: an engine may read such a page ahead and keep the reading. */
  alsoConverts(page: number): boolean;
}

export interface PageContent {
  width: number;
  height: number;
  markdown: string;
  blocks: Block[];
  images: PageImage[];
  device: string;
  /** The model that read the page, for engines that run one the user chose. */
  model?: string;
  reason?: string;
  tokens?: number;
  steps?: number;
  decode?: DecodeStats;
  /** OCR engines: the mean probability of the characters read, 0-1. */
  confidence?: number;
  flags?: PageFlag[];
}

export interface PageEngine {
  readonly name: EngineName;
  /** Pages it can convert at once (a remote server decodes many together); absent: one at a time. */
  readonly pagesInFlight?: number;
  convertPage(job: PageJob): Promise<PageContent>;
  /** Frees what the engine cached for a document (layout statistics, running-text signatures). */
  forgetDocument(pdf: PdfDocument): void;
}
