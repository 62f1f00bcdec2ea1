// Several pages decoding together through the tiny package on the CPU (pass-packer.ts): each page's
// text equals the page decoded alone, greedy and FastMTP K = 3, pages joining as others end, and a
// cancelled page leaves the others decoding. The pages differ (bars of different lengths, shifted)
// so that their prompts and texts differ, and their lengths differ so that pages leave at different times.
import path from 'node:path';
import { createCanvas } from '@napi-rs/canvas';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openModelPackage, type ModelPackage } from '../electron/engine/vlm/model-package.js';
import { rgbFromRgba, type RgbImage } from '../electron/engine/raster/rgb-image.js';
import { VlmEngine, type ImageConversion } from '../electron/engine/vlm/vlm-engine.js';

const packageDir = path.resolve(import.meta.dirname, '../tools/model/fixtures/tiny');
const PAGES = 8;

function page(n: number): RgbImage {
  const width = 160 + 30 * (n % 3);
  const height = 150 + 20 * (n % 4);
  const canvas = createCanvas(width, height);
  const context = canvas.getContext('2d');
  context.fillStyle = '#fff';
  context.fillRect(0, 0, width, height);
  context.fillStyle = n % 2 ? '#123' : '#431';
  for (let y = 8 + n; y < height - 10; y += 10 + (n % 3)) context.fillRect(6 + n * 3, y, 40 + ((y * (n + 3)) % 90), 4);
  context.fillRect(width / 2, 4, 12 + 4 * n, 24);
  return rgbFromRgba(width, height, context.getImageData(0, 0, width, height).data);
}

let pkg: ModelPackage;
beforeAll(async () => {
  pkg = await openModelPackage(packageDir, { threads: 1 });
});
afterAll(async () => pkg.release());

/** Every page through one engine, at most `inFlight` at once, each starting as soon as one ends. */
async function convertAll(engine: VlmEngine, inFlight: number, images: readonly RgbImage[], cancelAfter = new Map<number, number>()): Promise<ImageConversion[]> {
  const results: ImageConversion[] = [];
  let next = 0;
  const lane = async () => {
    while (next < images.length) {
      const index = next++;
      // a page cancelled after some of its text has streamed
      const cancel = new AbortController();
      let deltas = 0;
      const onDelta = () => {
        if (++deltas === cancelAfter.get(index)) cancel.abort();
      };
      results[index] = await engine.convertImage(images[index] as RgbImage, cancel.signal, onDelta);
    }
  };
  await Promise.all(Array.from({ length: inFlight }, lane));
  return results;
}

