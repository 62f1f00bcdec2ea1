/**
 * One open document and the conversion of its pages, in-process. The engine host wraps this in a
 * message loop; tests and benchmarks call it directly.
 */

import type { Failure } from '../../shared/failure.js';
import type { PageResult } from '../../shared/page.js';
import type { ConvertOptions, DocumentInfo } from '../../shared/protocol.js';
import type { DocumentSource } from './document-source.js';
import { openDocumentSource } from './open-document.js';
import { FailureError, toFailure } from '../core/failure-error.js';
import { convertInPageOrder } from './page-order.js';
import type { RgbImage } from './raster/rgb-image.js';
import type { EngineRouter } from './router.js';

export interface PageListener {
  /** The engine gets ready before `page` can start (shared/page-event.ts `engine-preparing`); may be told again as that goes on. */
  preparing?(page: number, detail: string, bytes: number): void;
  /** It is ready (or failed, which its pages report): told once after `preparing`. */
  ready?(page: number): void;
  started(page: number): void;
  delta(page: number, text: string): void;
  done(result: PageResult): void;
  failed(page: number, failure: Failure): void;
}

export class DocumentSession {
  private constructor(
    readonly info: DocumentInfo,
    private readonly source: DocumentSource,
    private readonly router: EngineRouter,
  ) {}

  static async open(router: EngineRouter, file: string, password?: string): Promise<DocumentSession> {
    const source = await openDocumentSource(file, password);
    return new DocumentSession(source.info, source, router);
  }

  /** The page on white, its longer side `longSide` pixels (an image file's page is resampled to it). */
  render(page: number, longSide: number): Promise<RgbImage> {
    if (!Number.isInteger(page) || page < 1 || page > this.info.pageCount) {
      // a saved workspace may name a page of an earlier version of the file
      throw new FailureError('not-found', `the document now has pages 1 to ${this.info.pageCount}; there is no page ${page}.`);
    }
    return this.source.render(page, longSide);
  }

  /**
   * Converts pages, several at once when the engine can take them (PageEngine.pagesInFlight), and
   * reports them in order; a page that fails is reported and the next one goes on.
   */
  async convert(pages: readonly number[], requested: ConvertOptions, listener: PageListener, signal: AbortSignal): Promise<void> {
    const converting = new Set(pages);
    // `--pages-in-flight auto` puts no more pages in flight than there are to convert: each lane is read by every pass
    const options = requested.vlm?.pagesInFlight === 'auto' && pages.length ? { ...requested, vlm: { ...requested.vlm, documentPages: pages.length } } : requested;
    await convertInPageOrder(pages, await this.pagesInFlight(options, pages[0], listener), signal, {
      start: (page) => listener.started(page),
      convert: (page) => this.convertPage(page, converting, options, listener, signal),
      report: (page, outcome) => (outcome.ok ? listener.done(outcome.value) : listener.failed(page, toFailure(outcome.error))),
    });
  }

  /** The engine is had here, before any page starts: opening a model package is no page's time. */
  private async pagesInFlight(options: ConvertOptions, first: number | undefined, listener: PageListener): Promise<number> {
    let prepared = false;
    const preparing = (detail: string, bytes: number) => {
      prepared = true;
      if (first !== undefined) listener.preparing?.(first, detail, bytes);
    };
    try {
      return (await this.router.route(options, undefined, this, preparing)).engine.pagesInFlight ?? 1;
    } catch {
      // an engine that cannot be had fails each page with its reason, one at a time
      return 1;
    } finally {
      if (prepared && first !== undefined) listener.ready?.(first);
    }
  }

  private async convertPage(page: number, converting: ReadonlySet<number>, options: ConvertOptions, listener: PageListener, signal: AbortSignal): Promise<PageResult> {
    const started = performance.now();
    const { source } = this;
    const { engine, reason } = await this.router.route(options, { pdf: source.pdf, page }, this);
    const storedImage = source.storedImage?.bind(source);
    const content = await engine.convertPage({
      pdf: source.pdf,
      page,
      options,
      signal,
      render: (longSide) => source.render(page, longSide),
      storedImage: storedImage && (() => storedImage(page)),
      emitDelta: (text) => listener.delta(page, text),
      alsoConverts: (other) => converting.has(other),
    });
    const empty = content.markdown.trim() === '' && content.images.length === 0;
    const contentError = empty ? await source.contentError?.(page) : undefined;
    if (contentError !== undefined) {
      throw new FailureError('damaged', `pdf.js could not read the page's content (${contentError}), so nothing came out of it; another PDF reader may read its text.`);
    }
    // an empty page is for a person to confirm, unless the engine already said why (blank)
    const flags = empty && !content.flags?.length ? (['empty'] as const) : content.flags;
    return {
      page,
      width: content.width,
      height: content.height,
      markdown: content.markdown,
      blocks: content.blocks,
      images: content.images,
      stats: {
        engine: engine.name,
        device: content.device,
        model: content.model ?? content.decode?.model,
        reason: content.reason ? `${reason}; ${content.reason}` : reason,
        timeMs: performance.now() - started,
        chars: content.markdown.length,
        tokens: content.tokens,
        steps: content.steps,
        tokensPerStep: content.tokens && content.steps ? content.tokens / content.steps : undefined,
        decode: content.decode,
        confidence: content.confidence,
        flags: flags?.length ? [...flags] : undefined,
      },
    };
  }

  async close(): Promise<void> {
    this.router.documentClosed(this, this.source.pdf);
    await this.source.close();
  }
}
