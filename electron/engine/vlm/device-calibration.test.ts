// `--device auto`'s choice on measured-like figures: the device with the quickest typical page
// wins, its vision encoder, prefill and decoding summed, not the one with the cheapest step.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { pageMs, type Calibration, type PageCosts } from '../../core/model/device-calibrations.js';
import type { Manifest } from '../../core/model/manifest.js';
import { readManifest } from '../../core/model/package-files.js';
import { autoReason, calibrationOf, quickest } from './device-calibration.js';
import { msPerToken, tokensPerStep, typicalPage, TYPICAL_PAGE_TOKENS } from './page-costs.js';
import { loadTokenizer } from './prompt.js';
import { readFile } from 'node:fs/promises';

const tiny = path.resolve(import.meta.dirname, '../../../tools/model/fixtures/tiny');

/** A device's measurement: its plain step (ms) and a page's vision and prefill (ms), decoding 1,000 tokens plainly. */
function device(name: string, stepMs: number, visionMs: number, prefillMs: number, complete = true): Calibration {
  const page: PageCosts = { tokens: TYPICAL_PAGE_TOKENS, promptRows: 949, tiles: 6, visionMs, prefillMs, decodeMs: stepMs * TYPICAL_PAGE_TOKENS, complete, totalMs: 900 };
  return { package: 'real-width', device: name, stepMs: [stepMs, null, null, null], catchUpMsPerRow: null, prefillMs: 10, totalMs: 900, page, measuredAt: '2026-12-03T17:00:00.000Z' };
}

describe("auto's choice of device", () => {
  it('passes over a device with a faster decoding step whose vision encoder is much slower', () => {
    // decoding 3x quicker a step (5 s a page against 15 s), but the vision encoder 40 s a page against 10 s
    const gpu = device('webgpu', 5, 40_000, 2_000);
    const cpu = device('cpu', 15, 10_000, 1_500);
    expect(gpu.stepMs[0]).toBeLessThan(cpu.stepMs[0] ?? 0);
    expect(quickest([gpu, cpu])?.device).toBe('cpu');
    expect(quickest([cpu, gpu])?.device).toBe('cpu');
    expect(pageMs(cpu.page as PageCosts)).toBe(10_000 + 1_500 + 15_000);
    expect(pageMs(gpu.page as PageCosts)).toBe(40_000 + 2_000 + 5_000);
  });

  it('takes the device whose page is quicker even when its step is dearer, and the other way round', () => {
    expect(quickest([device('webgpu', 30, 400, 200), device('cpu', 25, 10_000, 1_500)])?.device).toBe('webgpu');
    expect(quickest([device('webgpu', 100, 400, 200), device('cpu', 25, 10_000, 1_500)])?.device).toBe('cpu');
  });

  it('counts a device cut short at the parts it measured, and never prefers it to a quicker whole page', () => {
    const cut = device('webgpu', 200, 0, 0, false);
    const cpu = device('cpu', 90, 10_000, 1_500);
    expect(quickest([cpu, cut])?.device).toBe('cpu');
    // a calibration kept from before pages were weighed never wins over one that weighed a page
    expect(quickest([{ ...device('webgpu', 1, 0, 0), page: null }, cpu])?.device).toBe('cpu');
  });

  it('says each part of each page in its reason', () => {
    const reason = autoReason(device('cpu', 90, 10_000, 1_500), [device('webgpu', 200, 0, 0, false)], [], []);
    expect(reason).toBe(
      'auto chose cpu: 101.5 s a page (vision of 6 tiles and the view 10.0 s, prefill of 949 rows 1.5 s, 1000 tokens 90.0 s) ' +
        'against webgpu over 200.0 s a page (1000 tokens 200.0 s; cut short once slower) (measured 2026-12-03, kept)',
    );
  });
});

describe('decoding a page from the step costs', () => {
  it('takes FastMTP where a step drafting 3 commits a token for less than a plain step', () => {
    // 1 + 0.79 + 0.79 x 0.62 + 0.79 x 0.62 x 0.51: jina-ocr-v1's port
    expect(tokensPerStep(3)).toBeCloseTo(2.5296, 4);
    expect(tokensPerStep(0)).toBe(1);
    expect(msPerToken([10, null, null, 14])).toBeCloseTo(14 / tokensPerStep(3), 6);
    // a CPU where the verify pass reads many more experts: plain steps
    expect(msPerToken([10, Number.NaN, Number.NaN, 30])).toBe(10);
    expect(msPerToken([Number.NaN])).toBeNaN();
  });

  it('keeps the page parts with the step costs, rounded', () => {
    const manifest = { name: 'tiny' } as Manifest;
    const calibration = calibrationOf(manifest, 'cpu', {
      steps: { stepMs: [1.23456, Number.NaN, Number.NaN, 2.5], catchUpMsPerRow: 0.1234567, prefillMs: 8.6, totalMs: 40.2 },
      page: { tokens: 1000, promptRows: 66, tiles: 6, visionMs: 17.456, prefillMs: 2.823, decodeMs: 988.6543, complete: true, totalMs: 545.7 },
    }, new Date('2026-12-03T17:00:00Z'));
    expect(calibration).toEqual({
      package: 'tiny', device: 'cpu', stepMs: [1.23, null, null, 2.5], catchUpMsPerRow: 0.123, prefillMs: 9, totalMs: 546,
      page: { tokens: 1000, promptRows: 66, tiles: 6, visionMs: 17.46, prefillMs: 2.82, decodeMs: 988.65, complete: true, totalMs: 546 },
      measuredAt: '2026-12-03T17:00:00.000Z',
    });
  });
});

describe('the typical page', () => {
  it('is an A4 portrait page as the engine renders it: the tiny package 2 x 3 tiles, jina-ocr-v1 the 1,024 px view and 6 tiles of 640', async () => {
    const manifest = await readManifest(tiny);
    const tokenizer = loadTokenizer(await readFile(path.join(tiny, 'tokenizer.json'), 'utf8'));
    const small = typicalPage(manifest, tokenizer);
    expect(small).toMatchObject({ width: 272, height: 384, grid: [2, 3] });
    // 6 tiles of 2 x 2 features in a 4-wide, 6-high grid with a newline a row (30), the 4 x 4 view (20), the separator
    const textRows = small.promptRows - 51;
    expect(textRows).toBeGreaterThan(0);
    const gundam = manifest.vision.resolution_modes[0];
    if (!gundam) throw new Error('the tiny package has no resolution mode');
    const real = typicalPage({ ...manifest, vision: { ...manifest.vision, resolution_modes: [{ ...gundam, base_size: 1024, image_size: 640 }] } }, tokenizer);
    expect(real).toMatchObject({ width: 1358, height: 1920, grid: [2, 3] });
    // 903 visual tokens, as docs/benchmarks.md counts the A4 test page
    expect(real.promptRows - textRows).toBe(903);
  });
});
