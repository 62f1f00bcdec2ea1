/**
 * `npm run bench:remote`: the remote engine against the test server (in its own process) at 1, 4, 16
 * and 32 pages in flight. Per level: pages/s, how busy Folio kept the server (mean requests in
 * flight over the setting) and Folio's own CPU (process.cpuUsage: rendering, encoding, streaming) as
 * cores busy and ms per page. A benchmark prints; it asserts nothing.
 *
 * Options: --token-delay MS (per token and sequence; default 25, about one GPU's vLLM decoding a batch of
 * 32 DeepSeek-OCR pages), --tokens N (per page, default 400), --image-size PX (default 1920, as the CLI),
 * --image-format png|jpeg. On a machine that is busy with other work, Folio's share of the CPU caps
 * what it can send: the load average is printed with the results.
 *
 * Then a batch of short documents through the CLI's supervised host: one-page PDFs at 8 in flight,
 * one document after another (as the CLI did before it pipelined documents) against `folio convert`
 * of the whole batch, which starts the next documents while the last pages of the current one are
 * in flight.
 */

import { execFile, fork, type ChildProcess } from 'node:child_process';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Writable } from 'node:stream';
import { parseArgs, promisify } from 'node:util';
import { runConvert } from '../../electron/cli/convert-command.js';
import { DocumentSession } from '../../electron/engine/document-session.js';
import { forkHost } from '../../electron/core/engine-client/fork-host.js';
import { HostClient } from '../../electron/core/engine-client/host-client.js';
import { EngineRouter } from '../../electron/engine/router.js';
import { DEFAULT_CONVERT_OPTIONS, type RemoteImageFormat, type RemoteOptions } from '../../shared/protocol.js';
import { fixturePdfs } from './bench-set.js';
import type { ServerStats } from './openai-test-server.js';

const LEVELS = [1, 4, 16, 32];
/** The batch of short documents: this many one-page PDFs at this many in flight, `tokens` per page. */
const BATCH = { files: 20, concurrency: 8, tokens: 100 };
/** Enough pages per level that the ramp-up and the drain at the end weigh little. */
const pagesFor = (concurrency: number) => Math.max(4, concurrency * 3);

interface Level {
  concurrency: number;
  pages: number;
  failures: string[];
  wallMs: number;
  cpuMs: number;
  server: ServerStats;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { 'token-delay': { type: 'string' }, tokens: { type: 'string' }, 'image-size': { type: 'string' }, 'image-format': { type: 'string' } },
  });
  const tokenDelayMs = Number(values['token-delay'] ?? 25);
  const tokens = Number(values.tokens ?? 400);
  const imageLongSide = Number(values['image-size'] ?? 1920);
  const imageFormat = (values['image-format'] ?? 'png') as RemoteImageFormat;
  const sources = await fixturePdfs();
  if (sources.length === 0) throw new Error('No fixture PDFs: run "npm test" once to print them into test/fixtures/out.');
  const folder = await mkdtemp(path.join(os.tmpdir(), 'folio-bench-remote-'));
  try {
    const pdf = await longDocument(sources, pagesFor(Math.max(...LEVELS)), folder);
    const pageMs = tokens * tokenDelayMs;
    console.log(`Test server: ${tokens} tokens per page, ${tokenDelayMs} ms per token (${(pageMs / 1000).toFixed(1)} s per page per sequence); pages ${imageLongSide} px ${imageFormat}`);
    console.log(`Folio runs in this process; the server in its own, so the CPU figures are Folio's alone.\n`);
    console.log(row('in flight', 'pages', 'time (s)', 'pages/s', 'ideal/s', 'server busy', 'Folio cores', 'CPU ms/page'));
    const levels: Level[] = [];
    for (const concurrency of LEVELS) {
      const level = await runLevel(pdf, concurrency, { tokenDelayMs, tokens, imageLongSide, imageFormat });
      levels.push(level);
      const seconds = level.wallMs / 1000;
      const busy = level.server.busyMs / level.wallMs / concurrency;
      console.log(
        row(
          String(concurrency),
          String(level.pages),
          seconds.toFixed(1),
          (level.pages / seconds).toFixed(2),
          ((concurrency * 1000) / pageMs).toFixed(2),
          `${(busy * 100).toFixed(0)}%`,
          (level.cpuMs / level.wallMs).toFixed(2),
          (level.cpuMs / level.pages).toFixed(0),
        ),
      );
      if (level.failures.length) console.log(`  ${level.failures.length} pages failed, e.g. ${level.failures[0]}`);
      if (level.server.maxInFlight > concurrency) console.log(`  the server saw ${level.server.maxInFlight} requests at once, more than ${concurrency}`);
    }
    const first = levels[0]!;
    const last = levels.at(-1)!;
    const speedup = last.pages / last.wallMs / (first.pages / first.wallMs);
    const cores = last.cpuMs / last.wallMs;
    console.log(`\n${last.concurrency} in flight vs 1: ${speedup.toFixed(1)}x pages/s; Folio used ${cores.toFixed(2)} cores at ${last.concurrency} in flight (${cores < 1 ? 'under' : 'NOT under'} one core),`);
    const idealPerSecond = (last.concurrency * 1000) / pageMs;
    const needed = ((last.cpuMs / last.pages) * idealPerSecond) / 1000;
    console.log(`so one core of Folio would feed a server up to about ${(1000 / (last.cpuMs / last.pages)).toFixed(1)} pages/s;`);
    console.log(`keeping this server saturated at ${last.concurrency} in flight (${idealPerSecond.toFixed(1)} pages/s) takes ${needed.toFixed(2)} cores of Folio (${needed < 1 ? 'under' : 'NOT under'} one).`);
    console.log(`load average during the run: ${os.loadavg().map((load) => load.toFixed(1)).join(', ')} on ${os.cpus().length} cores`);
    await crossDocuments(pdf, folder, { tokenDelayMs, tokens: BATCH.tokens, imageLongSide, imageFormat });
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}

