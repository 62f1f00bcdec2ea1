// What the app and `folio doctor` say about the device before a page: the devices that answer here,
// and for `auto` what it will measure or, once it measured the configured package, what it chose.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { saveCalibrations, type Calibration } from '../../core/model/device-calibrations.js';
import { readManifest } from '../../core/model/package-files.js';
import { runtimeVersion } from '../onnx/execution-provider.js';
import { autoOutlook, calibrationKey } from './device-calibration.js';
import { probeDevices } from './device-probe.js';

const tiny = path.resolve(import.meta.dirname, '../../../tools/model/fixtures/tiny');
let calibrationDir: string;
beforeAll(async () => {
  calibrationDir = await mkdtemp(path.join(tmpdir(), 'folio-probe-'));
});
afterAll(async () => {
  await rm(calibrationDir, { recursive: true, force: true });
});

/** A device measured: its plain step, and a typical page of which decoding is `plainMs` a token and vision `visionMs`. */
const measured = (device: string, plainMs: number, visionMs = 100): Calibration => ({
  package: 'tiny', device, stepMs: [plainMs, null, null, null], catchUpMsPerRow: null, prefillMs: 5, totalMs: 40,
  page: { tokens: 1000, promptRows: 949, tiles: 6, visionMs, prefillMs: 50, decodeMs: plainMs * 1000, complete: true, totalMs: 400 },
  measuredAt: '2026-12-01T22:00:00.000Z',
});

describe('what auto will do, before a page', () => {
  it('says which devices it will measure when none was measured, and never names a fixed choice', () => {
    expect(autoOutlook(['webgpu', 'cpu'], ['cuda:0: CUDA libraries not installed'], new Map())).toEqual({
      device: 'auto',
      reason: 'auto measures a typical page on each of webgpu, cpu the first time a package opens and keeps the quickest (not available: cuda:0: CUDA libraries not installed)',
    });
  });

  it('names only the devices not yet measured, with what the others measured', () => {
    const { device, reason } = autoOutlook(['webgpu', 'cpu'], [], new Map([['cpu', measured('cpu', 12)]]));
    expect(device).toBe('auto');
    expect(reason).toBe('auto measures a typical page on each of webgpu the next time the package opens (kept: cpu 12.2 s a page (vision of 6 tiles and the view 100 ms, prefill of 949 rows 50 ms, 1000 tokens 12.0 s)) and keeps the quickest');
  });

  it('measures again a device kept from before pages were weighed (its steps only)', () => {
    const stepsOnly: Calibration = { ...measured('webgpu', 3), page: null };
    const { device, reason } = autoOutlook(['webgpu', 'cpu'], [], new Map([['webgpu', stepsOnly], ['cpu', measured('cpu', 12)]]));
    expect(device).toBe('auto');
    expect(reason).toMatch(/^auto measures a typical page on each of webgpu the next time/);
  });

  it('names the device it chose once every device that answers was measured', () => {
    const kept = new Map([['webgpu', measured('webgpu', 30)], ['cpu', measured('cpu', 12)]]);
    expect(autoOutlook(['webgpu', 'cpu'], [], kept)).toEqual({
      device: 'cpu',
      reason: 'auto chose cpu: 12.2 s a page (vision of 6 tiles and the view 100 ms, prefill of 949 rows 50 ms, 1000 tokens 12.0 s) against webgpu 30.1 s a page (vision of 6 tiles and the view 100 ms, prefill of 949 rows 50 ms, 1000 tokens 30.0 s) (measured 2026-12-01, kept)',
    });
  });

  it('names the only device that answered, with why the others are missing', () => {
    expect(autoOutlook(['cpu'], ['webgpu: no adapter'], new Map())).toEqual({ device: 'cpu', reason: 'auto: cpu, the only device that answered (not available: webgpu: no adapter)' });
  });
});

describe('the device probe on this machine', () => {
  it('answers with the devices here and, for auto and the tiny package, what it kept or will measure', async () => {
    const before = await probeDevices({ modelDir: tiny, calibrationDir });
    expect(before.available.at(-1)).toBe('cpu');
    if (before.available.length > 1) expect(before).toMatchObject({ device: 'auto', reason: expect.stringMatching(/^auto measures a typical page on each of .*cpu the first time/) });
    else expect(before.device).toBe('cpu');
    const manifest = await readManifest(tiny);
    // the CPU measured slowest, so the choice is not the CPU's being last on the list
    const kept = new Map(before.available.map((device, i) => [calibrationKey(manifest, device, runtimeVersion()), measured(device, device === 'cpu' ? 50 : 10 + i)]));
    await saveCalibrations(calibrationDir, kept);
    const after = await probeDevices({ modelDir: tiny, calibrationDir });
    expect(after.device).toBe(before.available[0]);
    if (before.available.length > 1) expect(after.reason).toMatch(new RegExp(`^auto chose ${before.available[0]}: 10\\.2 s a page .* against .*cpu 50\\.1 s a page .*\\(measured 2026-12-01, kept\\)`));
  });

  it('starts a named device, and says why one does not start', async () => {
    expect(await probeDevices({ device: 'cpu' })).toMatchObject({ device: 'cpu', reason: 'the CPU was asked for' });
    const absent = await probeDevices({ device: 'cuda:9' });
    expect(absent.device).toBe('unavailable');
    expect(absent.reason).toMatch(/device cuda:9: /);
  });
});
