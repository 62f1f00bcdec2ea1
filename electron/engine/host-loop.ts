/**
 * The engine host's request loop: holds open documents, converts one page range per document at a
 * time, and streams each page's events back. Whatever the transport, the loop is the same.
 */

import { parseHostRequest } from '../../shared/protocol-schema.js';
import type { ConvertOptions, DeviceProbeRequest, HostRequest } from '../../shared/protocol.js';
import { DocumentSession } from './document-session.js';
import { toFailure } from '../core/failure-error.js';
import type { HostTransport } from './host-transport.js';
import type { EngineRouter } from './router.js';

interface HostedDocument {
  /** Undefined once opening failed (the failure has been reported). */
  session: Promise<DocumentSession | undefined>;
  conversion?: { abort: AbortController; done: Promise<void> };
}

export class EngineHost {
  private readonly documents = new Map<string, HostedDocument>();

  constructor(
    private readonly transport: HostTransport,
    private readonly router: EngineRouter,
  ) {}

  handle(message: unknown): void {
    const parsed = parseHostRequest(message);
    if (!parsed.ok) {
      this.transport.send({ type: 'request-rejected', docId: parsed.docId, message: parsed.message });
      return;
    }
    this.dispatch(parsed.request);
  }

  private dispatch(request: HostRequest): void {
    switch (request.type) {
      case 'open':
        return this.open(request.docId, request.path, request.password);
      case 'convert':
        return this.convert(request.docId, request.pages, request.options);
      case 'cancel':
        return this.documents.get(request.docId)?.conversion?.abort.abort();
      case 'close':
        return void this.close(request.docId);
      case 'render':
        return void this.render(request.docId, request.page, request.longSide);
      case 'probe-device':
        return void this.probeDevice(request);
    }
  }

  /** Loaded on demand: ONNX Runtime's native library is slow to load and only the vlm engine needs it otherwise. */
  private async probeDevice(request: DeviceProbeRequest): Promise<void> {
    try {
      const { probeDevices } = await import('./vlm/device-probe.js');
      this.transport.send({ type: 'device', ...(await probeDevices(request)) });
    } catch (error) {
      const reason = `ONNX Runtime did not load: ${toFailure(error).message}`;
      this.transport.send({ type: 'device', device: 'unknown', reason, runtimeVersion: 'unknown', available: [], missing: [reason] });
    }
  }

  private open(docId: string, path: string, password: string | undefined): void {
    if (this.documents.has(docId)) return this.reject(docId, `Document ${docId} is already open; close it before opening it again.`);
    const session = DocumentSession.open(this.router, path, password).then(
      (opened) => {
        this.transport.send({ type: 'opened', docId, info: opened.info });
        return opened;
      },
      (error: unknown) => {
        this.documents.delete(docId);
        this.transport.send({ type: 'open-failed', docId, failure: toFailure(error) });
        return undefined;
      },
    );
    this.documents.set(docId, { session });
  }

  private convert(docId: string, pages: number[], options: ConvertOptions): void {
    const document = this.documents.get(docId);
    if (!document) return this.reject(docId, `Document ${docId} is not open; send "open" first.`);
    if (document.conversion) return this.reject(docId, `Document ${docId} is already converting; cancel it or wait for convert-done.`);
    const abort = new AbortController();
    const done = this.runConversion(docId, document, pages, options, abort.signal).finally(() => {
      document.conversion = undefined;
    });
    document.conversion = { abort, done };
  }

  private async runConversion(docId: string, document: HostedDocument, pages: number[], options: ConvertOptions, signal: AbortSignal): Promise<void> {
    const session = await document.session;
    if (!session) return this.reject(docId, `Document ${docId} could not be opened, so it cannot be converted.`);
    try {
      await this.convertPages(session, docId, pages, options, signal);
    } catch (error) {
      // DocumentSession reports page failures itself; what lands here is a bug, reported rather than crashing the host.
      this.reject(docId, `Converting ${docId} stopped: ${toFailure(error).message}`);
    }
    this.transport.send({ type: 'convert-done', docId, cancelled: signal.aborted });
  }

  private async convertPages(session: DocumentSession, docId: string, pages: number[], options: ConvertOptions, signal: AbortSignal): Promise<void> {
    const send = this.transport.send.bind(this.transport);
    await session.convert(
      pages,
      options,
      {
        preparing: (page, detail, bytes) => send({ type: 'engine-preparing', docId, page, detail, bytes }),
        ready: (page) => send({ type: 'engine-ready', docId, page }),
        started: (page) => send({ type: 'page-started', docId, page }),
        delta: (page, text) => send({ type: 'page-delta', docId, page, text }),
        done: (result) => send({ type: 'page-done', docId, result }),
        failed: (page, failure) => send({ type: 'page-failed', docId, page, failure }),
      },
      signal,
    );
  }

  private async render(docId: string, page: number, longSide: number): Promise<void> {
    const session = await this.documents.get(docId)?.session;
    if (!session) return this.reject(docId, `Document ${docId} is not open; send "open" first.`);
    try {
      const image = await session.render(page, longSide);
      const { encodePageImage } = await import('./remote/page-image.js');
      const png = await encodePageImage(image, 'png');
      this.transport.send({ type: 'page-image', docId, page, width: image.width, height: image.height, png });
    } catch (error) {
      this.transport.send({ type: 'page-failed', docId, page, failure: toFailure(error) });
    }
  }

  private async close(docId: string): Promise<void> {
    const document = this.documents.get(docId);
    if (!document) return;
    this.documents.delete(docId);
    document.conversion?.abort.abort();
    await document.conversion?.done;
    const session = await document.session;
    // Nothing waits for a close; a document that fails to let go has nothing more to report.
    await session?.close().catch(() => undefined);
  }

  private reject(docId: string, message: string): void {
    this.transport.send({ type: 'request-rejected', docId, message });
  }
}
