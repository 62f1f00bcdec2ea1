/**
 * OCR that says when it is unsure: a page of handwriting-like scribbles, which the recogniser can
 * only guess at, is flagged for review with its confidence in the stats and no `#` headings made
 * from its large strokes, by the engine and as the CLI reports it (a line on stderr, the `--json`
 * stats); printed scans are not flagged (test/lite-engine.test.ts).
 */

import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closePpOcrModels } from '../electron/engine/lite/ppocr-models.js';
import { closeTesseractWorkers } from '../electron/engine/lite/tesseract-reader.js';
import { EngineRouter } from '../electron/engine/router.js';
import { convertPages } from './scans/convert-pages.js';
import { buildScribblePage } from './scans/scribble-page.js';

const root = path.resolve(import.meta.dirname, '..');
const router = new EngineRouter();
let scribbles: string;
let folder: string;

// the OCR threads end before the file's process does (see closePpOcrModels)
afterAll(async () => {
  await Promise.all([closePpOcrModels(), closeTesseractWorkers()]);
  if (folder) await rm(folder, { recursive: true, force: true });
});

beforeAll(async () => {
  scribbles = await buildScribblePage(1, 'cursive');
  folder = await mkdtemp(path.join(os.tmpdir(), 'folio-lite-review-'));
});

describe('lite on a page it can only guess at', () => {
  it('flags handwriting-like scribbles for review, with their low confidence, and makes no headings', async () => {
    const { pages, failures } = await convertPages(router, scribbles, { engine: 'lite' });
    expect(failures).toEqual([]);
    const page = pages[0]!;
    console.log(`scribbles: ${page.stats.reason}\n${page.markdown.slice(0, 300)}`);
    expect(page.stats.flags).toEqual(['low-confidence']);
    expect(page.stats.confidence).toBeLessThan(0.8);
    expect(page.stats.reason).toMatch(/mean character confidence 0\.\d\d/);
    expect(page.blocks.filter((block) => block.kind === 'heading')).toEqual([]);
    expect(page.markdown).not.toMatch(/^#/m);
  }, 300_000);

  it('flags them with Tesseract too (--lang fr)', async () => {
    const { pages } = await convertPages(router, scribbles, { engine: 'lite', lang: 'fr' });
    expect(pages[0]!.stats.reason).toMatch(/Tesseract/);
    expect(pages[0]!.stats.flags).toEqual(['low-confidence']);
    expect(pages[0]!.markdown).not.toMatch(/^#/m);
  }, 300_000);

  it('says so on stderr and in the --json stats of `folio convert`', async () => {
    if (!existsSync(path.join(root, 'dist/electron/cli/main.js'))) throw new Error('The CLI is not built; run "npm run build" before these tests.');
    const out = path.join(folder, 'out');
    const run = await folio(['convert', scribbles, '--engine', 'lite', '--json', '-o', out]);
    expect(run.code, run.stderr).toBe(0);
    const name = path.basename(scribbles);
    expect(run.stderr).toMatch(new RegExp(`${name}: page 1: review: OCR was unsure of much of the text \\(mean character confidence 0\\.\\d\\d\\).*check the text against the page\\.\\n`));
    const done = run.stdout.trim().split('\n').map((line) => JSON.parse(line) as { event: string; stats?: { flags?: string[]; confidence?: number } }).find((event) => event.event === 'page-done');
    expect(done?.stats?.flags).toEqual(['low-confidence']);
    expect(done?.stats?.confidence).toBeLessThan(0.8);
    expect(await readFile(path.join(out, name.replace(/\.png$/, '.md')), 'utf8')).not.toMatch(/^#/m);
  }, 300_000);
});

function folio(args: readonly string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(root, 'bin/folio.js'), ...args], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}
