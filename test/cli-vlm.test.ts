import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseCommandLine } from '../electron/cli/cli-args.js';
import { needs, WEBGPU } from './environment.js';
import { blankPng, jpegPage, pngPage, tiffPages } from './page-images.js';
import { runFolio } from './folio-process.js';
import { webgpuTestProblem } from './webgpu-on-lavapipe.js';

const root = path.resolve(import.meta.dirname, '..');
const webgpu = await webgpuTestProblem();
const tinyPackage = path.join(root, 'tools/model/fixtures/tiny');
const pdf = path.join(root, 'test/fixtures/out/headings.pdf');

let folder: string;

beforeAll(async () => {
  if (!existsSync(path.join(root, 'dist/electron/cli/main.js'))) throw new Error('The CLI is not built; run "npm run build" before these tests.');
  folder = await mkdtemp(path.join(os.tmpdir(), 'folio-cli-vlm-'));
  await writeFile(path.join(folder, 'scan.png'), pngPage(300, 400));
  await writeFile(path.join(folder, 'blank.png'), blankPng(300, 400));
  await writeFile(path.join(folder, 'photo.jpg'), jpegPage(400, 300, 6));
  await writeFile(path.join(folder, 'fax.tif'), tiffPages([{ width: 300, height: 400, orientation: 1 }, { width: 400, height: 300, orientation: 8 }]));
});

afterAll(async () => {
  if (folder) await rm(folder, { recursive: true, force: true });
});


