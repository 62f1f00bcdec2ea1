/**
 * One open document and the conversion of its pages, in-process. The engine host wraps this in a
 * message loop; tests and benchmarks call it directly.
 */

import type { PDFDocumentProxy } from 'pdfjs-dist/legacy/build/pdf.mjs';
import type { Failure } from '../../shared/failure.js';
import type { PageResult } from '../../shared/page.js';
import type { ConvertOptions, DocumentInfo } from '../../shared/protocol.js';
import { toFailure } from './failure-error.js';
import { openPdf } from './pdf/open-pdf.js';
import { renderPage } from './raster/page-raster.js';
import type { EngineRouter } from './router.js';

export interface PageListener {
  started(page: number): void;
  delta(page: number, text: string): void;
  done(result: PageResult): void;
  failed(page: number, failure: Failure): void;
}

export class DocumentSession {
  private constructor(
    readonly info: DocumentInfo,
    private readonly pdf: PDFDocumentProxy,
    private readonly router: EngineRouter,
  ) {}

  static async open(router: EngineRouter, file: string, password?: string): Promise<DocumentSession> {
    const { pdf, info } = await openPdf(file, password);
    return new DocumentSession(info, pdf, router);
  }

  /** Converts pages in order; a page that fails is reported and the next one goes on. */
  async convert(pages: readonly number[], options: ConvertOptions, listener: PageListener, signal: AbortSignal): Promise<void> {
    for (const page of pages) {
      if (signal.aborted) return;
      listener.started(page);
      try {
        listener.done(await this.convertPage(page, options, listener, signal));
      } catch (error) {
        if (signal.aborted) return;
        listener.failed(page, toFailure(error));
      }
    }
  }

  private async convertPage(page: number, options: ConvertOptions, listener: PageListener, signal: AbortSignal): Promise<PageResult> {
    const started = performance.now();
    const { engine, reason } = await this.router.route(options);
    const content = await engine.convertPage({
      pdf: this.pdf,
      page,
      options,
      signal,
      render: async (longSide) => renderPage(await this.pdf.getPage(page), longSide),
      emitDelta: (text) => listener.delta(page, text),
    });
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
        reason: content.reason ? `${reason}; ${content.reason}` : reason,
        timeMs: performance.now() - started,
        chars: content.markdown.length,
        tokens: content.tokens,
        steps: content.steps,
        tokensPerStep: content.tokens && content.steps ? content.tokens / content.steps : undefined,
      },
    };
  }

  async close(): Promise<void> {
    this.router.forgetDocument(this.pdf);
    await this.pdf.destroy();
  }
}
