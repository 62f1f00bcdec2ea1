/**
 * `folio serve-check URL`: does the server answer, which models does it serve, and how long does one
 * small page take (first token, whole answer), through the same request code as the remote engine.
 */

import { createCanvas } from '@napi-rs/canvas';
import type { Writable } from 'node:stream';
import { AttemptError } from '../core/remote-server/attempt-error.js';
import { chatRequestBody, imageDataUrl } from '../core/remote-server/chat-request.js';
import { encodeCanvas } from '../core/canvas-encoding.js';
import { boundedText, streamCompletion } from '../core/remote-server/completion-stream.js';
import { messageOfBody } from '../core/remote-server/server-message.js';
import { apiBase, endpoint, shownServer } from '../core/remote-server/server-url.js';
import { FailureError } from '../core/failure-error.js';
import type { ServeCheckRequest } from './cli-args.js';
import { terminalSafe } from './terminal-text.js';

export interface ServeCheckIo {
  stdout: Writable;
  stderr: Writable;
  /** FOLIO_API_KEY; sent, never printed. */
  apiKey: string | undefined;
}

const SAMPLE_TOKENS = 64;

/** Exit status 0 when the server answered both questions, 1 when not. */
export async function runServeCheck(request: ServeCheckRequest, io: ServeCheckIo): Promise<number> {
  const base = apiBase(request.server);
  const server = shownServer(base);
  const say = (line: string) => io.stdout.write(`${terminalSafe(line)}\n`);
  const fail = (line: string) => {
    io.stderr.write(`folio: ${terminalSafe(`${server}: ${redact(line, io.apiKey)}`)}\n`);
    return 1;
  };
  let models: string[];
  const listed = performance.now();
  try {
    models = await listModels(endpoint(base, 'models'), io.apiKey, request.timeoutMs);
  } catch (error) {
    return fail(`${reason(error)}; is the address right and the server started?`);
  }
  say(`server: ${server} answers (${ms(performance.now() - listed)} for /v1/models)`);
  say(`models: ${models.length ? models.join(', ') : '(none listed)'}`);
  const model = request.model ?? models[0];
  if (model === undefined) return fail('serves no model, so no page can be sent.');
  if (!models.includes(model)) return fail(`does not serve "${model}"; pick one of the models above with --model.`);
  const options = { server: request.server, model, concurrency: 1, timeoutMs: request.timeoutMs, retries: 0, imageLongSide: 640, imageFormat: 'png' as const, maxTokens: SAMPLE_TOKENS };
  const body = chatRequestBody(options, imageDataUrl(await samplePage(), 'png'));
  const sent = performance.now();
  let firstToken: number | undefined;
  let answer = '';
  try {
    const end = await streamCompletion({ url: endpoint(base, 'chat/completions'), body, apiKey: io.apiKey, signal: AbortSignal.timeout(request.timeoutMs) }, (text) => {
      firstToken ??= performance.now();
      answer += text;
    });
    const total = performance.now() - sent;
    const tokens = end.completionTokens === undefined ? '' : `, ${end.completionTokens} tokens`;
    say(`round trip: one small page with ${model} in ${ms(total)} (first token after ${ms((firstToken ?? performance.now()) - sent)}${tokens})`);
    say(`answer: ${JSON.stringify(answer.length > 120 ? `${answer.slice(0, 120)}…` : answer)}`);
    return 0;
  } catch (error) {
    return fail(`the sample page failed: ${reason(error)}.`);
  }
}

async function listModels(url: URL, apiKey: string | undefined, timeoutMs: number): Promise<string[]> {
  const headers: Record<string, string> = apiKey ? { authorization: `Bearer ${apiKey}` } : {};
  let response: Response;
  try {
    response = await fetch(url, { headers, signal: AbortSignal.timeout(timeoutMs) });
  } catch (error) {
    throw new AttemptError(`no answer (${(error as { cause?: { code?: string } }).cause?.code ?? (error as Error).message})`, true);
  }
  // a list of model names; a body past this is no such list
  const text = await boundedText(response, 4 * 1024 * 1024, !response.ok);
  if (text === undefined) throw new AttemptError('/v1/models answered with more than 4 MiB', false);
  if (!response.ok) throw new AttemptError(`/v1/models answered ${response.status}: ${messageOfBody(text)}`, false);
  const data = (JSON.parse(text) as { data?: { id?: unknown }[] }).data ?? [];
  return data.map((entry) => entry.id).filter((id): id is string => typeof id === 'string');
}

/** A few printed lines, enough for any OCR model to read something back. */
async function samplePage(): Promise<Uint8Array> {
  const canvas = createCanvas(640, 320);
  const context = canvas.getContext('2d');
  context.fillStyle = '#ffffff';
  context.fillRect(0, 0, 640, 320);
  context.fillStyle = '#000000';
  context.font = 'bold 36px sans-serif';
  context.fillText('Folio serve check', 40, 90);
  context.font = '24px sans-serif';
  context.fillText('One small page, to time a round trip.', 40, 160);
  context.fillText('1 2 3 4 5 6 7 8 9 10', 40, 220);
  return encodeCanvas(canvas, 'png');
}

function reason(error: unknown): string {
  if (error instanceof AttemptError || error instanceof FailureError) return error.message;
  if (error instanceof Error && error.name === 'TimeoutError') return 'no answer within the time limit (--timeout)';
  return error instanceof Error ? error.message : String(error);
}

function redact(text: string, apiKey: string | undefined): string {
  return apiKey ? text.split(apiKey).join('[API key]') : text;
}

function ms(value: number): string {
  return value >= 1000 ? `${(value / 1000).toFixed(2)} s` : `${Math.round(value)} ms`;
}
