import { createCanvas } from '@napi-rs/canvas';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Failure } from '../shared/failure.js';
import type { PageResult } from '../shared/page.js';
import { DEFAULT_CONVERT_OPTIONS, type ConvertOptions, type RemoteOptions } from '../shared/protocol.js';
import { DocumentSession } from '../electron/engine/document-session.js';
import { encodeCanvas } from '../electron/core/canvas-encoding.js';
import { EngineRouter } from '../electron/engine/router.js';
import { startTestServer, tokenise, type TestServer, type TestServerConfig } from '../tools/bench/openai-test-server.js';
import { PAGE_TEXT_LIMIT } from '../electron/engine/page-text-limit.js';
import { documentHtml } from '../shared/export/html.js';
import { documentMarkdown } from '../shared/export/markdown.js';
import { MAX_HTML_NESTING } from '../shared/model-markdown.js';
import { renderedWidth, writeWidthCodedPdf } from './remote-pages.js';

const LONG_SIDE = 320;
const PAGES = 12;

let folder: string;
let pdf: string;
let server: TestServer | undefined;

beforeAll(async () => {
  folder = await mkdtemp(path.join(os.tmpdir(), 'folio-remote-'));
  pdf = path.join(folder, 'width-coded.pdf');
  await writeWidthCodedPdf(pdf, PAGES);
});

afterEach(async () => {
  await server?.close();
  server = undefined;
});

afterAll(async () => {
  if (folder) await rm(folder, { recursive: true, force: true });
});

/** Which page the server was sent, read back from the image width; -1 when none matches. */
function pageOfWidth(width: number): number {
  for (let page = 1; page <= PAGES; page++) if (renderedWidth(page, LONG_SIDE) === width) return page;
  return -1;
}

/** Every page's answer names its page, so a page's Markdown says where it came from. */
const answerNamingPage: TestServerConfig['answer'] = (request) => `# Page ${pageOfWidth(request.width)}\n\n${'word '.repeat(20).trim()}\n`;

function remoteOptions(overrides: Partial<RemoteOptions> = {}): RemoteOptions {
  return { server: server!.url, model: 'test-ocr', concurrency: 4, timeoutMs: 10_000, retries: 2, imageLongSide: LONG_SIDE, imageFormat: 'png', maxTokens: 512, ...overrides };
}

interface Converted {
  order: string[];
  deltas: Map<number, string[]>;
  done: PageResult[];
  failed: { page: number; failure: Failure }[];
}

async function convert(remote: RemoteOptions, pages: number[], options: { apiKey?: string; signal?: AbortSignal; file?: string } = {}): Promise<Converted> {
  const router = new EngineRouter({ remoteApiKey: options.apiKey });
  const session = await DocumentSession.open(router, options.file ?? pdf);
  const converted: Converted = { order: [], deltas: new Map(), done: [], failed: [] };
  const convertOptions: ConvertOptions = { ...DEFAULT_CONVERT_OPTIONS, engine: 'remote', remote };
  try {
    await session.convert(
      pages,
      convertOptions,
      {
        started: () => undefined,
        delta: (page, text) => converted.deltas.set(page, [...(converted.deltas.get(page) ?? []), text]),
        done: (result) => {
          converted.order.push(`done ${result.page}`);
          converted.done.push(result);
        },
        failed: (page, failure) => {
          converted.order.push(`failed ${page}`);
          converted.failed.push({ page, failure });
        },
      },
      options.signal ?? new AbortController().signal,
    );
  } finally {
    await session.close();
  }
  return converted;
}

const allPages = Array.from({ length: PAGES }, (_, i) => i + 1);