describe('folio convert with the vlm engine', () => {
  it('converts a page with the model package and reports engine vlm on the cpu', async () => {
    const run = await runFolio(['convert', pdf, '-o', path.join(folder, 'out'), '--engine', 'vlm', '--model', tinyPackage, '--max-tokens', '16', '--json']);
    expect(run.code, run.stderr).toBe(0);
    const events = run.stdout.trim().split('\n').map((line) => JSON.parse(line) as { event: string; stats?: { engine: string; device: string; tokens?: number } });
    const done = events.filter((event) => event.event === 'page-done');
    expect(done).toHaveLength(1);
    expect(done[0]?.stats).toMatchObject({ engine: 'vlm', device: 'cpu', tokens: 16 });
    // the model opens before the page starts, and says so
    const order = events.map((event) => event.event).filter((name, index, names) => name !== names[index - 1]);
    expect(order).toEqual(['document-opened', 'engine-preparing', 'engine-ready', 'page-started', 'page-done', 'document-done', 'summary']);
    expect(events.find((event) => event.event === 'engine-preparing')).toMatchObject({ page: 1, detail: 'opening the model', bytes: expect.any(Number) });
  });

  it('reports how the page was decoded in the --json page event, speculating by auto by default', async () => {
    const run = await runFolio(['convert', pdf, '-o', path.join(folder, 'stats'), '--model', tinyPackage, '--max-tokens', '20', '--json']);
    expect(run.code, run.stderr).toBe(0);
    const done = run.stdout.trim().split('\n').map((line) => JSON.parse(line) as { event: string; stats?: { decode?: Record<string, unknown> } }).find((event) => event.event === 'page-done');
    expect(done?.stats?.decode).toMatchObject({
      model: 'folio-tiny', mode: 'gundam', newTokens: 20, specKSetting: 'auto', stopped: 'limit',
      visualTokens: expect.any(Number), promptTokens: expect.any(Number), steps: expect.any(Number), tokensPerStep: expect.any(Number),
      stepsAtK: expect.any(Array), acceptance: expect.any(Array), prefillMs: expect.any(Number), decodeMs: expect.any(Number),
      tokensPerSecond: expect.any(Number), cacheBytes: expect.any(Number),
      provider: 'cpu', precision: 'fp32', cacheResident: false, hostBytesPerStep: 0, skippedIds: [],
    });
  });

  it('picks vlm under auto when a model package is given', async () => {
    const run = await runFolio(['convert', pdf, '-o', path.join(folder, 'auto'), '--model', tinyPackage, '--max-tokens', '16', '--spec-k', '0', '--json']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/"engine":"vlm".*"reason":"model package configured/);
  });

  it('exits 2 with a one-line reason for --engine vlm without --model', async () => {
    const run = await runFolio(['convert', pdf, '-o', path.join(folder, 'none'), '--engine', 'vlm']);
    expect(run.code).toBe(2);
    expect(run.stderr.trim().split('\n')).toEqual([expect.stringMatching(/--engine vlm needs a model package; add --model <dir>/)]);
  });

  it('fails the page with the loader message when the folder holds no package', async () => {
    const run = await runFolio(['convert', pdf, '-o', path.join(folder, 'bad'), '--model', folder, '--max-tokens', '16']);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('no manifest.json here, so it is not a model package; choose one listed in Settings > Models, or get one there or with folio model get REPO');
    expect(run.stderr).not.toContain('Unexpected error');
  });
});

describe('folio convert on page images', () => {
  type Event = { event: string; file?: string; page?: number; stats?: { engine: string; tokens?: number } };
  const images = () => ['scan.png', 'photo.jpg', 'fax.tif'].map((name) => path.join(folder, name));

  it('reads a PNG, an EXIF-turned JPEG and a two-page TIFF with the vlm engine, one Markdown file each', async () => {
    const out = path.join(folder, 'images');
    const run = await runFolio(['convert', ...images(), '-o', out, '--engine', 'vlm', '--model', tinyPackage, '--max-tokens', '6', '--json']);
    expect(run.code, run.stderr).toBe(0);
    const events = run.stdout.trim().split('\n').map((line) => JSON.parse(line) as Event);
    const done = events.filter((event) => event.event === 'page-done').map((event) => [path.basename(event.file ?? ''), event.page, event.stats?.engine]);
    expect(done).toEqual([
      ['scan.png', 1, 'vlm'],
      ['photo.jpg', 1, 'vlm'],
      ['fax.tif', 1, 'vlm'],
      ['fax.tif', 2, 'vlm'],
    ]);
    for (const stem of ['scan', 'photo', 'fax']) expect(existsSync(path.join(out, `${stem}.md`))).toBe(true);
  });

  it('converts a blank page without the model and asks for it to be reviewed', async () => {
    const run = await runFolio(['convert', path.join(folder, 'blank.png'), '-o', path.join(folder, 'blank'), '--model', tinyPackage, '--max-tokens', '6']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain('blank.png: page 1: review: looked blank, so it was not read; check that nothing is on it.');
  });

  it('fails image pages under the text engine, saying which engine reads them', async () => {
    const run = await runFolio(['convert', path.join(folder, 'fax.tif'), '-o', path.join(folder, 'text'), '--engine', 'text']);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('page 1 is an image with no text layer; read it with the vlm or lite engine');
    expect(run.stderr).toContain('page 2 is an image with no text layer');
    expect(run.stderr).not.toContain('Unexpected error');
  });
});

describe('vlm command-line settings', () => {
  const convert = async (...flags: string[]) => {
    const command = await parseCommandLine(['convert', 'a.pdf', '-o', 'out', ...flags]);
    if (command.kind !== 'convert') throw new Error(`expected a convert command, got ${command.kind}`);
    return command.request;
  };

  it('folio doctor lists the devices the engine host answers on, why CUDA is missing, and what auto measured', async () => {
    const run = await runFolio(['doctor']);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^ONNX Runtime: \d+\.\d+\.\d+$/m);
    expect(run.stdout).toMatch(/^devices: (.+, )?cpu$/m);
    // CI has no CUDA libraries: the line says so and how to get them
    expect(run.stdout).toMatch(/^not available: cuda:0: /m);
    // no fixed choice: what auto does with the devices that answered
    expect(run.stdout).toMatch(/^--device auto(: cpu, the only device that answered| measures a typical page on each of .*cpu the first time a package opens)/m);
    expect(run.stdout).toMatch(/device-calibration\.json/);
  });

  it('converts with --device auto on a typical page measured on each device, says why in the stats, and folio doctor lists the parts', needs(WEBGPU, webgpu), async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'folio-cli-auto-'));
    try {
      const run = await runFolio(['convert', pdf, '-o', path.join(folder, 'auto'), '--model', tinyPackage, '--max-tokens', '8', '--device', 'auto', '--json'], { FOLIO_USER_DATA_DIR: dataDir });
      expect(run.code, run.stderr).toBe(0);
      const done = run.stdout.trim().split('\n').map((line) => JSON.parse(line) as { event: string; stats?: { reason?: string } }).find((event) => event.event === 'page-done');
      // the page's stats: each device's page by part, the quickest chosen
      expect(done?.stats?.reason).toMatch(/auto chose (cpu|webgpu): [\d.]+ m?s a page \(vision of 6 tiles and the view [\d.]+ m?s, prefill of \d+ rows [\d.]+ m?s, 1000 tokens [\d.]+ m?s\) against (cpu|webgpu) (over )?[\d.]+ m?s a page/);
      const doctor = await runFolio(['doctor'], { FOLIO_USER_DATA_DIR: dataDir });
      expect(doctor.stdout).toMatch(/^ {2}folio-tiny on cpu: [\d.]+ ms a step, drafting 3: [\d.]+ ms; [\d.]+ m?s a page \(vision of 6 tiles and the view [\d.]+ m?s, prefill of \d+ rows [\d.]+ m?s, 1000 tokens [\d.]+ m?s\)/m);
      expect(doctor.stdout).toMatch(/^ {2}folio-tiny on webgpu: .* a page \(/m);
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  it('takes --device auto, cpu, webgpu, cuda or cuda:N, and says so when given anything else', async () => {
    expect((await convert('--model', 'm', '--device', 'webgpu')).vlm?.device).toBe('webgpu');
    expect((await convert('--model', 'm', '--device', 'CUDA')).vlm?.device).toBe('cuda:0');
    expect((await convert('--model', 'm', '--device', 'cuda:1')).vlm?.device).toBe('cuda:1');
    expect((await convert('--model', 'm')).vlm?.device).toBeUndefined();
    await expect(convert('--model', 'm', '--device', 'tpu')).rejects.toThrow(/--device "tpu" is not one of auto, cpu, webgpu, cuda, cuda:N/);
  });

  it('converts with --device webgpu to the --device cpu text, the cache resident and the bytes per step reported', needs(WEBGPU, webgpu), async () => {
    const decodeOf = async (device: string) => {
      const out = path.join(folder, `device-${device}`);
      const run = await runFolio(['convert', pdf, '-o', out, '--model', tinyPackage, '--max-tokens', '24', '--spec-k', '2', '--device', device, '--json']);
      const done = run.stdout.trim().split('\n').filter(Boolean).map((line) => JSON.parse(line) as { event: string; stats?: { decode?: Record<string, unknown> } }).find((event) => event.event === 'page-done');
      return { run, decode: done?.stats?.decode, text: run.code === 0 ? await readFile(path.join(out, 'headings.md'), 'utf8') : '' };
    };
    const gpu = await decodeOf('webgpu');
    const cpu = await decodeOf('cpu');
    expect(gpu.run.code, gpu.run.stderr).toBe(0);
    expect(gpu.text).toBe(cpu.text);
    expect(cpu.decode).toMatchObject({ provider: 'cpu', cacheResident: false, hostBytesPerStep: 0 });
    expect(gpu.decode).toMatchObject({ provider: 'webgpu', precision: 'fp32', cacheResident: true });
    // ids, positions, lengths and bans of the verify and draft passes (about 280 bytes at K = 2, at any
    // model width); one fp32 logits row of the tiny model is 311 * 4 bytes, one cache row 6 * 256
    expect(gpu.decode?.hostBytesPerStep).toBeGreaterThan(0);
    expect(gpu.decode?.hostBytesPerStep).toBeLessThan(311 * 4);
  });

  it('takes --spec-k auto or a K from 0 to 4, and says so when given anything else', async () => {
    expect((await convert('--model', 'm', '--spec-k', 'auto')).vlm?.specK).toBe('auto');
    expect((await convert('--model', 'm', '--spec-k', '2')).vlm?.specK).toBe(2);
    await expect(convert('--model', 'm', '--spec-k', '5')).rejects.toThrow(/--spec-k "5" is not auto or a whole number from 0 to 4/);
  });

  it('gives a vlm page more time by default, growing with --max-tokens, unless --page-timeout says otherwise', async () => {
    // without a model, auto may read a scan with the lite OCR engine
    expect((await convert()).pageTimeoutMs).toBe(180_000);
    expect((await convert('--model', 'm', '--engine', 'text')).pageTimeoutMs).toBe(60_000);
    const short = (await convert('--model', 'm', '--max-tokens', '100')).pageTimeoutMs;
    expect(short).toBeGreaterThan(60_000);
    expect((await convert('--model', 'm')).pageTimeoutMs).toBeGreaterThan(short);
    expect((await convert('--model', 'm', '--page-timeout', '5')).pageTimeoutMs).toBe(5_000);
  });
});
