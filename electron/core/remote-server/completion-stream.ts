/**
 * One streaming chat completion: POSTs the request, reads the server-sent events as they come
 * (eventsource-parser), and hands each text delta on. Ends at `data: [DONE]`; a stream that ends
 * without it was dropped, and one silent for `idleTimeoutMs` once begun has stalled. A body that is
 * no stream (a proxy's HTML error page, plain text) fails in its own words; a whole JSON completion
 * (a server that ignores `stream`) is taken as the answer.
 *
 * Every part of the answer is bounded before it is held: one event of the stream (a line that never
 * ends would otherwise grow the parser's buffer until memory runs out), a body that is no stream, an
 * error page; undici bounds the headers (16 KiB). A redirect is followed only within the server's
 * own origin: a page image is never sent where the user did not point Folio.
 */

import { EventSourceParserStream } from 'eventsource-parser/stream';
import { AttemptError, isRetryableStatus, retryAfterMs } from './attempt-error.js';
import { messageOfBody, serverMessage } from './server-message.js';

export interface CompletionRequest {
  url: URL;
  body: Record<string, unknown>;
  apiKey: string | undefined;
  signal: AbortSignal;
  /** Once the first event came, the longest wait for the next; undefined: no limit but the signal's. */
  idleTimeoutMs?: number;
}

export interface CompletionEnd {
  /** From the usage in the last chunk, when the server sends one. */
  completionTokens?: number;
  /** `stop`, or `length` when the page ran into max_tokens. */
  finishReason?: string;
}

interface ChatChunk {
  choices?: { delta?: { content?: string | null }; message?: { content?: string | null }; finish_reason?: string | null }[];
  usage?: { completion_tokens?: number } | null;
}

/** How much of a body that is no stream of events is quoted in the failure. */
const QUOTED_START = 120;
/** One event of the stream: a page's whole answer (200,000 characters) JSON-escaped fits several times over. */
export const MAX_EVENT_CHARS = 4_000_000;
/** A body that is not a stream: a whole completion, or an error page (only its start is quoted). */
const MAX_BODY_BYTES = 8 * 1024 * 1024;
const MAX_ERROR_BODY_BYTES = 64 * 1024;
const MAX_REDIRECTS = 3;

/** Throws an AttemptError for anything but a complete stream, or the signal's reason when aborted. */
export async function streamCompletion(request: CompletionRequest, onText: (text: string) => void): Promise<CompletionEnd> {
  const response = await post(request);
  if (!response.ok) {
    const message = `the server answered ${response.status}: ${messageOfBody((await boundedText(response, MAX_ERROR_BODY_BYTES, true).catch(() => '')) ?? '')}`;
    throw new AttemptError(message, isRetryableStatus(response.status), retryAfterMs(response.headers.get('retry-after')));
  }
  if (!response.body) throw new AttemptError('the server answered with no body', true);
  const type = response.headers.get('content-type') ?? '';
  if (type !== '' && !/^text\/event-stream\b/i.test(type)) {
    const body = await boundedText(response, MAX_BODY_BYTES);
    if (body === undefined) throw new AttemptError(`the server answered with more than ${MAX_BODY_BYTES / 1024 / 1024} MiB of ${type.split(';')[0]} instead of a stream of events`, false);
    return wholeAnswer(type, body, onText);
  }
  const end: CompletionEnd = {};
  let complete = false;
  let eventsSeen = 0;
  let start = '';
  const keepStart = new TransformStream<string, string>({
    transform(text, controller) {
      if (start.length < QUOTED_START) start += text.slice(0, QUOTED_START - start.length);
      controller.enqueue(text);
    },
  });
  const events = response.body.pipeThrough(new TextDecoderStream()).pipeThrough(keepStart).pipeThrough(boundedEvents()).pipeThrough(new EventSourceParserStream()).getReader();
  const next = async () => {
    try {
      // before the first event the server may be queueing the page; after it, silence is a stall
      return await (eventsSeen > 0 && request.idleTimeoutMs !== undefined ? withinIdleLimit(events.read(), request.idleTimeoutMs) : events.read());
    } catch (error) {
      if (request.signal.aborted) throw request.signal.reason;
      if (error instanceof AttemptError) throw error;
      if (complete) return { done: true as const, value: undefined };
      throw new AttemptError(`the connection dropped mid-answer (${describe(error)})`, true);
    }
  };
  try {
    // read on past [DONE] to the end of the body (vLLM ends it at once), so the connection is reused
    for (let read = await next(); !read.done; read = await next()) {
      eventsSeen++;
      if (complete) continue;
      if (read.value.data === '[DONE]') {
        complete = true;
        continue;
      }
      const chunk = parseChunk(read.value.data);
      const error = serverMessage(chunk);
      if (error !== undefined) throw new AttemptError(`the server stopped the page: ${error}`, false);
      for (const choice of chunk.choices ?? []) {
        if (choice.delta?.content) onText(choice.delta.content);
        if (choice.finish_reason) end.finishReason = choice.finish_reason;
      }
      if (typeof chunk.usage?.completion_tokens === 'number') end.completionTokens = chunk.usage.completion_tokens;
    }
  } finally {
    // whatever stopped the reading early, the connection must not stay open behind it
    if (!complete) await events.cancel().catch(() => undefined);
  }
  if (complete) return end;
  if (eventsSeen === 0) throw new AttemptError(`the server's answer was not a stream of events (it began: "${quoted(start)}")`, false);
  throw new AttemptError('the connection closed before the answer was complete', true);
}

