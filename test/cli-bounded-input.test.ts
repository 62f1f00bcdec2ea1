/**
 * Untrusted streams and files end with a clear error within bounded memory and time: a server that
 * streams one endless SSE line, a server that redirects a page to another origin, a character device
 * or a FIFO named as the input. Peak memory is read with /usr/bin/time where it is installed (it
 * counts the CLI and its engine host); the bound asserted is the issue's, 1 GB.
 */

import { spawn } from 'node:child_process';
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cp, mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../tools/bench/openai-test-server.js';
import { repoRoot } from './folio-process.js';
import { writeWidthCodedPdf } from './remote-pages.js';
import { installed } from './tex-compile.js';

const launcher = path.join(repoRoot, 'bin/folio.js');
const timed = installed('/usr/bin/time');
let folder: string;
let pdf: string;
const servers: { close(): unknown }[] = [];

interface MeasuredRun {
  code: number | null;
  stdout: string;
  stderr: string;
  /** Peak resident memory of the CLI or its engine host, in MB (undefined without /usr/bin/time). */
  peakMb: number | undefined;
  seconds: number;
}

/** The CLI under /usr/bin/time -v, its report taken out of stderr. */
function runMeasured(args: readonly string[]): Promise<MeasuredRun> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const command = timed ? ['/usr/bin/time', '-v', process.execPath, launcher, ...args] : [process.execPath, launcher, ...args];
    const child = spawn(command[0]!, command.slice(1), { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => {
      const report = stderr.indexOf('\tCommand being timed:');
      const peak = /Maximum resident set size \(kbytes\): (\d+)/.exec(stderr);
      resolve({ code: timed ? Number(/Exit status: (\d+)/.exec(stderr)?.[1] ?? code) : code, stdout, stderr: report >= 0 ? stderr.slice(0, report) : stderr, peakMb: peak ? Number(peak[1]) / 1024 : undefined, seconds: (performance.now() - started) / 1000 });
    });
  });
}

