/**
 * The `remote` page engine: renders the page, sends it to an OpenAI-compatible server (vLLM serving
 * jina-ocr-v1 or DeepSeek-OCR) and streams the answer's deltas as the page's. Requests are capped
 * at the configured concurrency; the session keeps a few more pages rendering meanwhile. A 429, a
 * 5xx or a dropped connection is retried with backoff a bounded number of times; past that, or on
 * any other refusal, the page fails alone with the server's own words.
 */

import { GroundingParser, pageGrounding } from '../../../shared/grounding.js';
import { safeModelMarkdown } from '../../../shared/model-markdown.js';
import type { RemoteOptions } from '../../../shared/protocol.js';
import type { PageContent, PageEngine, PageJob } from '../engine.js';
import { FailureError } from '../../core/failure-error.js';
import { groundedContent } from '../grounded-content.js';
import { PAGE_TEXT_LIMIT, PageTextLimit } from '../page-text-limit.js';
import type { RgbImage } from '../raster/rgb-image.js';
import { isNearBlank } from '../vlm/vlm-engine.js';
import { AttemptError } from '../../core/remote-server/attempt-error.js';
import { chatRequestBody, imageDataUrl } from '../../core/remote-server/chat-request.js';
import { streamCompletion, type CompletionEnd } from '../../core/remote-server/completion-stream.js';
import { encodePageImage } from './page-image.js';
import { RequestSlots } from './request-slots.js';
import { ResumedText } from './resumed-text.js';
import { retryDelayMs, sleep } from '../../core/remote-server/retry-delay.js';
import { pagesInFlightFor } from '../../core/remote-server/pages-in-flight.js';
import { apiBase, endpoint, shownServer } from '../../core/remote-server/server-url.js';

/** A stream silent this long once the answer began has stalled (vLLM sends a token every few ms to a few hundred). */
const DEFAULT_IDLE_TIMEOUT_MS = 60_000;

export class RemoteEngine implements PageEngine {
  readonly name = 'remote';
  readonly pagesInFlight: number;
  private readonly url: URL;
  private readonly server: string;
  private readonly slots: RequestSlots;

  constructor(
    private readonly options: RemoteOptions,
    /** Sent as a Bearer token and never put into a message, a stat or a failure. */
    private readonly apiKey: string | undefined,
  ) {
    const base = apiBase(options.server);
    this.url = endpoint(base, 'chat/completions');
    this.server = shownServer(base);
    this.slots = new RequestSlots(options.concurrency);
    this.pagesInFlight = pagesInFlightFor(options.concurrency);
  }

  async convertPage(job: PageJob): Promise<PageContent> {
    const device = `${this.options.model} at ${this.server}`;
    const { width, height, body } = await this.requestFor(job);
    const model = this.options.model;
    if (!body) return { width, height, markdown: '', blocks: [], images: [], device, model, reason: 'page is blank, not sent to the server' };
    // DeepSeek-OCR's grounding tags come out of the text here, after retries have been reconciled
    const parser = new GroundingParser(pageGrounding(job.page, job.options.keepHeaders));
    const emit = (clean: string): void => {
      if (clean) job.emitDelta(clean);
    };
    // a server that ignores max_tokens is stopped here, and the page flagged as the token limit flags it
    const enough = new AbortController();
    const limit = new PageTextLimit(PAGE_TEXT_LIMIT, () => enough.abort());
    const text = new ResumedText((delta) => emit(parser.push(limit.take(delta))));
    const end = await this.slots.run(job.signal, () => this.requestWithRetries(body, text, job.signal, enough.signal));
    emit(parser.finish());
    const reason = limit.reached ? `stopped at ${PAGE_TEXT_LIMIT} characters, the most Folio takes for one page` : end.finishReason === 'length' ? `stopped at ${this.options.maxTokens} tokens, the token limit per page` : undefined;
    // the page's pixels were let go before the request; a figure to cut renders them again
    const { blocks, images } = await groundedContent(parser.regions, { width, height }, job.options.extractImages, async () => (await pageImage(job, this.options.imageLongSide)).image);
    return { width, height, markdown: safeModelMarkdown(parser.markdown), blocks, images, device, model, reason, tokens: end.completionTokens, flags: reason ? ['truncated'] : undefined };
  }

  /** The request for the page, or none when it is blank; its pixels are let go before the page waits for a request slot. */
  private async requestFor(job: PageJob): Promise<{ width: number; height: number; body?: Record<string, unknown> }> {
    const { image, width, height } = await pageImage(job, this.options.imageLongSide);
    if (isNearBlank(image)) return { width, height };
    const bytes = await encodePageImage(image, this.options.imageFormat);
    return { width, height, body: chatRequestBody(this.options, imageDataUrl(bytes, this.options.imageFormat)) };
  }

  forgetDocument(): void {
    // nothing is kept per document
  }

  /** `enough`: the page has all the text it will take; the stream is closed and what came is the answer. */
  private async requestWithRetries(body: Record<string, unknown>, text: ResumedText, signal: AbortSignal, enough: AbortSignal): Promise<CompletionEnd> {
    for (let retry = 0; ; retry++) {
      text.newAttempt();
      const timeout = AbortSignal.timeout(this.options.timeoutMs);
      try {
        const idleTimeoutMs = Math.min(this.options.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS, this.options.timeoutMs);
        const request = { url: this.url, body, apiKey: this.apiKey, signal: AbortSignal.any([signal, timeout, enough]), idleTimeoutMs };
        return await streamCompletion(request, (delta) => text.push(delta));
      } catch (error) {
        if (signal.aborted) throw signal.reason;
        if (enough.aborted) return { finishReason: 'length' };
        if (timeout.aborted) throw new FailureError('timeout', `${this.server} did not finish the page within ${seconds(this.options.timeoutMs)}`, 'remote-time');
        if (!(error instanceof AttemptError)) throw error;
        const message = this.redacted(error.message);
        if (!error.retryable) throw new FailureError('remote', `${this.server}: ${message}.`);
        if (retry >= this.options.retries) throw new FailureError('remote', `${this.server}: ${message} (gave up after ${retry + 1} attempts).`);
        await sleep(retryDelayMs(retry, error.retryAfterMs), signal);
      }
    }
  }

  /** A server or proxy that echoes the request's headers in its error must not carry the key into a failure. */
  private redacted(message: string): string {
    return this.apiKey ? message.split(this.apiKey).join('[API key]') : message;
  }
}

/**
 * The image to send, and the page's size in PDF points (an image file's page: one point per stored
 * pixel). An image file no larger than `longSide` goes as stored: upscaling it adds bytes, not detail.
 */
async function pageImage(job: PageJob, longSide: number): Promise<{ image: RgbImage; width: number; height: number }> {
  if (job.pdf) {
    const { width, height } = (await job.pdf.getPage(job.page)).getViewport({ scale: 1 });
    return { image: await job.render(longSide), width, height };
  }
  const stored = job.storedImage ? await job.storedImage() : undefined;
  if (!stored) {
    const image = await job.render(longSide);
    return { image, width: image.width, height: image.height };
  }
  const image = Math.max(stored.width, stored.height) <= longSide ? stored : await job.render(longSide);
  return { image, width: stored.width, height: stored.height };
}

function seconds(ms: number): string {
  return `${Math.round(ms / 100) / 10} s`;
}
