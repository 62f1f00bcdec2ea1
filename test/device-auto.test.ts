// `--device auto` by measurement on the tiny package: each device that answers (here WebGPU on
// Mesa's lavapipe, and the CPU) measures a typical page's vision, prefill and decoding, the quickest
// page wins, the reason says what was compared, and the measurements are kept in the calibration
// folder so the next open measures nothing; a device not seen before (another key) is measured then.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { CALIBRATION_FILE, pageMs, type Calibration } from '../electron/core/model/device-calibrations.js';
import { afterAll, describe, expect, it } from 'vitest';
import { availableDevices, runtimeVersion } from '../electron/engine/onnx/execution-provider.js';
import {
  calibrationKey, knownStepCosts, openByMeasurement, type AutoOpenOptions,
} from '../electron/engine/vlm/device-calibration.js';
import { openModelPackage, type ModelPackage } from '../electron/engine/vlm/model-package.js';
import { readManifest } from '../electron/core/model/package-files.js';
import { measureDevice, msPerToken, typicalPage, TYPICAL_PAGE_TOKENS, type DeviceCosts } from '../electron/engine/vlm/page-costs.js';
import { loadTokenizer } from '../electron/engine/vlm/prompt.js';
import { measureStepCosts } from '../electron/engine/vlm/step-costs.js';
import { needs, WEBGPU } from './environment.js';
import { webgpuTestProblem } from './webgpu-on-lavapipe.js';

const problem = await webgpuTestProblem();
const tiny = path.resolve(import.meta.dirname, '../tools/model/fixtures/tiny');

/** Opens on the named device, counting measurements; every package it opens is released after the test. */
function counting(calibrationDir: string) {
  const opened: ModelPackage[] = [];
  const measured: string[] = [];
  /** The vision graphs each measured package held as its measurement began: none, a device that loses early never opens them. */
  const visionWhileMeasured: string[][] = [];
  const options: AutoOpenOptions = {
    calibrationDir,
    open: async (dir, device, verified, stepGraphsOnly) => {
      const pkg = await openModelPackage(dir, { device, skipChecksums: verified, stepGraphsOnly, threads: 1 });
      opened.push(pkg);
      return pkg;
    },
    measure: async (pkg, quickestPageMs): Promise<DeviceCosts> => {
      measured.push(pkg.provider.device);
      visionWhileMeasured.push([...pkg.sessions.keys()].filter((graph) => graph.startsWith('vision_')));
      const costs = await measureDevice(pkg, quickestPageMs);
      const { page } = costs;
      console.log(`${pkg.provider.device}: ${costs.steps.stepMs.map((ms) => ms.toFixed(2)).join(', ')} ms a step by K; a page: vision ${page.visionMs.toFixed(1)} ms, prefill ${page.prefillMs.toFixed(1)} ms, ${page.tokens} tokens ${page.decodeMs.toFixed(0)} ms${page.complete ? '' : ' (cut short)'}; whole measurement ${page.totalMs.toFixed(0)} ms`);
      return costs;
    },
  };
  return { options, opened, measured, visionWhileMeasured };
}

const released: ModelPackage[] = [];
afterAll(async () => {
  await Promise.all(released.map((pkg) => pkg.release()));
});

describe('step costs', () => {
  it('measures a plain step and a step drafting three on the tiny package', async () => {
    const pkg = await openModelPackage(tiny, { device: { kind: 'cpu' }, threads: 1 });
    released.push(pkg);
    const costs = await measureStepCosts(pkg);
    expect(costs.stepMs).toHaveLength(4);
    expect(costs.stepMs[0]).toBeGreaterThan(0);
    expect(costs.stepMs[3]).toBeGreaterThan(0);
    expect(costs.stepMs.slice(1, 3).every(Number.isNaN)).toBe(true);
    // the first drafting step fed the head the prompt and the plain steps' rows
    expect(costs.catchUpMsPerRow).toBeGreaterThan(0);
  });
});

