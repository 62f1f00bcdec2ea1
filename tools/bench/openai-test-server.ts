/**
 * A stand-in for a vLLM server, on 127.0.0.1, for the remote engine's tests and benchmark. It speaks
 * the OpenAI streaming protocol as vLLM does (`chat.completion.chunk` SSE events, the usage chunk
 * with empty choices, `data: [DONE]`, errors as `{"error": {message, type, param, code}}`) and
 * misbehaves on request: slow tokens, answers out of order, 429s, dropped streams, hangs.
 */

import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export interface SeenRequest {
  /** 0-based, in order of arrival. */
  index: number;
  model: string;
  prompt: string;
  /** Pixel size of the image sent. */
  width: number;
  height: number;
  imageFormat: string;
  imageBytes: number;
  authorization: string | undefined;
  /** The request body less its messages (sampling fields and extras). */
  fields: Record<string, unknown>;
}

export interface TestServerConfig {
  /** Model names served; a request for another is refused as vLLM does (404). */
  models?: string[];
  /** The text of an answer; default: `tokensPerAnswer` words naming the image size. */
  answer?: (request: SeenRequest) => string;
  tokensPerAnswer?: number;
  /** Pause before each token, in ms. */
  tokenDelayMs?: number;
  /** Pause before the first token of the request that arrived `index`-th (to answer out of order). */
  firstTokenDelayMs?: (index: number) => number;
  /** The first `count` requests are refused with `status` (429, 503...), with Retry-After when given. */
  refuseFirst?: { count: number; status: number; retryAfterSeconds?: number };
  /** The connection is lost after this many tokens of the answer; undefined: the answer completes. */
  dropAfter?: (request: SeenRequest) => number | undefined;
  /** Every request gets its headers, then nothing more. */
  hang?: boolean;
  /** After this many tokens of the answer nothing more is sent, the connection left open; undefined: no stall. */
  stallAfter?: (request: SeenRequest) => number | undefined;
  /** This body instead of a stream (an HTML error page, a broken stream, an answer that ignored `stream`); undefined: the stream. */
  raw?: (request: SeenRequest) => { contentType: string; body: string } | undefined;
  /** The finish_reason of a complete answer; default `stop` (`length`: as if max_tokens cut it). */
  finishReason?: string;
  /** After the answer, this text over and over until the client hangs up: a server that ignores max_tokens. */
  endless?: string;
  /** Requests must carry `Authorization: Bearer <apiKey>`; a wrong one is refused, echoing what came. */
  apiKey?: string;
}

export interface ServerStats {
  requests: number;
  inFlight: number;
  maxInFlight: number;
  /** Requests whose connection closed before the answer was complete (a client that hung up). */
  abandoned: number;
  /** Summed time requests spent answering: over a run's duration, the mean number in flight. */
  busyMs: number;
  /** Requests whose answers completed, in the order they completed. */
  completed: SeenRequest[];
  seen: SeenRequest[];
}

export interface TestServer {
  /** `http://127.0.0.1:PORT` (no `/v1`). */
  url: string;
  stats: ServerStats;
  close(): Promise<void>;
}

const DEFAULT_MODELS = ['test-ocr'];