describe('pages in flight on the tiny package', () => {
  it('runs the capacity decoder on the CPU, which packs pages, and the vision encoder on its own thread, a page ahead per lane', () => {
    expect(pkg.decoderGraph).toBe('decoder_capacity');
    const engine = new VlmEngine(pkg, { mode: 'gundam', specK: 0, maxNewTokens: 8, pagesInFlight: 4 });
    expect(engine.lanes).toBe(4);
    // the tiny package's prompts and caches are kilobytes: any free memory takes a page ahead per lane
    expect(engine.vision).toEqual({ onThread: true, ahead: 4, why: '' });
    expect(engine.pagesInFlight).toBe(8);
    // one page at a time the vision stays on the decoding thread unless asked (a loss on 2 cores)
    const alone = new VlmEngine(pkg, { mode: 'gundam', specK: 0, maxNewTokens: 8 });
    expect([alone.lanes, alone.vision.onThread, alone.pagesInFlight]).toEqual([1, false, 1]);
    const aloneBeside = new VlmEngine(pkg, { mode: 'gundam', specK: 0, maxNewTokens: 8, visionBeside: true });
    expect([aloneBeside.lanes, aloneBeside.pagesInFlight]).toEqual([1, 2]);
    const inline = new VlmEngine(pkg, { mode: 'gundam', specK: 0, maxNewTokens: 8, pagesInFlight: 4, visionBeside: false });
    expect([inline.vision.onThread, inline.pagesInFlight]).toEqual([false, 4]);
  });

  for (const specK of [0, 3]) {
    it(`gives each of ${PAGES} pages its own text with 4 in flight, as with 1, at K = ${specK}, the vision on the decoding thread or beside it`, async () => {
      const images = Array.from({ length: PAGES }, (_, n) => page(n));
      const alone = new VlmEngine(pkg, { mode: 'gundam', specK, maxNewTokens: 40, visionBeside: false });
      const packed = new VlmEngine(pkg, { mode: 'gundam', specK, maxNewTokens: 40, pagesInFlight: 4, visionBeside: false });
      const beside = new VlmEngine(pkg, { mode: 'gundam', specK, maxNewTokens: 40, pagesInFlight: 4 });
      const aloneBeside = new VlmEngine(pkg, { mode: 'gundam', specK, maxNewTokens: 40, visionBeside: true });
      const one = await convertAll(alone, 1, images);
      // vision on the decoding thread: the first four pages' vision goes first, so all four decode together
      const four = await convertAll(packed, 4, images);
      // as many pages as each engine takes: the next pages' vision runs while others decode
      const fourBeside = await convertAll(beside, beside.pagesInFlight, images);
      const oneBeside = await convertAll(aloneBeside, aloneBeside.pagesInFlight, images);
      expect(new Set(one.map((r) => r.markdown)).size).toBeGreaterThan(1);
      for (const run of [four, fourBeside, oneBeside]) {
        run.forEach((result, i) => {
          expect(result.markdown, `page ${i + 1}`).toBe(one[i]?.markdown);
          expect(result.stats.newTokens).toBe(one[i]?.stats.newTokens);
          expect(result.stats.steps).toBe(one[i]?.stats.steps);
        });
      }
      expect([...one, ...four].every((r) => !r.stats.visionOnThread && r.stats.visionOverlapMs === 0)).toBe(true);
      for (const run of [fourBeside, oneBeside]) {
        expect(run.every((r) => r.stats.visionOnThread)).toBe(true);
        // the second page's vision starts as the first page's ends, and so runs while the first page decodes
        expect(run[1]?.stats.visionOverlapMs).toBeGreaterThan(0);
      }
      expect([...one, ...oneBeside].every((r) => r.stats.pagesTogether.most === 1 && r.stats.pagesTogether.mean === 1)).toBe(true);
      expect(Math.max(...four.map((r) => r.stats.pagesTogether.most))).toBe(4);
      expect(four[0]?.stats.pagesTogether.mean).toBeGreaterThan(2);
      // with the vision beside, the first page's passes wait while free lanes wait for pages whose vision
      // runs, so the first four decode together from their first step (each had decoded alone before)
      for (const result of fourBeside.slice(0, 4)) expect(result.stats.pagesTogether.most).toBe(4);
      // a K = 3 step checks 4 rows per page
      expect(four[0]?.stats.rowsPerPass).toBeGreaterThan(one[0]?.stats.rowsPerPass ?? Infinity);
      expect(one[0]?.stats.rowsPerPass).toBe(specK + 1);
    }, 240_000);
  }

  it('lets a cancelled page leave while the others decode on, and the next page join them mid-way, each text unchanged', async () => {
    const images = Array.from({ length: PAGES }, (_, n) => page(n));
    const one = await convertAll(new VlmEngine(pkg, { mode: 'gundam', specK: 3, maxNewTokens: 40 }), 1, images);
    // the vision on the decoding thread, so that the first three pages start decoding together
    const three = await convertAll(new VlmEngine(pkg, { mode: 'gundam', specK: 3, maxNewTokens: 40, pagesInFlight: 3, visionBeside: false }), 3, images, new Map([[1, 4]]));
    expect(three[1]?.stats.stopped).toBe('cancelled');
    expect(three[1]?.stats.newTokens).toBeLessThan(one[1]?.stats.newTokens ?? 0);
    expect(one[1]?.markdown.startsWith(three[1]?.markdown ?? 'none')).toBe(true);
    three.forEach((result, i) => {
      if (i !== 1) expect(result.markdown, `page ${i + 1}`).toBe(one[i]?.markdown);
    });
    // page 4 took page 2's lane while pages 1 and 3 were decoding
    expect(three[3]?.stats.pagesTogether.most).toBe(3);
  }, 240_000);
});