describe('remote engine against an OpenAI-compatible streaming server', () => {
  it('streams each page as the server sends it, deltas in order, and records the tokens the usage chunk reports', async () => {
    server = await startTestServer({ answer: answerNamingPage, tokenDelayMs: 2 });
    const result = await convert(remoteOptions(), [1, 2, 3]);
    expect(result.failed).toEqual([]);
    for (const page of result.done) {
      const expected = answerNamingPage!({ width: renderedWidth(page.page, LONG_SIDE) } as never);
      expect(result.deltas.get(page.page)).toEqual(tokenise(expected));
      expect(page.markdown).toBe(expected);
      expect(page.stats.engine).toBe('remote');
      expect(page.stats.tokens).toBe(tokenise(expected).length);
      expect(page.stats.device).toContain('test-ocr at http://127.0.0.1');
      expect(page.width).toBe(300 + 40 * page.page);
    }
    expect(server.stats.seen.map((seen) => seen.fields)).toContainEqual(expect.objectContaining({ stream: true, temperature: 0, stream_options: { include_usage: true } }));
  });

  it('never has more requests in flight than the concurrency setting, and fills it', async () => {
    server = await startTestServer({ answer: answerNamingPage, tokenDelayMs: 15 });
    const result = await convert(remoteOptions({ concurrency: 3 }), allPages);
    expect(result.done).toHaveLength(PAGES);
    expect(server.stats.maxInFlight).toBe(3);
  });

  it('reports pages in page order when the server answers them out of order', async () => {
    // the first requests to arrive are answered last
    server = await startTestServer({ answer: answerNamingPage, firstTokenDelayMs: (index) => (8 - index) * 150 });
    const result = await convert(remoteOptions({ concurrency: 8 }), allPages.slice(0, 8));
    const answered = server.stats.completed.map((request) => pageOfWidth(request.width));
    expect(answered).not.toEqual([...answered].sort((a, b) => a - b));
    expect(result.order).toEqual(allPages.slice(0, 8).map((page) => `done ${page}`));
    for (const page of result.done) expect(page.markdown).toContain(`# Page ${page.page}\n`);
  });

  it('waits out a 429 and gets the page on the next attempt', async () => {
    server = await startTestServer({ answer: answerNamingPage, refuseFirst: { count: 1, status: 429, retryAfterSeconds: 0 } });
    const result = await convert(remoteOptions({ concurrency: 1 }), [2]);
    expect(result.failed).toEqual([]);
    expect(result.done[0]?.markdown).toContain('# Page 2');
    expect(server.stats.requests).toBe(2);
  });

  it('resumes a stream dropped mid-page without repeating text already shown', async () => {
    server = await startTestServer({ answer: answerNamingPage, dropAfter: (request) => (request.index === 0 ? 6 : undefined) });
    const result = await convert(remoteOptions({ concurrency: 1 }), [3]);
    expect(result.failed).toEqual([]);
    const markdown = result.done[0]!.markdown;
    expect(markdown).toBe(answerNamingPage!({ width: renderedWidth(3, LONG_SIDE) } as never));
    expect(result.deltas.get(3)!.join('')).toBe(markdown);
    expect(server.stats.requests).toBe(2);
  });

  it('fails only the page whose stream keeps dropping, with a clear message, after the set number of retries', async () => {
    server = await startTestServer({ answer: answerNamingPage, dropAfter: (request) => (pageOfWidth(request.width) === 1 ? 3 : undefined) });
    const result = await convert(remoteOptions({ concurrency: 1, retries: 1 }), [1, 2]);
    expect(result.failed).toHaveLength(1);
    expect(result.failed[0]!.page).toBe(1);
    expect(result.failed[0]!.failure.code).toBe('remote');
    expect(result.failed[0]!.failure.message).toMatch(/dropped|closed before the answer was complete/);
    expect(result.failed[0]!.failure.message).toContain('gave up after 2 attempts');
    expect(result.done.map((page) => page.page)).toEqual([2]);
  });

  it('fails a page the server refuses outright with the server\'s own message, without retrying', async () => {
    server = await startTestServer({ answer: answerNamingPage });
    const result = await convert(remoteOptions({ model: 'no-such-model' }), [1]);
    expect(result.failed[0]!.failure).toEqual({ code: 'remote', message: expect.stringContaining('The model `no-such-model` does not exist.') });
    expect(server.stats.requests).toBe(1);
  });

  it('fails a page the server never finishes once the request time limit passes', async () => {
    server = await startTestServer({ hang: true });
    const result = await convert(remoteOptions({ timeoutMs: 400, retries: 2 }), [1]);
    expect(result.failed[0]!.failure.code).toBe('timeout');
    expect(result.failed[0]!.failure.message).toMatch(/did not finish the page within 0\.4 s$/);
    // what to do is data: the CLI words it with --timeout, the app with its settings
    expect(result.failed[0]!.failure.remedy).toBe('remote-time');
    expect(server.stats.requests).toBe(1);
  });

  it('fails a page whose stream stalls mid-answer once the idle limit passes, retrying first, while the other pages go on', async () => {
    server = await startTestServer({ answer: answerNamingPage, stallAfter: (request) => (pageOfWidth(request.width) === 1 ? 4 : undefined) });
    const result = await convert(remoteOptions({ concurrency: 2, retries: 1, idleTimeoutMs: 300 }), [1, 2, 3]);
    expect(result.failed.map((failed) => failed.page)).toEqual([1]);
    expect(result.failed[0]!.failure).toEqual({ code: 'remote', message: expect.stringMatching(/sent nothing for 0\.3 s in the middle of the answer \(gave up after 2 attempts\)/) });
    expect(result.done.map((page) => page.page)).toEqual([2, 3]);
    // the stalled connections were closed, not left open
    await until(() => server!.stats.inFlight === 0);
  });

  it('fails a page answered with an HTML error page, quoting it, without retrying', async () => {
    const page = '<html><head><title>502</title></head><body><h1>502 Bad Gateway</h1><p>nginx</p></body></html>';
    server = await startTestServer({ raw: () => ({ contentType: 'text/html; charset=utf-8', body: page }) });
    const result = await convert(remoteOptions(), [1]);
    expect(result.failed[0]!.failure.code).toBe('remote');
    expect(result.failed[0]!.failure.message).toMatch(/answered with text\/html instead of a stream of events: ".*502 Bad Gateway nginx"/);
    expect(server.stats.requests).toBe(1);
  });

  it('fails a page whose stream carries no events, or events that are not JSON, saying which', async () => {
    server = await startTestServer({ raw: (request) => ({ contentType: 'text/event-stream', body: pageOfWidth(request.width) === 1 ? 'Internal error: worker died\n' : 'data: {"choices": [{"delta": {"content": "He\n\n' }) });
    const result = await convert(remoteOptions({ concurrency: 1 }), [1, 2]);
    const messages = new Map(result.failed.map(({ page, failure }) => [page, failure.message]));
    expect(messages.get(1)).toContain('answer was not a stream of events (it began: "Internal error: worker died")');
    expect(messages.get(2)).toContain('sent a chunk that is not JSON: {"choices": [{"delta": {"content": "He');
    expect(result.done).toEqual([]);
  });

  it('takes a whole JSON completion from a server that ignored stream as the page', async () => {
    const answer = { choices: [{ index: 0, message: { role: 'assistant', content: '# Whole\n\nText.' }, finish_reason: 'stop' }], usage: { completion_tokens: 5 } };
    server = await startTestServer({ raw: () => ({ contentType: 'application/json', body: JSON.stringify(answer) }) });
    const result = await convert(remoteOptions(), [1]);
    expect(result.failed).toEqual([]);
    expect(result.done[0]).toMatchObject({ markdown: '# Whole\n\nText.', stats: { tokens: 5 } });
  });

  it('never takes a stream closed before its end as the page: it is asked again, and failed when it keeps closing early', async () => {
    server = await startTestServer({ answer: answerNamingPage, dropAfter: () => 5 });
    const result = await convert(remoteOptions({ retries: 1 }), [1]);
    expect(result.done).toEqual([]);
    expect(result.failed[0]!.failure.message).toMatch(/(dropped mid-answer|closed before the answer was complete).*gave up after 2 attempts/);
  });

  it('closes every in-flight connection when the conversion is cancelled', async () => {
    server = await startTestServer({ hang: true });
    const abort = new AbortController();
    const stats = server.stats;
    const running = convert(remoteOptions({ concurrency: 4 }), allPages, { signal: abort.signal });
    await until(() => stats.inFlight === 4);
    abort.abort();
    const result = await running;
    expect(result.order).toEqual([]);
    // a request still unanswered ends only when its connection closes
    await until(() => stats.inFlight === 0);
    expect(stats.abandoned).toBe(4);
    expect(stats.requests).toBe(4);
  });

  it('sends an image file no larger than the image size as stored, sized one point per pixel', async () => {
    server = await startTestServer({ answer: answerNamingPage });
    const canvas = createCanvas(210, 297);
    const context = canvas.getContext('2d');
    context.fillStyle = '#ffffff';
    context.fillRect(0, 0, 210, 297);
    context.fillStyle = '#000000';
    context.fillRect(20, 20, 170, 60);
    const png = path.join(folder, 'scan.png');
    await writeFile(png, await encodeCanvas(canvas, 'png'));
    const result = await convert(remoteOptions({ imageLongSide: 1024 }), [1], { file: png });
    expect(result.failed).toEqual([]);
    expect([server.stats.seen[0]!.width, server.stats.seen[0]!.height]).toEqual([210, 297]);
    expect([result.done[0]!.width, result.done[0]!.height]).toEqual([210, 297]);
  });

  it('does not send a blank page, where models invent text', async () => {
    server = await startTestServer({ answer: answerNamingPage });
    const canvas = createCanvas(200, 300);
    const context = canvas.getContext('2d');
    context.fillStyle = '#ffffff';
    context.fillRect(0, 0, 200, 300);
    const png = path.join(folder, 'blank.png');
    await writeFile(png, await encodeCanvas(canvas, 'png'));
    const result = await convert(remoteOptions(), [1], { file: png });
    expect(result.done[0]).toMatchObject({ markdown: '', stats: { reason: expect.stringContaining('blank') } });
    expect(server.stats.requests).toBe(0);
  });

  it('sends the API key to the server and keeps it out of failures', async () => {
    const apiKey = 'sk-test-0123456789abcdef';
    server = await startTestServer({ answer: answerNamingPage, apiKey });
    const good = await convert(remoteOptions(), [1], { apiKey });
    expect(good.done).toHaveLength(1);
    expect(server.stats.seen[0]!.authorization).toBe(`Bearer ${apiKey}`);
    // the server expects another key and echoes what it got in its refusal
    await server.close();
    server = await startTestServer({ apiKey: 'sk-the-right-one' });
    const refused = await convert(remoteOptions(), [1], { apiKey });
    expect(refused.failed[0]!.failure.message).toContain('401');
    expect(JSON.stringify(refused)).not.toContain(apiKey);
  });

  it('stops a server that streams without end at the page text limit, keeps what came and flags the page', async () => {
    server = await startTestServer({ answer: answerNamingPage, endless: 'on and on '.repeat(10) });
    const result = await convert(remoteOptions({ concurrency: 1 }), [2, 3]);
    expect(result.failed).toEqual([]);
    expect(result.done.map((page) => page.page)).toEqual([2, 3]);
    for (const page of result.done) {
      expect(page.markdown.startsWith(`# Page ${page.page}\n`)).toBe(true);
      const streamed = result.deltas.get(page.page)!.join('');
      expect(streamed.length).toBe(PAGE_TEXT_LIMIT);
      // the page's Markdown is what streamed, its one endless paragraph cut into paragraphs
      expect(page.markdown.replace(/\n/g, '')).toBe(streamed.replace(/\n/g, ''));
      expect(page.markdown.length).toBeLessThan(PAGE_TEXT_LIMIT * 1.01);
      expect(page.stats.flags).toEqual(['truncated']);
      expect(page.stats.reason).toContain(`stopped at ${PAGE_TEXT_LIMIT} characters`);
    }
    // the client hung up on both endless answers
    await until(() => server!.stats.inFlight === 0);
    expect(server.stats.abandoned).toBe(2);
  });

  it('writes a hostile answer into the .md reduced to the HTML the export keeps, the rest as text, spans bounded', async () => {
    const hostile = [
      '# Invoice',
      '<script>alert(1)</script>',
      'Pay <a href="javascript:alert(2)">here</a> or [there](javascript:alert(3)) <img src=x onerror=alert(4)> <svg onload=alert(5)>',
      '',
      '<table>',
      '<tr><th colspan="999999999">Item</th><th>Price</th></tr>',
      '<tr><td rowspan="65534" onclick="alert(6)">Tea<br>green</td><td>3</td></tr>',
      '<tr><td>4</td></tr>',
      '</table>',
      '',
      `${'<div>'.repeat(5000)}deep`,
      '',
    ].join('\n');
    server = await startTestServer({ answer: () => hostile });
    const result = await convert(remoteOptions(), [1]);
    const markdown = documentMarkdown(result.done, { resolveImage: () => undefined });
    const tags = [...markdown.matchAll(/<\/?([a-z][a-z0-9]*)([^>]*)>/gi)];
    expect(new Set(tags.map((tag) => tag[1]!.toLowerCase()))).toEqual(new Set(['a', 'img', 'table', 'tr', 'th', 'td', 'br', 'div']));
    expect(tags.map((tag) => tag[2]).filter((attributes) => /\bon\w+=|javascript:/i.test(attributes!))).toEqual([]);
    expect(markdown).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(markdown).toContain('&lt;svg onload=alert(5)&gt;');
    expect(markdown).toContain('<th colspan="2">Item</th>');
    expect(markdown).toContain('<td rowspan="2">Tea<br>green</td>');
    expect(markdown).not.toContain('(javascript:');
    expect(markdown.match(/<div>/g)).toHaveLength(MAX_HTML_NESTING);
    // the export renders what the .md holds, however deep the model nested
    const html = documentHtml(markdown, { title: 'invoice', mathCss: '' });
    expect(html).toContain('<th colspan="2">Item</th>');
    expect(html).toContain('deep');
  });

  it('flags a page the server cut at the token limit', async () => {
    server = await startTestServer({ answer: answerNamingPage, finishReason: 'length' });
    const result = await convert(remoteOptions({ maxTokens: 24 }), [1]);
    expect(result.done[0]!.stats).toMatchObject({ flags: ['truncated'], reason: expect.stringContaining('stopped at 24 tokens, the token limit per page') });
  });
});

async function until(condition: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