async function listen(server: Server): Promise<string> {
  servers.push({
    close: () => {
      server.closeAllConnections();
      server.close();
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

beforeAll(async () => {
  if (!existsSync(path.join(repoRoot, 'dist/electron/cli/main.js'))) throw new Error('The CLI is not built; run "npm run build" before these tests.');
  folder = await mkdtemp(path.join(os.tmpdir(), 'folio-bounded-'));
  pdf = path.join(folder, 'one.pdf');
  await writeWidthCodedPdf(pdf, 1);
});

afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
});

describe('untrusted streams and files are bounded', () => {
  it('stops a server that streams one endless line, in bounded memory', { timeout: 300_000 }, async () => {
    const url = await listen(
      createServer((request, response) => {
        request.resume();
        response.writeHead(200, { 'content-type': 'text/event-stream' });
        const piece = `data: ${'x'.repeat(65_536)}`;
        const more = () => {
          while (!response.destroyed && response.write(piece));
        };
        response.on('drain', more);
        more();
      }),
    );
    const run = await runMeasured(['convert', pdf, '-o', path.join(folder, 'endless'), '--server', url, '--model', 'm', '--image-size', '300']);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/page 1: .*more than 4,000,000 characters without ending a line/);
    if (run.peakMb !== undefined) expect(run.peakMb).toBeLessThan(1024);
    console.log(`endless SSE line: ${run.seconds.toFixed(1)} s, peak ${run.peakMb?.toFixed(0) ?? '?'} MB`);
  });

  it('does not follow a redirect of a page to another origin, and says where it pointed', { timeout: 120_000 }, async () => {
    const elsewhere: TestServer = await startTestServer({ models: ['m'] });
    servers.push(elsewhere);
    const target = elsewhere.url.replace('127.0.0.1', '127.0.0.2');
    const url = await listen(
      createServer((request, response) => {
        request.resume();
        response.writeHead(307, { location: `${target}/v1/chat/completions` });
        response.end();
      }),
    );
    const run = await runMeasured(['convert', pdf, '-o', path.join(folder, 'redirect'), '--server', url, '--model', 'm', '--image-size', '300']);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`redirected the page to ${target}/v1/chat/completions, another origin`);
    expect(elsewhere.stats.requests).toBe(0);
  });

  it('refuses a device or a FIFO as the input by what it is, at once', { timeout: 120_000 }, async () => {
    const zero = await runMeasured(['convert', '/dev/zero', '-o', path.join(folder, 'zero')]);
    expect(zero.code).not.toBe(0);
    expect(zero.stderr).toContain('/dev/zero: is a character device, not a document Folio can read.');
    if (zero.peakMb !== undefined) expect(zero.peakMb).toBeLessThan(1024);
    const fifo = path.join(folder, 'pipe.pdf');
    execFileSync('mkfifo', [fifo]);
    const piped = await runMeasured(['convert', fifo, '-o', path.join(folder, 'fifo')]);
    expect(piped.stderr).toContain(`${fifo}: is a named pipe (FIFO), not a document Folio can read.`);
    console.log(`/dev/zero: ${zero.seconds.toFixed(1)} s, peak ${zero.peakMb?.toFixed(0) ?? '?'} MB`);
  });

  it('refuses a package file linked to /dev/zero, naming it, instead of hashing forever', { timeout: 300_000 }, async () => {
    const model = path.join(folder, 'model');
    await cp(path.join(repoRoot, 'tools/model/fixtures/nano'), model, { recursive: true });
    await rm(path.join(model, 'mtp.onnx'));
    await symlink('/dev/zero', path.join(model, 'mtp.onnx'));
    const run = await runMeasured(['convert', pdf, '-o', path.join(folder, 'zero-model'), '--engine', 'vlm', '--model', model]);
    expect(run.code).not.toBe(0);
    expect(run.stderr).toMatch(/mtp\.onnx: (is a character device|a link to a file outside the model package)/);
    if (run.peakMb !== undefined) expect(run.peakMb).toBeLessThan(1024);
    console.log(`package file linked to /dev/zero: ${run.seconds.toFixed(1)} s, peak ${run.peakMb?.toFixed(0) ?? '?'} MB: ${run.stderr.trim()}`);
  });

  it('refuses a benchmark test naming a PDF outside its folder, the same whether it exists or not, and converts nothing there', { timeout: 300_000 }, async () => {
    const bench = path.join(folder, 'bench');
    await mkdir(path.join(bench, 'pdfs'), { recursive: true });
    await mkdir(path.join(folder, 'secret'), { recursive: true });
    await writeWidthCodedPdf(path.join(folder, 'secret/secret.pdf'), 1);
    await symlink('../../secret/secret.pdf', path.join(bench, 'pdfs/link.pdf'));
    const tests = ['../../secret/secret.pdf', '../../secret/absent.pdf', 'link.pdf', '/etc/passwd'].map((name, index) => ({ id: `t${index}`, pdf: name, page: 1, type: 'present', text: 'Page 1' }));
    await writeFile(path.join(bench, 'escape.jsonl'), tests.map((test) => JSON.stringify(test)).join('\n'));
    const out = path.join(folder, 'bench-out');
    const run = await runMeasured(['bench', bench, '--engine', 'text', '--json', '-o', out]);
    expect(run.code, run.stderr).toBe(0);
    for (const name of ['../../secret/secret.pdf', '../../secret/absent.pdf', 'link.pdf', '/etc/passwd']) {
      expect(run.stderr).toContain(`"${name}" is not a PDF inside ${path.join(bench, 'pdfs')}; a test may name only the benchmark's own PDFs`);
    }
    expect(run.stderr).not.toMatch(/no such file|not a PDF \(/);
    const written = await readdir(out).catch(() => [] as string[]);
    for (const file of written) expect(await readFile(path.join(out, file), 'utf8')).not.toContain('Page 1');
    const report = JSON.parse(run.stdout) as { overall: { passed: number; total: number } };
    // the four tests, and the baseline olmOCR adds for each PDF found in pdfs/ (the link among them)
    expect(report.overall.passed).toBe(0);
  });
});
