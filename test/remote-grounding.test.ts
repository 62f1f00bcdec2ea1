import { createCanvas, loadImage } from '@napi-rs/canvas';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PageResult } from '../shared/page.js';
import { DEFAULT_CONVERT_OPTIONS, type ConvertOptions } from '../shared/protocol.js';
import { DocumentSession } from '../electron/engine/document-session.js';
import { EngineRouter } from '../electron/engine/router.js';
import { startTestServer, type TestServer } from '../tools/bench/openai-test-server.js';
import { PAGE_HEIGHT, pageWidth, writeWidthCodedPdf } from './remote-pages.js';
import { runFolio } from './folio-process.js';

const MODEL = 'deepseek-ai/DeepSeek-OCR';
const WIDTH = pageWidth(1);
/** The page's black bar, top-left origin, in points (remote-pages.ts draws it 40..w-40 wide, 140..200 down). */
const BAR = { x0: 40, y0: 140, x1: WIDTH - 40, y1: 200 };
/** A box well inside the bar, as DeepSeek-OCR writes boxes: 0..999 of the image's width and height. */
const FIGURE: [number, number, number, number] = [60, 150, 280, 190];
const toModel = ([x0, y0, x1, y1]: readonly number[]): number[] => [
  Math.round(((x0 ?? 0) / WIDTH) * 999),
  Math.round(((y0 ?? 0) / PAGE_HEIGHT) * 999),
  Math.round(((x1 ?? 0) / WIDTH) * 999),
  Math.round(((y1 ?? 0) / PAGE_HEIGHT) * 999),
];

/** What DeepSeek-OCR answers for the page with its grounding prompt (the server streams it a word at a time). */
const GROUNDED_ANSWER = [
  `<|ref|>image<|/ref|><|det|>[[${toModel(FIGURE).join(', ')}]]<|/det|>\n\n\n`,
  `<|ref|>title<|/ref|><|det|>[[118, 350, 588, 381]]<|/det|>\n# Page 1\n\n`,
  '<|ref|>table<|/ref|><|det|>[[100, 400, 900, 500]]<|/det|>\n<table><tr><td>a</td><td>b</td></tr></table>\n\n',
  '<|ref|>footer<|/ref|><|det|>[[450, 950, 550, 990]]<|/det|>\n1',
].join('');
const CLEAN = '![](folio-image:page-1-image-1.png)\n\n# Page 1\n\n<table><tr><td>a</td><td>b</td></tr></table>\n\n';

let folder: string;
let pdf: string;
let server: TestServer;

beforeAll(async () => {
  folder = await mkdtemp(path.join(os.tmpdir(), 'folio-remote-grounding-'));
  pdf = path.join(folder, 'one-page.pdf');
  await writeWidthCodedPdf(pdf, 1);
  server = await startTestServer({ models: [MODEL], answer: () => GROUNDED_ANSWER });
});

afterAll(async () => {
  await server?.close();
  if (folder) await rm(folder, { recursive: true, force: true });
});

async function convertPage(options: Partial<ConvertOptions>): Promise<{ result: PageResult; deltas: string[] }> {
  const session = await DocumentSession.open(new EngineRouter({}), pdf);
  const remote = { server: server.url, model: MODEL, concurrency: 1, timeoutMs: 10_000, retries: 0, imageLongSide: 640, imageFormat: 'png' as const, maxTokens: 512 };
  const deltas: string[] = [];
  const done: PageResult[] = [];
  const failures: string[] = [];
  try {
    await session.convert(
      [1],
      { ...DEFAULT_CONVERT_OPTIONS, engine: 'remote', remote, ...options },
      { started: () => undefined, delta: (_page, text) => deltas.push(text), done: (result) => done.push(result), failed: (_page, failure) => failures.push(failure.message) },
      new AbortController().signal,
    );
  } finally {
    await session.close();
  }
  expect(failures).toEqual([]);
  return { result: done[0]!, deltas };
}

/** Mean of the red, green and blue samples of a PNG: 0 is black, 255 white. */
async function meanLevel(png: Uint8Array): Promise<number> {
  const image = await loadImage(Buffer.from(png));
  const canvas = createCanvas(image.width, image.height);
  const context = canvas.getContext('2d');
  context.drawImage(image, 0, 0);
  const { data } = context.getImageData(0, 0, image.width, image.height);
  let sum = 0;
  for (let i = 0; i < data.length; i += 4) sum += (data[i]! + data[i + 1]! + data[i + 2]!) / 3;
  return sum / (data.length / 4);
}

describe('remote engine with DeepSeek-OCR grounding', () => {
  it('streams clean Markdown and gives blocks inside the page and the figure cut from the page', async () => {
    const { result, deltas } = await convertPage({ extractImages: true });
    expect(server.stats.seen[0]?.prompt).toContain('<|grounding|>');
    expect(deltas.length).toBeGreaterThan(3);
    expect(deltas.join('')).toBe(result.markdown);
    expect(result.markdown).toBe(CLEAN);
    for (const delta of deltas) expect(delta).not.toContain('<|');

    expect(result.blocks.map((block) => block.kind)).toEqual(['image', 'heading', 'table', 'footer']);
    for (const { bbox } of result.blocks) {
      expect(bbox[0]).toBeGreaterThanOrEqual(0);
      expect(bbox[1]).toBeGreaterThanOrEqual(0);
      expect(bbox[2]).toBeLessThanOrEqual(result.width);
      expect(bbox[3]).toBeLessThanOrEqual(result.height);
      expect(bbox[2]).toBeGreaterThan(bbox[0]);
      expect(bbox[3]).toBeGreaterThan(bbox[1]);
    }
    const figure = result.blocks[0]!.bbox;
    FIGURE.forEach((value, i) => expect(Math.abs(figure[i]! - value)).toBeLessThan(0.5));

    const [image] = result.images;
    expect(image?.name).toBe('page-1-image-1.png');
    expect(image?.bbox).toEqual(figure);
    // the box lies inside the page's black bar, so the crop is black: the coordinates landed where the model meant
    expect(figure[0]).toBeGreaterThan(BAR.x0);
    expect(figure[3]).toBeLessThan(BAR.y1);
    expect(await meanLevel(image!.data!)).toBeLessThan(20);
  });

  it('writes clean Markdown and the figure as an asset through folio convert', async () => {
    const out = path.join(folder, 'out');
    const args = ['convert', pdf, '-o', out, '--engine', 'remote', '--server', server.url, '--model', MODEL, '--images', '--format', 'md'];
    const run = await runFolio(args);
    expect(run.code, run.stderr).toBe(0);
    const markdown = await readFile(path.join(out, 'one-page.md'), 'utf8');
    expect(markdown).not.toContain('<|');
    expect(markdown).toContain('# Page 1');
    const link = /!\[\]\(([^)]+\.png)\)/.exec(markdown)?.[1];
    expect(link).toBeDefined();
    expect(await meanLevel(await readFile(path.join(out, decodeURIComponent(link!))))).toBeLessThan(20);
  });

  it('lists the figure without pixels when images are not extracted', async () => {
    const { result } = await convertPage({ extractImages: false });
    expect(result.markdown).toBe(CLEAN);
    expect(result.images).toHaveLength(1);
    expect(result.images[0]?.data).toBeUndefined();
  });
});