async function runLevel(pdf: string, concurrency: number, settings: Settings): Promise<Level> {
  const server = await startServerProcess({ tokenDelayMs: settings.tokenDelayMs, tokensPerAnswer: settings.tokens });
  try {
    const router = new EngineRouter();
    const session = await DocumentSession.open(router, pdf);
    const pages = Array.from({ length: pagesFor(concurrency) }, (_, i) => i + 1);
    const remote = remoteOptions(server.url, concurrency, settings);
    const failures: string[] = [];
    const cpu = process.cpuUsage();
    const started = performance.now();
    await session.convert(
      pages,
      { ...DEFAULT_CONVERT_OPTIONS, engine: 'remote', remote },
      { started: () => undefined, delta: () => undefined, done: () => undefined, failed: (page, failure) => failures.push(`page ${page}: ${failure.message}`) },
      new AbortController().signal,
    );
    const wallMs = performance.now() - started;
    const used = process.cpuUsage(cpu);
    await session.close();
    return { concurrency, pages: pages.length, failures, wallMs, cpuMs: (used.user + used.system) / 1000, server: await server.stats() };
  } finally {
    server.stop();
  }
}

type Settings = { tokenDelayMs: number; tokens: number; imageLongSide: number; imageFormat: RemoteImageFormat };

/** Pages/s for a batch of one-page documents, one document at a time against pipelined, side by side. */
async function crossDocuments(long: string, folder: string, settings: Settings): Promise<void> {
  const split = path.join(folder, 'split');
  await mkdir(split);
  await promisify(execFile)('pdfseparate', ['-l', String(BATCH.files), long, path.join(split, 'page-%d.pdf')]);
  const files = Array.from({ length: BATCH.files }, (_, i) => path.join(split, `page-${i + 1}.pdf`));
  const pageMs = settings.tokens * settings.tokenDelayMs;
  console.log(`\nA batch of ${BATCH.files} one-page PDFs at ${BATCH.concurrency} in flight through the CLI's engine host (${settings.tokens} tokens per page, ${(pageMs / 1000).toFixed(1)} s per page per sequence):`);
  console.log(row('documents', 'pages', 'time (s)', 'pages/s', 'ideal/s', 'server busy', 'max at once'));
  const ideal = ((BATCH.concurrency * 1000) / pageMs).toFixed(2);
  const runs: { name: string; convert: (remote: RemoteOptions) => Promise<void> }[] = [
    { name: 'in turn', convert: (remote) => convertInTurn(files, remote) },
    { name: 'pipelined', convert: (remote) => convertBatch(files, remote, path.join(folder, 'batch-out')) },
  ];
  const rates: number[] = [];
  for (const run of runs) {
    const server = await startServerProcess({ tokenDelayMs: settings.tokenDelayMs, tokensPerAnswer: settings.tokens });
    try {
      const remote = remoteOptions(server.url, BATCH.concurrency, settings);
      const started = performance.now();
      await run.convert(remote);
      const wallMs = performance.now() - started;
      const stats = await server.stats();
      rates.push(files.length / (wallMs / 1000));
      const busy = stats.busyMs / wallMs / BATCH.concurrency;
      console.log(row(run.name, String(stats.requests), (wallMs / 1000).toFixed(1), rates.at(-1)!.toFixed(2), ideal, `${(busy * 100).toFixed(0)}%`, String(stats.maxInFlight)));
    } finally {
      server.stop();
    }
  }
  console.log(`pipelined vs in turn: ${(rates[1]! / rates[0]!).toFixed(1)}x pages/s`);
}

