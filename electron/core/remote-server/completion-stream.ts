/**
 * One streaming chat completion: POSTs the request, reads the server-sent events as they come
 * (eventsource-parser), and hands each text delta on. Ends at `data: [DONE]`; a stream that ends
 * without it was dropped.
 */

import { EventSourceParserStream } from 'eventsource-parser/stream';
import { AttemptError, isRetryableStatus, retryAfterMs } from './attempt-error.js';
import { messageOfBody, serverMessage } from './server-message.js';

export interface CompletionRequest {
  url: URL;
  body: Record<string, unknown>;
  apiKey: string | undefined;
  signal: AbortSignal;
}

export interface CompletionEnd {
  /** From the usage in the last chunk, when the server sends one. */
  completionTokens?: number;
  /** `stop`, or `length` when the page ran into max_tokens. */
  finishReason?: string;
}

interface ChatChunk {
  choices?: { delta?: { content?: string | null }; finish_reason?: string | null }[];
  usage?: { completion_tokens?: number } | null;
}

/** Throws an AttemptError for anything but a complete stream, or the signal's reason when aborted. */
export async function streamCompletion(request: CompletionRequest, onText: (text: string) => void): Promise<CompletionEnd> {
  const response = await post(request);
  if (!response.ok) {
    const message = `the server answered ${response.status}: ${messageOfBody(await response.text().catch(() => ''))}`;
    throw new AttemptError(message, isRetryableStatus(response.status), retryAfterMs(response.headers.get('retry-after')));
  }
  if (!response.body) throw new AttemptError('the server answered with no body', true);
  const end: CompletionEnd = {};
  let complete = false;
  const events = response.body.pipeThrough(new TextDecoderStream()).pipeThrough(new EventSourceParserStream()).getReader();
  const next = async () => {
    try {
      return await events.read();
    } catch (error) {
      if (request.signal.aborted) throw request.signal.reason;
      if (complete) return { done: true as const, value: undefined };
      throw new AttemptError(`the connection dropped mid-answer (${describe(error)})`, true);
    }
  };
  try {
    // read on past [DONE] to the end of the body (vLLM ends it at once), so the connection is reused
    for (let read = await next(); !read.done; read = await next()) {
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
  throw new AttemptError('the connection closed before the answer was complete', true);
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