describe('a typical page on the CPU', () => {
  it('measures its vision, prefill and decoding with auto, keeps them and says them', async () => {
    const calibrationDir = mkdtempSync(path.join(tmpdir(), 'folio-calibration-'));
    const run = counting(calibrationDir);
    // two entries for the CPU: two devices answer, so auto measures (one alone is opened unmeasured)
    const pkg = await openByMeasurement(tiny, { ...run.options, devices: async () => ({ devices: [{ request: { kind: 'cpu' }, device: 'cpu' }, { request: { kind: 'cpu' }, device: 'cpu-twin' }], missing: [] }) });
    released.push(pkg);
    expect(run.measured).toEqual(['cpu', 'cpu']);
    const kept = Object.values(JSON.parse(readFileSync(path.join(calibrationDir, CALIBRATION_FILE), 'utf8')) as Record<string, Calibration>);
    const cpu = kept.find((entry) => entry.device === 'cpu');
    const manifest = await readManifest(tiny);
    const page = typicalPage(manifest, loadTokenizer(pkg.tokenizerJson));
    // an A4 page in the tiny package's gundam mode (256 px view, 128 px tiles): 2 x 3 tiles
    expect(page.grid).toEqual([2, 3]);
    expect(cpu?.page).toMatchObject({ tokens: TYPICAL_PAGE_TOKENS, promptRows: page.promptRows, tiles: 6, complete: true });
    expect(cpu?.page?.visionMs).toBeGreaterThan(0);
    expect(cpu?.page?.prefillMs).toBeGreaterThan(0);
    expect(cpu?.page?.decodeMs).toBeGreaterThan(0);
    // decoding is the steps' cost over the page's tokens, plain or drafting 3 at the port's acceptance
    // (the steps are kept to 0.01 ms: 5 ms over 1,000 tokens)
    const decodeMs = msPerToken(cpu?.stepMs ?? []) * TYPICAL_PAGE_TOKENS;
    expect(Math.abs((cpu?.page?.decodeMs ?? 0) - decodeMs)).toBeLessThanOrEqual(0.005 * TYPICAL_PAGE_TOKENS + 0.01);
    // the twin ran on the same CPU: measured whole, or cut short once it summed past the CPU's page
    const twin = kept.find((entry) => entry.device === 'cpu-twin');
    const msOf = (entry: Calibration | undefined) => (entry?.page ? pageMs(entry.page) : Number.NaN);
    if (!twin?.page?.complete) expect(msOf(twin)).toBeGreaterThan(msOf(cpu));
    const reason = pkg.provider.reason;
    console.log(reason);
    expect(reason).toMatch(/^auto chose cpu(-twin)?: [\d.]+ m?s a page \(vision of 6 tiles and the view [\d.]+ m?s, prefill of \d+ rows [\d.]+ m?s, 1000 tokens [\d.]+ m?s\) against cpu/);
    // the chosen device's step costs are what --spec-k auto starts from (both entries open as the CPU: the reason names which won)
    const chosen = /^auto chose (cpu(?:-twin)?):/.exec(reason)?.[1];
    expect(pkg.stepCosts?.stepMs[0]).toBe(kept.find((entry) => entry.device === chosen)?.stepMs[0]);
  });
});

