/**
 * One streaming chat completion: POSTs the request, reads the server-sent events as they come
 * (eventsource-parser), and hands each text delta on. Ends at `data: [DONE]`; a stream that ends
 * without it was dropped, and one silent for `idleTimeoutMs` once begun has stalled. A body that is
 * no stream (a proxy's HTML error page, plain text) fails in its own words; a whole JSON completion
 * (a server that ignores `stream`) is taken as the answer.
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

/** Throws an AttemptError for anything but a complete stream, or the signal's reason when aborted. */
export async function streamCompletion(request: CompletionRequest, onText: (text: string) => void): Promise<CompletionEnd> {
  const response = await post(request);
  if (!response.ok) {
    const message = `the server answered ${response.status}: ${messageOfBody(await response.text().catch(() => ''))}`;
    throw new AttemptError(message, isRetryableStatus(response.status), retryAfterMs(response.headers.get('retry-after')));
  }
  if (!response.body) throw new AttemptError('the server answered with no body', true);
  const type = response.headers.get('content-type') ?? '';
  if (type !== '' && !/^text\/event-stream\b/i.test(type)) return wholeAnswer(type, await response.text().catch(() => ''), onText);
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
  const events = response.body.pipeThrough(new TextDecoderStream()).pipeThrough(keepStart).pipeThrough(new EventSourceParserStream()).getReader();
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

async function post(request: CompletionRequest): Promise<Response> {
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'text/event-stream' };
  if (request.apiKey) headers.authorization = `Bearer ${request.apiKey}`;
  try {
    return await fetch(request.url, { method: 'POST', headers, body: JSON.stringify(request.body), signal: request.signal });
  } catch (error) {
    if (request.signal.aborted) throw request.signal.reason;
    throw new AttemptError(`could not reach the server (${describe(error)})`, true);
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