/** What the CLI did before it pipelined documents: open, convert and close each in turn on one host. */
async function convertInTurn(files: readonly string[], remote: RemoteOptions): Promise<void> {
  const client = new HostClient({ spawnHost: () => forkHost() });
  try {
    for (const file of files) {
      const doc = await client.open(file);
      await client.convert(doc, [1], { ...DEFAULT_CONVERT_OPTIONS, engine: 'remote', remote }, {});
      client.close(doc);
    }
  } finally {
    client.dispose();
  }
}

async function convertBatch(files: string[], remote: RemoteOptions, outDir: string): Promise<void> {
  const quiet = new Writable({ write: (_chunk, _encoding, done) => done() });
  const request = { files, outDir, formats: ['md' as const], splitPages: false, engine: 'remote' as const, keepHeaders: false, images: false, pageTimeoutMs: 600_000, json: false, remote };
  const status = await runConvert(request, { stdout: quiet, stderr: quiet, signal: new AbortController().signal });
  if (status !== 0) throw new Error(`folio convert of the batch ended with status ${status}`);
}

function remoteOptions(server: string, concurrency: number, settings: Settings): RemoteOptions {
  return { server, model: 'test-ocr', concurrency, timeoutMs: 600_000, retries: 3, imageLongSide: settings.imageLongSide, imageFormat: settings.imageFormat, maxTokens: 8192 };
}

async function startServerProcess(config: Record<string, unknown>): Promise<{ url: string; stats(): Promise<ServerStats>; stop(): void }> {
  const child: ChildProcess = fork(fileURLToPath(new URL('./openai-test-server-process.js', import.meta.url)), [JSON.stringify(config)], { stdio: 'inherit' });
  const url = await new Promise<string>((resolve, reject) => {
    child.once('message', (message) => resolve((message as { url: string }).url));
    child.once('exit', (code) => reject(new Error(`the test server exited (${code}) before it listened`)));
  });
  return {
    url,
    stats: () =>
      new Promise((resolve) => {
        child.once('message', (message) => resolve((message as { stats: ServerStats }).stats));
        child.send('stats');
      }),
    stop: () => child.kill(),
  };
}

/** The fixture pages repeated into one document of at least `pages` pages. */
async function longDocument(sources: string[], pages: number, folder: string): Promise<string> {
  const counts = await Promise.all(sources.map(pageCount));
  const inputs: string[] = [];
  for (let total = 0, i = 0; total < pages; i++) {
    inputs.push(sources[i % sources.length]!);
    total += counts[i % sources.length]!;
  }
  const out = path.join(folder, 'long.pdf');
  await promisify(execFile)('pdfunite', [...inputs, out], { maxBuffer: 64 * 1024 * 1024 });
  return out;
}

async function pageCount(file: string): Promise<number> {
  const { stdout } = await promisify(execFile)('pdfinfo', [file]);
  return Number(/^Pages:\s+(\d+)/m.exec(stdout)?.[1] ?? 1);
}

function row(...cells: string[]): string {
  return cells.map((cell, i) => (i === 0 ? cell.padEnd(10) : cell.padStart(12))).join('');
}

await main();
