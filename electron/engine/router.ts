/**
 * Picks the engine for a page: `auto` takes the remote server when one is configured, else the VLM
 * when a model package is configured, else, page by page, the text layer when it is real and OCR
 * (lite) when the page has none, an invisible one of poor quality, or mostly unmapped glyphs.
 */

import type { PdfDocument } from './pdf/pdf-document.js';
import type { ConvertOptions } from '../../shared/protocol.js';
import type { PageEngine } from './engine.js';
import { FailureError } from '../core/failure-error.js';
import { decidePageRoute } from './page-route.js';
import type { TextLayerFacts } from './text-layer-probe.js';
import type { RemoteEngineCache } from './remote/remote-engine-cache.js';
import { DocumentBandLines } from './layout/document-band-lines.js';
import { createTextEngine } from './text/text-engine.js';
import type { PreparationListener, VlmEngineCache } from './vlm/vlm-engine-cache.js';

export interface Route {
  engine: PageEngine;
  reason: string;
}

/** The page being routed; without it, `auto` answers for the document as a whole (the text layer). */
export interface PageRef {
  /** Absent for an image file's page. */
  pdf?: PdfDocument;
  page: number;
}

/**
 * The text engine is loaded with the router; the others when a conversion first asks for them, so
 * a host that only reads text layers never loads ONNX Runtime, the OCR models or the remote client
 * (they were most of its start-up: about 0.8 s of module loading on this 2-core machine).
 */
export class EngineRouter {
  // Each compares a page's running headers with its neighbours', whichever of the two read them.
  private readonly bandLines = new DocumentBandLines();
  private readonly text = createTextEngine(this.bandLines);
  private lite?: Promise<PageEngine>;
  private vlm?: Promise<VlmEngineCache>;
  private remote?: Promise<RemoteEngineCache>;

  /** `remoteApiKey`: the host reads it from its environment (FOLIO_API_KEY); it never travels in ConvertOptions. */
  constructor(private readonly credentials: { remoteApiKey?: string } = {}) {}

  /**
   * `document`: the open document asking (its session), which holds a model package until it closes;
   * `preparing` hears what the engine does to get ready (a package opening) while that lasts.
   */
  async route(options: ConvertOptions, page?: PageRef, document?: object, preparing?: PreparationListener): Promise<Route> {
    if (options.engine === 'text') return { engine: this.text, reason: 'text engine requested' };
    if (options.engine === 'lite') return { engine: await this.liteEngine(), reason: 'lite engine requested' };
    if (options.engine === 'remote' || (options.engine === 'auto' && options.remote)) {
      if (!options.remote) throw new FailureError('remote', 'The remote engine needs a server', 'remote-server');
      this.remote ??= import('./remote/remote-engine-cache.js').then(({ RemoteEngineCache }) => new RemoteEngineCache(this.credentials.remoteApiKey));
      return { engine: (await this.remote).engine(options.remote), reason: options.engine === 'remote' ? 'remote engine requested' : 'remote server configured' };
    }
    if (options.vlm) {
      this.vlm ??= import('./vlm/vlm-engine-cache.js').then(({ VlmEngineCache }) => new VlmEngineCache());
      const engine = await (await this.vlm).engine(options.vlm, document, preparing);
      return { engine, reason: options.engine === 'vlm' ? 'vlm engine requested' : 'model package configured' };
    }
    if (options.engine === 'vlm') throw new FailureError('model-package', 'The vlm engine needs a model package', 'model-package');
    if (!page) return { engine: this.text, reason: 'no model package configured; reading the text layer' };
    const decision = decidePageRoute(page.pdf ? await this.textLayerFacts(page.pdf, page.page) : undefined);
    return { engine: decision.engine === 'lite' ? await this.liteEngine() : this.text, reason: decision.reason };
  }

  /** The document closed: what only it used (running headers, a model package's sessions) is let go. */
  documentClosed(document: object, pdf: PdfDocument | undefined): void {
    if (pdf) {
      this.text.forgetDocument(pdf);
      void this.lite?.then((lite) => lite.forgetDocument(pdf));
    }
    void this.vlm?.then((vlm) => vlm.letGo(document));
  }

  private liteEngine(): Promise<PageEngine> {
    this.lite ??= import('./lite/lite-engine.js').then(({ createLiteEngine }) => createLiteEngine(this.bandLines));
    return this.lite;
  }

  /**
   * A page pdf.js cannot read goes to the text engine, which says it is damaged. The page's text
   * content comes from, and stays with, the text engine: converting the page reads it once.
   */
  private async textLayerFacts(pdf: PdfDocument, page: number): Promise<TextLayerFacts> {
    try {
      // loaded with pdf.js, which it reads: `--engine text` needs neither
      const { probeTextLayer } = await import('./text-layer-probe.js');
      return await probeTextLayer(await pdf.getPage(page), () => this.text.textContent(pdf, page));
    } catch {
      return { chars: Infinity, invisibleShare: 0, unmappedShare: 0, plausibleShare: 1, imageShare: 0, pathPaints: 0, annotations: 0 };
    }
  }
}