describe('auto on WebGPU and the CPU', needs(WEBGPU, problem), () => {
  const calibrationDir = mkdtempSync(path.join(tmpdir(), 'folio-calibration-'));

  it('measures a page on each device that answers, opens the package on the quickest and says why', async () => {
    const first = counting(calibrationDir);
    const pkg = await openByMeasurement(tiny, first.options);
    released.push(pkg);
    // the CPU first, the yardstick
    expect(first.measured).toEqual(['cpu', 'webgpu']);
    const reason = pkg.provider.reason;
    console.log(reason);
    const match = /^auto chose (webgpu|cpu): .* against (webgpu|cpu) .*\(measured now in [\d.]+ m?s\)/.exec(reason);
    expect(match, reason).not.toBeNull();
    expect(pkg.provider.device).toBe(match?.[1]);
    // the loser's sessions were released, the winner's kept
    const loser = first.opened.find((opened) => opened.provider.device !== pkg.provider.device);
    await expect(loser?.sessions.size).toBe(0);
    expect(pkg.sessions.size).toBeGreaterThan(0);
    // each device's measurement began with the step graphs only; the winner holds its vision graphs
    expect(first.visionWhileMeasured).toEqual([[], []]);
    expect([...pkg.sessions.keys()].filter((graph) => graph.startsWith('vision_'))).toEqual(Object.keys((await readManifest(tiny)).graphs).filter((graph) => graph.startsWith('vision_')));

    const kept = JSON.parse(readFileSync(path.join(calibrationDir, CALIBRATION_FILE), 'utf8')) as Record<string, Calibration>;
    expect(Object.values(kept).map((entry) => entry.device).sort()).toEqual(['cpu', 'webgpu']);
    const [cpu, webgpu] = ['cpu', 'webgpu'].map((device) => Object.values(kept).find((entry) => entry.device === device));
    expect(cpu?.stepMs[3]).toBeGreaterThan(0);
    expect(cpu?.page?.complete).toBe(true);
    // the chosen device's page is the quickest; a device cut short had already summed past it
    const chosen = pkg.provider.device === 'cpu' ? cpu : webgpu;
    const other = pkg.provider.device === 'cpu' ? webgpu : cpu;
    expect(chosen?.page?.complete).toBe(true);
    const msOf = (entry: Calibration | undefined) => (entry?.page ? pageMs(entry.page) : Number.NaN);
    expect(msOf(chosen)).toBeLessThanOrEqual(msOf(other));
    expect(pkg.stepCosts?.stepMs[0]).toBe(Object.values(kept).find((entry) => entry.device === pkg.provider.device)?.stepMs[0]);
  });

  it('measures every part of a page on WebGPU when no device measured before was quicker', async () => {
    const pkg = await openModelPackage(tiny, { device: { kind: 'webgpu' }, stepGraphsOnly: true });
    released.push(pkg);
    const { steps, page } = await measureDevice(pkg);
    console.log(`webgpu alone: ${steps.stepMs[0]?.toFixed(2)} ms a step; vision ${page.visionMs.toFixed(1)} ms (the tiles in one pass), prefill ${page.prefillMs.toFixed(1)} ms, ${page.tokens} tokens ${page.decodeMs.toFixed(0)} ms; ${page.totalMs.toFixed(0)} ms in all`);
    expect(page).toMatchObject({ complete: true, tiles: 6 });
    expect(page.visionMs).toBeGreaterThan(0);
    expect(page.prefillMs).toBeGreaterThan(0);
    expect(page.decodeMs).toBeGreaterThan(0);
    // its vision graphs were opened for the measurement, on the device
    expect([...pkg.sessions.keys()].filter((graph) => graph.startsWith('vision_')).sort()).toEqual(['vision_128', 'vision_256']);
  });

  it('re-uses what it measured: the next open measures nothing and says so', async () => {
    const second = counting(calibrationDir);
    const pkg = await openByMeasurement(tiny, second.options);
    released.push(pkg);
    expect(second.measured).toEqual([]);
    expect(second.opened).toHaveLength(1);
    expect(pkg.provider.reason).toMatch(/^auto chose (webgpu|cpu): .* \(measured \d{4}-\d\d-\d\d, kept\)/);
  });

  it('measures a device it has not seen on this package: the key is package, device, runtime and machine', async () => {
    const manifest = await readManifest(tiny);
    const key = calibrationKey(manifest, 'cpu', runtimeVersion());
    expect(calibrationKey(manifest, 'webgpu', runtimeVersion())).not.toBe(key);
    expect(calibrationKey(manifest, 'cpu', '0.0.0')).not.toBe(key);
    expect(calibrationKey(manifest, 'cpu', runtimeVersion(), 'another machine')).not.toBe(key);
    expect(calibrationKey({ ...manifest, name: 'another package' }, 'cpu', runtimeVersion())).not.toBe(key);

    const fresh = counting(calibrationDir);
    const { devices, missing } = await availableDevices();
    // a device first seen now (as when a GPU driver is installed): only it is measured
    const pkg = await openByMeasurement(tiny, { ...fresh.options, devices: async () => ({ devices: [...devices, { request: { kind: 'cpu' }, device: 'cpu-twin' }], missing }) });
    released.push(pkg);
    expect(fresh.measured).toEqual(['cpu']);
    expect(pkg.provider.reason).toMatch(/cpu-twin:? (over )?[\d.]+ m?s a page/);
  });

  it('gives --spec-k auto the kept step costs of a named device without measuring again', async () => {
    const pkg = await openModelPackage(tiny, { device: { kind: 'cpu' }, skipChecksums: true, threads: 1 });
    released.push(pkg);
    let measured = 0;
    const costs = await knownStepCosts(pkg, calibrationDir, async (opened) => {
      measured++;
      return measureStepCosts(opened);
    });
    expect(measured).toBe(0);
    expect(costs.stepMs[0]).toBeGreaterThan(0);
    expect(costs.catchUpMsPerRow).toBeGreaterThan(0);
  });
});
