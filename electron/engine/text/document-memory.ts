/**
 * Per-document memory of the text engine: page summaries (bounded) and the font statistics of
 * all pages read so far, plus the text content of the few pages read ahead as neighbours, so that
 * converting them next does not read them twice.
 */

import { fontStatistics, type FontStatistics, type Outline } from '../layout/headings.js';
import type { PageSummary } from '../layout/page-summary.js';
import type { TextContentLike } from './text-runs.js';

const MAX_SUMMARIES = 32;
const MAX_READ_AHEAD = 3;
/** pdf.js keeps per-page state in its worker until the document is cleaned up; this often, we do. */
const PAGES_PER_CLEANUP = 50;

export class DocumentMemory {
  private readonly summaries = new Map<number, PageSummary>();
  private readonly counted = new Set<number>();
  private readonly charsBySize = new Map<number, number>();
  private readonly shortLineSizes = new Set<number>();
  private readonly readAhead = new Map<number, TextContentLike>();
  private pagesSinceCleanup = 0;
  /** Numbered heading levels met so far, which later pages' subsections follow. */
  readonly outline: Outline = {};

  remember(page: number, summary: PageSummary): void {
    this.summaries.delete(page);
    this.summaries.set(page, summary);
    if (this.summaries.size > MAX_SUMMARIES) this.summaries.delete(this.summaries.keys().next().value!);
    if (this.counted.has(page)) return;
    this.counted.add(page);
    for (const [size, chars] of summary.charsBySize) this.charsBySize.set(size, (this.charsBySize.get(size) ?? 0) + chars);
    for (const size of summary.shortLineSizes) this.shortLineSizes.add(size);
  }

  summary(page: number): PageSummary | undefined {
    return this.summaries.get(page);
  }

  statistics(): FontStatistics {
    return fontStatistics(this.charsBySize, this.shortLineSizes);
  }

  keepContent(page: number, content: TextContentLike): void {
    this.readAhead.set(page, content);
    if (this.readAhead.size > MAX_READ_AHEAD) this.readAhead.delete(this.readAhead.keys().next().value!);
  }

  /** Counts a converted page; true when pdf.js's document caches should be cleared now. */
  pageConverted(): boolean {
    this.pagesSinceCleanup = (this.pagesSinceCleanup + 1) % PAGES_PER_CLEANUP;
    return this.pagesSinceCleanup === 0;
  }

  /** The kept text content of `page`, left kept. */
  keptContent(page: number): TextContentLike | undefined {
    return this.readAhead.get(page);
  }

  takeContent(page: number): TextContentLike | undefined {
    const content = this.readAhead.get(page);
    this.readAhead.delete(page);
    return content;
  }
}