/**
 * Passes the stream's text on, failing it once one event (the text since the last blank line, which
 * ends an event) passes MAX_EVENT_CHARS: the parser holds an unfinished event whole.
 */
function boundedEvents(): TransformStream<string, string> {
  let eventChars = 0;
  let lineChars = 0;
  let afterCarriageReturn = false;
  return new TransformStream<string, string>({
    transform(text, controller) {
      for (let index = 0; index < text.length; index++) {
        const code = text.charCodeAt(index);
        if (code === 10 && afterCarriageReturn) {
          afterCarriageReturn = false;
          continue;
        }
        afterCarriageReturn = code === 13;
        if (code === 10 || code === 13) {
          if (lineChars === 0) eventChars = 0;
          lineChars = 0;
        } else {
          lineChars++;
          if (++eventChars > MAX_EVENT_CHARS) {
            throw new AttemptError(`the server sent more than ${MAX_EVENT_CHARS.toLocaleString('en')} characters without ending a line of its stream; the page was stopped there`, false);
          }
        }
      }
      controller.enqueue(text);
    },
  });
}

/** The body as text, or when it is longer than `maxBytes` (reading stops there) its start (`keepStart`) or undefined. */
export async function boundedText(response: Response, maxBytes: number, keepStart = false): Promise<string | undefined> {
  if (!response.body) return '';
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (let read = await reader.read(); !read.done; read = await reader.read()) {
      size += read.value.byteLength;
      if (size > maxBytes) {
        if (!keepStart) return undefined;
        chunks.push(read.value.subarray(0, read.value.byteLength - (size - maxBytes)));
        break;
      }
      chunks.push(read.value);
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** The next read, or an AttemptError when nothing comes for `ms`. */
async function withinIdleLimit<T>(read: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const silence = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new AttemptError(`the server sent nothing for ${Math.round(ms / 100) / 10} s in the middle of the answer`, true)), ms);
  });
  try {
    return await Promise.race([read, silence]);
  } finally {
    clearTimeout(timer);
  }
}

/** A body that is not a stream: a whole completion taken as the answer, a JSON error in its words, anything else quoted. */
function wholeAnswer(type: string, body: string, onText: (text: string) => void): CompletionEnd {
  let payload: ChatChunk | undefined;
  try {
    payload = JSON.parse(body) as ChatChunk;
  } catch {
    payload = undefined;
  }
  const error = serverMessage(payload);
  if (error !== undefined) throw new AttemptError(`the server stopped the page: ${error}`, false);
  const choice = payload?.choices?.[0];
  if (typeof choice?.message?.content === 'string') {
    if (choice.message.content) onText(choice.message.content);
    return { finishReason: choice.finish_reason ?? undefined, completionTokens: payload?.usage?.completion_tokens ?? undefined };
  }
  throw new AttemptError(`the server answered with ${type.split(';')[0]} instead of a stream of events: "${quoted(messageOfBody(body))}"`, false);
}

function quoted(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > QUOTED_START ? `${flat.slice(0, QUOTED_START)}…` : flat;
}

/** POSTs the page; a redirect is followed (as a POST, at most MAX_REDIRECTS times) only within the server's origin. */
async function post(request: CompletionRequest): Promise<Response> {
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'text/event-stream' };
  if (request.apiKey) headers.authorization = `Bearer ${request.apiKey}`;
  const body = JSON.stringify(request.body);
  let url = request.url;
  for (let hops = 0; ; hops++) {
    let response: Response;
    try {
      response = await fetch(url, { method: 'POST', headers, body, signal: request.signal, redirect: 'manual' });
    } catch (error) {
      if (request.signal.aborted) throw request.signal.reason;
      throw new AttemptError(`could not reach the server (${describe(error)})`, true);
    }
    const location = response.status >= 300 && response.status < 400 ? response.headers.get('location') : null;
    if (location === null) return response;
    await response.body?.cancel().catch(() => undefined);
    const target = redirectTarget(url, location);
    if (!target || target.origin !== request.url.origin) {
      throw new AttemptError(`the server redirected the page to ${target?.href ?? JSON.stringify(location.slice(0, 200))}, another origin than ${request.url.origin}; Folio sends pages only to the server it was given, so give that address instead if you trust it`, false);
    }
    if (hops >= MAX_REDIRECTS) throw new AttemptError(`the server redirected the page more than ${MAX_REDIRECTS} times`, false);
    url = target;
  }
}

function redirectTarget(from: URL, location: string): URL | undefined {
  try {
    return new URL(location, from);
  } catch {
    return undefined;
  }
}

function parseChunk(data: string): ChatChunk {
  try {
    return JSON.parse(data) as ChatChunk;
  } catch {
    throw new AttemptError(`the server sent a chunk that is not JSON: ${data.slice(0, 80)}`, false);
  }
}

/** undici hides the socket's reason (ECONNREFUSED, ECONNRESET) in `cause`. */
function describe(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  return cause?.message ?? cause?.code ?? (error instanceof Error ? error.message : String(error));
}
