// The vlm engine on the tiny package: text streams as deltas that add up to the page's Markdown,
// speculative and greedy pages read the same, a blank page never reaches the model, and
// cancelling stops the page within a step.
import path from 'node:path';
import { createCanvas } from '@napi-rs/canvas';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openModelPackage, type ModelPackage } from '../electron/engine/vlm/model-package.js';
import { renderPdfPage } from '../electron/engine/raster/page-raster.js';
import { rgbFromRgba, type RgbImage } from '../electron/engine/raster/rgb-image.js';
import { VlmEngine } from '../electron/engine/vlm/vlm-engine.js';
import { DEFAULT_CONVERT_OPTIONS } from '../shared/protocol.js';

const packageDir = path.resolve(import.meta.dirname, '../tools/model/fixtures/tiny');

function page(blank: boolean): RgbImage {
  const canvas = createCanvas(200, 150);
  const context = canvas.getContext('2d');
  context.fillStyle = '#fff';
  context.fillRect(0, 0, 200, 150);
  if (!blank) {
    context.fillStyle = '#123';
    for (let y = 10; y < 140; y += 12) context.fillRect(10, y, 120 + (y % 50), 5);
  }
  return rgbFromRgba(200, 150, context.getImageData(0, 0, 200, 150).data);
}

let pkg: ModelPackage;
beforeAll(async () => {
  pkg = await openModelPackage(packageDir, { threads: 1 });
});
afterAll(async () => pkg.release());

describe('vlm engine', () => {
  it('streams deltas that add up to the Markdown, the same with and without speculation', async () => {
    const deltas: string[] = [];
    const greedy = await new VlmEngine(pkg, { mode: 'gundam', specK: 0, maxNewTokens: 40 }).convertImage(page(false), undefined, (text) => deltas.push(text));
    expect(deltas.length).toBeGreaterThan(1);
    expect(deltas.join('')).toBe(greedy.markdown);
    expect(greedy.stats).toMatchObject({ newTokens: 40, steps: 40, model: 'folio-tiny', mode: 'gundam', device: pkg.provider.device, specK: 0, stepsAtK: [39], stopped: 'limit', flags: ['truncated'] });
    const speculative = await new VlmEngine(pkg, { mode: 'gundam', specK: 3, maxNewTokens: 40 }).convertImage(page(false), undefined, () => {});
    expect(speculative.markdown).toBe(greedy.markdown);
    expect(speculative.stats.acceptance).toHaveLength(3);
    expect(speculative.stats.cacheBytes).toBeGreaterThan(0);
  });

  it('under auto, learns over the first page that the tiny head is never right and decodes the next ones plainly, as greedy would', async () => {
    const auto = new VlmEngine(pkg, { mode: 'gundam', specK: 'auto', maxNewTokens: 30 });
    const plain = new VlmEngine(pkg, { mode: 'gundam', specK: 0, maxNewTokens: 30 });
    const pages = [page(false), page(false), page(false)];
    const stats = [];
    for (const image of pages) {
      const result = await auto.convertImage(image, undefined, () => {});
      expect(result.markdown).toBe((await plain.convertImage(image, undefined, () => {})).markdown);
      stats.push(result.stats);
    }
    // the first page probes K = 4 after a plain step; later pages settle on no speculation
    expect(stats[0]).toMatchObject({ specKSetting: 'auto' });
    expect(stats[0]?.stepsAtK[4]).toBeGreaterThan(0);
    expect(stats[2]).toMatchObject({ specK: 0 });
    expect(stats[2]?.stepsAtK[0]).toBeGreaterThan(25);
  });

  it('reports a blank page as blank without running the model', async () => {
    const result = await new VlmEngine(pkg, { mode: 'gundam', specK: 0, maxNewTokens: 40 }).convertImage(page(true), undefined, () => {});
    expect(result).toMatchObject({ markdown: '', stats: { stopped: 'blank', flags: ['blank'], newTokens: 0 } });
  });

  it('stops within one step of a cancel', async () => {
    const controller = new AbortController();
    let tokensSeen = 0;
    const engine = new VlmEngine(pkg, { mode: 'gundam', specK: 2, maxNewTokens: 40 });
    const result = await engine.convertImage(page(false), controller.signal, () => {
      tokensSeen++;
      if (tokensSeen === 3) controller.abort();
    });
    // the step that saw the cancel may still commit its K+1 tokens
    expect(result.stats.newTokens).toBeLessThan(10);
  });

  it('stops a page at its text limit, as the remote engine does, and flags it cut short', async () => {
    const unbounded = await new VlmEngine(pkg, { mode: 'gundam', specK: 0, maxNewTokens: 60 }).convertImage(page(false), undefined, () => {});
    expect(unbounded.markdown.length).toBeGreaterThan(40);
    const deltas: string[] = [];
    const capped = await new VlmEngine(pkg, { mode: 'gundam', specK: 2, maxNewTokens: 60, textLimit: 40 }).convertImage(page(false), undefined, (text) => deltas.push(text));
    expect(capped.markdown).toBe(unbounded.markdown.slice(0, 40));
    expect(deltas.join('')).toBe(capped.markdown);
    expect(capped.stats).toMatchObject({ stopped: 'limit', flags: ['truncated'] });
    expect(capped.stats.reason).toContain('stopped at 40 characters, the most Folio takes for one page');
    expect(capped.stats.newTokens).toBeLessThan(60);
  });

  it('refuses an unknown resolution mode, naming those offered', async () => {
    const engine = new VlmEngine(pkg, { mode: 'large', specK: 0, maxNewTokens: 8 });
    await expect(engine.convertImage(page(false), undefined, () => {})).rejects.toThrow(/no resolution mode "large"; it offers gundam/);
  });
});

