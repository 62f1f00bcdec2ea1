import { existsSync } from 'node:fs';
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../tools/bench/openai-test-server.js';
import { renderedWidth, writeWidthCodedPdf } from './remote-pages.js';
import { PAGE_TEXT_LIMIT } from '../electron/engine/page-text-limit.js';
import { runFolio } from './folio-process.js';

const root = path.resolve(import.meta.dirname, '..');
const API_KEY = 'sk-folio-test-5f1c2b9e8d7a';
const LONG_SIDE = 300;
const PAGES = 6;

let folder: string;
let pdf: string;
let server: TestServer | undefined;

beforeAll(async () => {
  if (!existsSync(path.join(root, 'dist/electron/cli/main.js'))) throw new Error('The CLI is not built; run "npm run build" before these tests.');
  folder = await mkdtemp(path.join(os.tmpdir(), 'folio-remote-cli-'));
  pdf = path.join(folder, 'coded.pdf');
  await writeWidthCodedPdf(pdf, PAGES);
});

afterEach(async () => {
  await server?.close();
  server = undefined;
});

afterAll(async () => {
  if (folder) await rm(folder, { recursive: true, force: true });
});


function pageOfWidth(width: number): number {
  for (let page = 1; page <= PAGES; page++) if (renderedWidth(page, LONG_SIDE) === width) return page;
  return -1;
}

/** Every file under `dir`, read as text. */
async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return Promise.all(entries.filter((entry) => entry.isFile()).map((entry) => readFile(path.join(entry.parentPath, entry.name), 'utf8')));
}

const remoteArgs = () => ['--server', server!.url, '--model', 'deepseek-ai/DeepSeek-OCR', '--image-size', String(LONG_SIDE)];

describe('folio convert --engine remote and folio serve-check', () => {
  it('converts through the server with pages in order, and the API key reaches only the server', async () => {
    server = await startTestServer({
      models: ['deepseek-ai/DeepSeek-OCR'],
      apiKey: API_KEY,
      answer: (request) => `## Page ${pageOfWidth(request.width)}\n\nText of page ${pageOfWidth(request.width)}.\n`,
      // later pages are answered first
      firstTokenDelayMs: (index) => (PAGES - index) * 200,
    });
    const out = path.join(folder, 'out-ok');
    const run = await runFolio(['convert', pdf, '-o', out, '--engine', 'remote', ...remoteArgs(), '--concurrency', '4', '--format', 'md,html,json', '--json'], { FOLIO_API_KEY: API_KEY });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const markdown = await readFile(path.join(out, 'coded.md'), 'utf8');
    const headings = [...markdown.matchAll(/## Page (\d+)/g)].map((match) => Number(match[1]));
    expect(headings).toEqual([1, 2, 3, 4, 5, 6]);
    const events = run.stdout.trim().split('\n').map((line) => JSON.parse(line) as { event: string; page?: number });
    expect(events.filter((event) => event.event === 'page-done').map((event) => event.page)).toEqual([1, 2, 3, 4, 5, 6]);
    const answered = server.stats.completed.map((request) => pageOfWidth(request.width));
    expect(answered).not.toEqual([...answered].sort((a, b) => a - b));
    expect(server.stats.maxInFlight).toBeLessThanOrEqual(4);
    expect(server.stats.seen.every((seen) => seen.authorization === `Bearer ${API_KEY}`)).toBe(true);
    for (const text of [run.stdout, run.stderr, ...(await filesUnder(out))]) expect(text).not.toContain(API_KEY);
  });

  it('fails the pages a server refuses with its reason, without writing the key into any message', async () => {
    server = await startTestServer({ models: ['deepseek-ai/DeepSeek-OCR'], apiKey: 'sk-another-key' });
    const run = await runFolio(['convert', pdf, '-o', path.join(folder, 'out-refused'), ...remoteArgs(), '--pages', '1-2', '--json'], { FOLIO_API_KEY: API_KEY });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('page 1: http://127.0.0.1');
    expect(run.stderr).toContain('401');
    expect(run.stderr).toContain('[API key]');
    expect(run.stdout + run.stderr).not.toContain(API_KEY);
  });

  it('stops a server that never stops answering, keeps the page and asks for its end to be reviewed', async () => {
    server = await startTestServer({ models: ['deepseek-ai/DeepSeek-OCR'], answer: () => 'Start of page.\n\n', endless: 'and on '.repeat(20) });
    const out = path.join(folder, 'out-endless');
    const run = await runFolio(['convert', pdf, '-o', out, ...remoteArgs(), '--pages', '1']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain('coded.pdf: page 1: review: the answer reached its length limit and was cut there; check its end.');
    const markdown = await readFile(path.join(out, 'coded.md'), 'utf8');
    expect(markdown.startsWith('Start of page.\n\nand on and on')).toBe(true);
    expect(markdown.length).toBeLessThan(PAGE_TEXT_LIMIT * 1.01);
    expect(markdown.length).toBeGreaterThan(PAGE_TEXT_LIMIT * 0.99);
  });

  it('tells whether a server answers, which models it serves, and how long one small page takes', async () => {
    server = await startTestServer({ models: ['jinaai/jina-ocr-v1', 'deepseek-ai/DeepSeek-OCR'], tokenDelayMs: 1 });
    const check = await runFolio(['serve-check', server.url]);
    expect(check.code).toBe(0);
    expect(check.stdout).toMatch(/answers \(\d+ ms for \/v1\/models\)/);
    expect(check.stdout).toContain('models: jinaai/jina-ocr-v1, deepseek-ai/DeepSeek-OCR');
    expect(check.stdout).toMatch(/round trip: one small page with jinaai\/jina-ocr-v1 in [\d.]+ m?s \(first token after [\d.]+ m?s, \d+ tokens\)/);
    const missing = await runFolio(['serve-check', server.url, '--model', 'other']);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('does not serve "other"');
    const nobody = await runFolio(['serve-check', 'http://127.0.0.1:9', '--timeout', '5']);
    expect(nobody.code).toBe(1);
    expect(nobody.stderr).toMatch(/no answer .*is the address right/);
  });

  it('explains remote flags given without a server, and a server without a model', async () => {
    for (const [args, reason] of [
      [['--engine', 'remote'], /needs a server/],
      [['--concurrency', '4'], /--concurrency sets up the remote engine/],
      [['--server', 'http://127.0.0.1:9'], /--model <name>/],
      [['--server', 'gpu-box:8000', '--model', 'm'], /http:\/\//],
      [['--server', 'http://127.0.0.1:9', '--model', 'm', '--extra-body', '[1]'], /JSON object/],
    ] as const) {
      const run = await runFolio(['convert', pdf, '-o', path.join(folder, 'unused'), ...args]);
      expect(run.code, args.join(' ')).toBe(2);
      expect(run.stderr).toMatch(reason);
    }
  });
});
