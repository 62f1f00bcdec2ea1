// `folio convert --pages-in-flight N` on an 8-page PDF through the committed tiny package, as a
// user runs it: each page's text with 4 pages decoding together is its text with 1, greedy and
// FastMTP K = 3, and each page's stats say how many pages it decoded with and the rows per pass.
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { PDFDocument, rgb } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot, runFolio } from './folio-process.js';

const tinyPackage = path.join(repoRoot, 'tools/model/fixtures/tiny');
const PAGES = 8;
let folder: string;
let pdf: string;

/** Eight pages of bars, each page's bars placed and sized differently so that their texts differ. */
async function barPages(): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  for (let n = 0; n < PAGES; n++) {
    const page = doc.addPage([300 + 20 * (n % 3), 400]);
    for (let y = 30 + 4 * n; y < 370; y += 18 + 2 * (n % 4)) {
      page.drawRectangle({ x: 20 + 5 * n, y, width: 60 + ((y * (n + 2)) % 180), height: 7, color: rgb(0.1, 0.1 + 0.05 * n, 0.2) });
    }
    page.drawRectangle({ x: 150, y: 360, width: 20 + 8 * n, height: 30, color: rgb(0.7, 0.1, 0.1) });
  }
  return doc.save();
}

interface PageDone {
  event: string;
  page: number;
  stats: { reason: string; decode: { newTokens: number; pagesTogether: { most: number; mean: number }; rowsPerPass: number; specKSetting: number; visionOnThread: boolean; visionOverlapMs: number } };
}

async function convert(inFlight: number | 'auto', specK: number, env: Record<string, string> = {}, label = 'a'): Promise<{ pages: string[]; done: PageDone[] }> {
  const out = path.join(folder, `n${inFlight}-k${specK}-${label}`);
  const run = await runFolio(['convert', pdf, '-o', out, '--model', tinyPackage, '--device', 'cpu', '--max-tokens', '40', '--spec-k', String(specK), '--pages-in-flight', String(inFlight), '--format', 'json', '--json'], env);
  expect(run.code, run.stderr).toBe(0);
  const done = run.stdout.trim().split('\n').map((line) => JSON.parse(line) as PageDone).filter((event) => event.event === 'page-done');
  const document = JSON.parse(await readFile(path.join(out, 'pages.json'), 'utf8')) as { pages: { markdown: string }[] };
  return { pages: document.pages.map((p) => p.markdown), done };
}

beforeAll(async () => {
  if (!existsSync(path.join(repoRoot, 'dist/electron/cli/main.js'))) throw new Error('The CLI is not built; run "npm run build" before these tests.');
  folder = await mkdtemp(path.join(os.tmpdir(), 'folio-cli-in-flight-'));
  pdf = path.join(folder, 'pages.pdf');
  await writeFile(pdf, await barPages());
});

afterAll(async () => {
  if (folder) await rm(folder, { recursive: true, force: true });
});

describe('folio convert --pages-in-flight', () => {
  for (const specK of [0, 3]) {
    it(`reads each of 8 pages the same with 4 in flight as with 1, K = ${specK}`, async () => {
      const one = await convert(1, specK);
      const four = await convert(4, specK);
      expect(one.pages).toHaveLength(PAGES);
      expect(new Set(one.pages).size).toBeGreaterThan(1);
      expect(four.pages).toEqual(one.pages);
      expect(four.done.map((event) => event.page)).toEqual(Array.from({ length: PAGES }, (_, i) => i + 1));
      for (const event of one.done) expect(event.stats.decode.pagesTogether).toEqual({ most: 1, mean: 1 });
      // a page starts decoding once its vision (on its own thread) is done, so how many of the four
      // meet in one pass depends on how long the others take to decode against the next one's vision
      expect(Math.max(...four.done.map((event) => event.stats.decode.pagesTogether.most))).toBeGreaterThan(1);
      expect(four.done[0]?.stats.decode.pagesTogether.mean).toBeGreaterThan(1);
      expect(four.done[0]?.stats.decode.rowsPerPass).toBeGreaterThan(one.done[0]?.stats.decode.rowsPerPass ?? Infinity);
      four.done.forEach((event, i) => expect(event.stats.decode.newTokens).toBe(one.done[i]?.stats.decode.newTokens));
      // with pages in flight the vision ran beside the decoding, the second page's while the first
      // page decoded; one page at a time it stays on the decoding thread (a loss on 2 cores)
      expect(four.done.every((event) => event.stats.decode.visionOnThread)).toBe(true);
      expect(four.done[1]?.stats.decode.visionOverlapMs).toBeGreaterThan(0);
      expect(one.done.some((event) => event.stats.decode.visionOnThread)).toBe(false);
    }, 300_000);
  }

  it('with auto, times packed passes once, keeps them in the app-data folder and says in each page what it chose; the text is the same', async () => {
    const data = path.join(folder, 'data');
    const first = await convert('auto', 0, { FOLIO_USER_DATA_DIR: data }, 'first');
    const chosen = /auto put (\d+) pages? in flight \(ms a page row in a pass: [^;]* at 1, [^;]* at 2, [^;]* at 4, [^;]* at 8[^)]*measured now in/.exec(first.done[0]?.stats.reason ?? '');
    expect(chosen, first.done[0]?.stats.reason).not.toBeNull();
    const pages = Number(chosen?.[1]);
    expect(pages).toBeGreaterThanOrEqual(1);
    // a page decodes once its vision is done, so fewer than the lanes may meet in one pass
    expect(Math.max(...first.done.map((event) => event.stats.decode.pagesTogether.most))).toBeLessThanOrEqual(pages);
    expect(existsSync(path.join(data, 'packed-pass-calibration.json'))).toBe(true);
    const again = await convert('auto', 0, { FOLIO_USER_DATA_DIR: data }, 'again');
    expect(again.done[0]?.stats.reason).toContain(`auto put ${pages} page`);
    expect(again.done[0]?.stats.reason).toMatch(/measured \d{4}-\d\d-\d\d, kept\)/);
    expect(again.pages).toEqual(first.pages);
    expect(first.pages).toEqual((await convert(1, 0, {}, 'b')).pages);
    const doctor = await runFolio(['doctor'], { FOLIO_USER_DATA_DIR: data });
    expect(doctor.stdout).toMatch(/^--pages-in-flight auto measured \(.*packed-pass-calibration\.json\):\n {2}.+ on cpu: a decoder pass [\d.]+ ms with 1 page, [\d.]+ ms with 2 pages, [\d.]+ ms with 4 pages, [\d.]+ ms with 8 pages \(\d{4}-/m);
  }, 300_000);

  it('refuses a count out of range, and the flag without a model', async () => {
    const zero = await runFolio(['convert', pdf, '-o', path.join(folder, 'zero'), '--model', tinyPackage, '--pages-in-flight', '0']);
    expect(zero.code).toBe(2);
    expect(zero.stderr).toContain('--pages-in-flight "0" is not auto or a whole number from 1 to 16.');
    const stray = await runFolio(['convert', pdf, '-o', path.join(folder, 'stray'), '--pages-in-flight', '4']);
    expect(stray.code).toBe(2);
    expect(stray.stderr).toContain('--pages-in-flight sets up the vlm engine');
  });
});