export async function startTestServer(config: TestServerConfig = {}): Promise<TestServer> {
  const stats: ServerStats = { requests: 0, inFlight: 0, maxInFlight: 0, abandoned: 0, busyMs: 0, completed: [], seen: [] };
  const models = config.models ?? DEFAULT_MODELS;
  const sockets = new Set<Socket>();
  const server = createServer((request, response) => {
    void handle(request, response).catch((error: unknown) => {
      if (!response.headersSent) sendError(response, 500, `test server: ${String(error)}`, 'InternalServerError');
      else response.destroy();
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const path = (request.url ?? '').replace(/\?.*$/, '');
    if (request.method === 'GET' && path === '/v1/models') {
      if (!authorised(request, response)) return;
      return sendJson(response, 200, { object: 'list', data: models.map((id) => ({ id, object: 'model', created: 0, owned_by: 'vllm', max_model_len: 8192 })) });
    }
    if (request.method !== 'POST' || path !== '/v1/chat/completions') return sendError(response, 404, `Not Found: ${request.method} ${path}`, 'NotFoundError');
    const body = JSON.parse(await readBody(request)) as Record<string, unknown>;
    const seen = describeRequest(stats.requests++, body, request.headers.authorization);
    stats.seen.push(seen);
    if (!authorised(request, response)) return;
    if (!models.includes(seen.model)) return sendError(response, 404, `The model \`${seen.model}\` does not exist.`, 'NotFoundError');
    if (config.refuseFirst && seen.index < config.refuseFirst.count) {
      const { status, retryAfterSeconds } = config.refuseFirst;
      if (retryAfterSeconds !== undefined) response.setHeader('retry-after', String(retryAfterSeconds));
      return sendError(response, status, status === 429 ? 'Too many requests: the server is at capacity.' : 'The engine is restarting.', 'ServiceUnavailableError');
    }
    await stream(seen, response);
  }

  function authorised(request: IncomingMessage, response: ServerResponse): boolean {
    if (config.apiKey === undefined || request.headers.authorization === `Bearer ${config.apiKey}`) return true;
    // a careless proxy echoes what it got: the client must keep this out of its messages
    sendError(response, 401, `Unauthorized: bad credentials "${request.headers.authorization ?? ''}"`, 'AuthenticationError');
    return false;
  }

  async function stream(seen: SeenRequest, response: ServerResponse): Promise<void> {
    const raw = config.raw?.(seen);
    if (raw) {
      response.writeHead(200, { 'content-type': raw.contentType });
      response.end(raw.body);
      return;
    }
    stats.inFlight++;
    stats.maxInFlight = Math.max(stats.maxInFlight, stats.inFlight);
    let finished = false;
    const started = performance.now();
    response.on('close', () => {
      stats.busyMs += performance.now() - started;
      stats.inFlight--;
      if (!finished) stats.abandoned++;
    });
    response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
    // vLLM sends the status line at once; a client waits for the first token with headers in hand
    response.flushHeaders();
    if (config.hang) return;
    const id = `chatcmpl-${seen.index}`;
    const chunk = (choices: unknown[], extra: Record<string, unknown> = {}) =>
      `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created: 0, model: seen.model, choices, ...extra })}\n\n`;
    const tokens = tokenise((config.answer ?? defaultAnswer(config.tokensPerAnswer ?? 40))(seen));
    await pause(config.firstTokenDelayMs?.(seen.index) ?? 0);
    if (response.destroyed) return;
    response.write(chunk([{ index: 0, delta: { role: 'assistant', content: '' }, logprobs: null, finish_reason: null }]));
    const dropAt = config.dropAfter?.(seen) ?? Infinity;
    const stallAt = config.stallAfter?.(seen) ?? Infinity;
    for (const [n, token] of tokens.entries()) {
      if (n === dropAt) {
        response.socket?.destroy();
        return;
      }
      if (n === stallAt) return;
      if (config.tokenDelayMs) await pause(config.tokenDelayMs);
      if (response.destroyed) return;
      response.write(chunk([{ index: 0, delta: { content: token }, logprobs: null, finish_reason: null }]));
    }
    if (config.endless !== undefined) return streamForever(config.endless, (content) => chunk([{ index: 0, delta: { content }, logprobs: null, finish_reason: null }]), response);
    response.write(chunk([{ index: 0, delta: { content: '' }, logprobs: null, finish_reason: config.finishReason ?? 'stop', stop_reason: null }]));
    const promptTokens = 300;
    if ((seen.fields.stream_options as { include_usage?: boolean } | undefined)?.include_usage) {
      response.write(chunk([], { usage: { prompt_tokens: promptTokens, total_tokens: promptTokens + tokens.length, completion_tokens: tokens.length } }));
    }
    finished = true;
    stats.completed.push(seen);
    response.end('data: [DONE]\n\n');
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    stats,
    close: () =>
      new Promise((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** `"Page 905x1280 ..."`: what the server saw, so a test can tell the pages apart by size. */
export function defaultAnswer(tokens: number): (request: SeenRequest) => string {
  return (request) => {
    const words = [`Page ${request.width}x${request.height}\n\n`];
    for (let i = 1; i < tokens; i++) words.push(`word${i} `);
    return words.join('');
  };
}

/** Splits text into pieces of one word and its trailing space, as tokens arrive. */
export function tokenise(text: string): string[] {
  return text.match(/\S+\s*|\s+/g) ?? [];
}

function describeRequest(index: number, body: Record<string, unknown>, authorization: string | undefined): SeenRequest {
  const { messages, ...fields } = body as { messages?: { content?: unknown }[] };
  const parts = (messages?.[0]?.content ?? []) as { type: string; text?: string; image_url?: { url: string } }[];
  const url = parts.find((part) => part.type === 'image_url')?.image_url?.url ?? '';
  const match = /^data:image\/(\w+);base64,(.*)$/s.exec(url);
  const bytes = Buffer.from(match?.[2] ?? '', 'base64');
  const size = imageSize(bytes);
  return {
    index,
    model: String(body.model),
    prompt: parts.find((part) => part.type === 'text')?.text ?? '',
    width: size.width,
    height: size.height,
    imageFormat: match?.[1] ?? 'none',
    imageBytes: bytes.length,
    authorization,
    fields,
  };
}

/** Reads PNG's IHDR or JPEG's start-of-frame; enough to tell pages apart without decoding them. */
function imageSize(bytes: Buffer): { width: number; height: number } {
  if (bytes.length > 24 && bytes.readUInt32BE(0) === 0x89504e47) return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
  for (let at = 2; at + 9 < bytes.length; ) {
    if (bytes[at] !== 0xff) break;
    const marker = bytes[at + 1]!;
    if (marker >= 0xc0 && marker <= 0xc3) return { width: bytes.readUInt16BE(at + 7), height: bytes.readUInt16BE(at + 5) };
    at += 2 + bytes.readUInt16BE(at + 2);
  }
  return { width: 0, height: 0 };
}

function sendJson(response: ServerResponse, status: number, payload: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(JSON.stringify(payload));
}

function sendError(response: ServerResponse, status: number, message: string, type: string): void {
  sendJson(response, status, { error: { message, type, param: null, code: status } });
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });
}

/** Writes the same chunk as fast as the client reads it, until the connection closes. */
async function streamForever(text: string, chunk: (content: string) => string, response: ServerResponse): Promise<void> {
  const closed = new Promise<void>((resolve) => response.once('close', resolve));
  while (!response.destroyed) {
    if (!response.write(chunk(text))) await Promise.race([new Promise((resolve) => response.once('drain', resolve)), closed]);
  }
}

function pause(ms: number): Promise<void> {
  return ms > 0 ? new Promise((resolve) => setTimeout(resolve, ms)) : Promise.resolve();
}