describe('vlm engine on a printed PDF', () => {
  it('renders the page with pdf.js and streams its text', async () => {
    const { closePdf, openPdf } = await import('../electron/engine/pdf/open-pdf.js');
    const { pdf } = await openPdf(path.resolve(import.meta.dirname, 'fixtures/out/clauses.pdf'));
    try {
      const deltas: string[] = [];
      const engine = new VlmEngine(pkg, { mode: 'gundam', specK: 2, maxNewTokens: 12 });
      const content = await engine.convertPage({
        pdf, page: 1, options: DEFAULT_CONVERT_OPTIONS, signal: new AbortController().signal, alsoConverts: () => false,
        render: (longSide) => renderPdfPage(pdf, 1, longSide),
        emitDelta: (text) => deltas.push(text),
      });
      expect(content.tokens).toBe(12);
      expect(content.markdown.length).toBeGreaterThan(0);
      expect(deltas.join('')).toBe(content.markdown);
      expect(content.width).toBeGreaterThan(500);
      expect(content.device).toBe(pkg.provider.device);
      expect(content.decode).toMatchObject({ model: 'folio-tiny', newTokens: 12, specK: 2, specKSetting: 2, stopped: 'limit' });
    } finally {
      await closePdf(pdf);
    }
  });
});

describe('vlm engine on an image file', () => {
  it('reads the stored pixels rather than a render, and gives the page the image size in points', async () => {
    const image = page(false);
    const engine = new VlmEngine(pkg, { mode: 'gundam', specK: 0, maxNewTokens: 8 });
    const content = await engine.convertPage({
      page: 1, options: DEFAULT_CONVERT_OPTIONS, signal: new AbortController().signal, alsoConverts: () => false,
      render: () => Promise.reject(new Error('an image page is not rendered')),
      storedImage: async () => image,
      emitDelta: () => {},
    });
    expect(content).toMatchObject({ width: 200, height: 150, tokens: 8 });
    expect(content.markdown).toBe((await engine.convertImage(image, undefined, () => {})).markdown);
  });
});
