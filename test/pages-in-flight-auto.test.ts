// `--pages-in-flight auto` on the committed tiny package: packed passes measured on the CPU, kept
// in the app-data folder and not measured again, the choice bounded by the document's pages.
import { mkdtempSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { PACKED_PASS_FILE, readPackedPassCalibrations } from '../electron/core/model/device-calibrations.js';
import { calibrationKey } from '../electron/engine/vlm/device-calibration.js';
import { openModelPackage, type ModelPackage } from '../electron/engine/vlm/model-package.js';
import { knownPackedPassCosts, measurePackedPasses, pageCacheBytes } from '../electron/engine/vlm/packed-pass-costs.js';
import { resolutionMode } from '../electron/engine/vlm/page-input.js';
import { VlmEngineCache } from '../electron/engine/vlm/vlm-engine-cache.js';

const tiny = path.resolve(import.meta.dirname, '../tools/model/fixtures/tiny');
const folder = mkdtempSync(path.join(tmpdir(), 'folio-in-flight-auto-'));
const released: ModelPackage[] = [];

afterAll(async () => {
  await Promise.all(released.map((pkg) => pkg.release()));
  await rm(folder, { recursive: true, force: true });
});

describe('--pages-in-flight auto', () => {
  it('times a packed pass of 1, 2, 4 and 8 pages once, then reads what it kept', async () => {
    const pkg = await openModelPackage(tiny, { device: { kind: 'cpu' }, skipChecksums: true, threads: 1 });
    released.push(pkg);
    let measured = 0;
    const measure = (opened: ModelPackage) => {
      measured++;
      return measurePackedPasses(opened);
    };
    const first = await knownPackedPassCosts(pkg, folder, measure);
    expect(first.costs.map((cost) => cost.pages)).toEqual([1, 2, 4, 8]);
    for (const cost of first.costs) expect(cost.ms).toBeGreaterThan(0);
    expect(first.measured).toMatch(/^measured now in \d/);
    const kept = (await readPackedPassCalibrations(folder)).get(calibrationKey(pkg.manifest, 'cpu', pkg.provider.runtimeVersion));
    expect(kept?.passMs.map((cost) => cost.pages)).toEqual([1, 2, 4, 8]);
    const again = await knownPackedPassCosts(pkg, folder, measure);
    expect(measured).toBe(1);
    expect(again.measured).toMatch(/^measured \d{4}-\d\d-\d\d, kept$/);
    expect(again.costs).toEqual(kept?.passMs);
    expect(path.basename(PACKED_PASS_FILE)).toBe('packed-pass-calibration.json');
  });

  it("counts a page's cache at its longest: every layer's keys and values and the draft head's, for the mode's largest prompt", async () => {
    const pkg = await openModelPackage(tiny, { device: { kind: 'cpu' }, skipChecksums: true, threads: 1, stepGraphsOnly: true });
    released.push(pkg);
    const sizes = pkg.manifest.architecture.language_config;
    const rowBytes = (sizes.num_hidden_layers + 1) * 2 * sizes.num_key_value_heads * (sizes.hidden_size / sizes.num_attention_heads) * 4;
    const mode = resolutionMode(pkg.manifest, 'gundam');
    const bytes = pageCacheBytes(pkg.manifest, mode, 1000, 3, true);
    expect(bytes % rowBytes).toBe(0);
    // more new tokens, more bytes, one row's worth each
    expect(pageCacheBytes(pkg.manifest, mode, 1001, 3, true) - bytes).toBe(rowBytes);
    expect(bytes / rowBytes).toBeGreaterThan(1000 + 3);
  });

  it('puts no more pages in flight than the document has', async () => {
    // released at once when the test lets go
    const cache = new VlmEngineCache(undefined, 0);
    const user = {};
    const options = { modelDir: tiny, specK: 0, maxNewTokens: 8, device: 'cpu', calibrationDir: folder, pagesInFlight: 'auto' as const };
    const engine = await cache.engine(options, user);
    expect(engine.lanes).toBeGreaterThanOrEqual(1);
    expect(engine.lanes).toBeLessThanOrEqual(8);
    const two = await cache.engine({ ...options, documentPages: 2 });
    expect(two.lanes).toBe(Math.min(2, engine.lanes));
    const one = await cache.engine({ ...options, documentPages: 1 });
    expect(one.lanes).toBe(1);
    cache.letGo(user);
  });
});
