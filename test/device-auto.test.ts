// `--device auto` by measurement on the tiny package: each device that answers (here WebGPU on
// Mesa's lavapipe, and the CPU) decodes a few steps, the cheapest plain step wins, the reason says
// what was compared, and the measurements are kept in the calibration folder so the next open
// measures nothing; a device not seen before (another key) is measured then.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { CALIBRATION_FILE } from '../electron/core/model/device-calibrations.js';
import { afterAll, describe, expect, it } from 'vitest';
import { availableDevices, runtimeVersion } from '../electron/engine/onnx/execution-provider.js';
import {
  calibrationKey, knownStepCosts, openByMeasurement, type AutoOpenOptions,
} from '../electron/engine/vlm/device-calibration.js';
import { openModelPackage, type ModelPackage } from '../electron/engine/vlm/model-package.js';
import { readManifest } from '../electron/core/model/package-files.js';
import { DEFAULT_STEP_COST_PLAN, measureStepCosts, type StepCosts } from '../electron/engine/vlm/step-costs.js';
import { needs, WEBGPU } from './environment.js';
import { webgpuTestProblem } from './webgpu-on-lavapipe.js';

const problem = await webgpuTestProblem();
const tiny = path.resolve(import.meta.dirname, '../tools/model/fixtures/tiny');

/** Opens on the named device, counting measurements; every package it opens is released after the test. */
function counting(calibrationDir: string) {
  const opened: ModelPackage[] = [];
  const measured: string[] = [];
  /** The vision graphs each measured package held: none, a loser never pays for them. */
  const visionWhileMeasured: string[][] = [];
  const options: AutoOpenOptions = {
    calibrationDir,
    open: async (dir, device, verified, stepGraphsOnly) => {
      const pkg = await openModelPackage(dir, { device, skipChecksums: verified, stepGraphsOnly, threads: 1 });
      opened.push(pkg);
      return pkg;
    },
    measure: async (pkg, slowerThanMs): Promise<StepCosts> => {
      measured.push(pkg.provider.device);
      visionWhileMeasured.push([...pkg.sessions.keys()].filter((graph) => graph.startsWith('vision_')));
      const costs = await measureStepCosts(pkg, DEFAULT_STEP_COST_PLAN, slowerThanMs);
      console.log(`${pkg.provider.device}: ${costs.stepMs.map((ms) => ms.toFixed(2)).join(', ')} ms a step by K; prefill ${costs.prefillMs.toFixed(0)} ms; whole measurement ${costs.totalMs.toFixed(0)} ms`);
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

describe('auto on WebGPU and the CPU', needs(WEBGPU, problem), () => {
  const calibrationDir = mkdtempSync(path.join(tmpdir(), 'folio-calibration-'));

  it('measures each device that answers, opens the package on the fastest and says why', async () => {
    const first = counting(calibrationDir);
    const pkg = await openByMeasurement(tiny, first.options);
    released.push(pkg);
    // the CPU first, the yardstick
    expect(first.measured).toEqual(['cpu', 'webgpu']);
    const reason = pkg.provider.reason;
    console.log(reason);
    const match = /^auto chose (webgpu|cpu): ([\d.]+) ms a step against (webgpu|cpu) ([\d.]+) ms \(measured now in [\d.]+ m?s\)/.exec(reason);
    expect(match, reason).not.toBeNull();
    expect(pkg.provider.device).toBe(match?.[1]);
    expect(Number(match?.[2])).toBeLessThanOrEqual(Number(match?.[4]));
    // the loser's sessions were released, the winner's kept
    const loser = first.opened.find((opened) => opened.provider.device !== pkg.provider.device);
    await expect(loser?.sessions.size).toBe(0);
    expect(pkg.sessions.size).toBeGreaterThan(0);
    // each device was measured with the step graphs only; the winner opened its vision graphs after
    expect(first.visionWhileMeasured).toEqual([[], []]);
    expect([...pkg.sessions.keys()].filter((graph) => graph.startsWith('vision_'))).toEqual(Object.keys((await readManifest(tiny)).graphs).filter((graph) => graph.startsWith('vision_')));

    const kept = JSON.parse(readFileSync(path.join(calibrationDir, CALIBRATION_FILE), 'utf8')) as Record<string, { device: string; stepMs: (number | null)[] }>;
    expect(Object.values(kept).map((entry) => entry.device).sort()).toEqual(['cpu', 'webgpu']);
    const [cpu, webgpu] = ['cpu', 'webgpu'].map((device) => Object.values(kept).find((entry) => entry.device === device));
    expect(cpu?.stepMs[3]).toBeGreaterThan(0);
    // a device slower than the CPU in plain steps is not measured drafting: only the chosen one's drafting costs count
    if ((webgpu?.stepMs[0] ?? 0) > (cpu?.stepMs[0] ?? 0)) expect(webgpu?.stepMs.slice(1).every((ms) => ms === null)).toBe(true);
    else expect(webgpu?.stepMs[3]).toBeGreaterThan(0);
    expect(pkg.stepCosts?.stepMs[0]).toBe(Object.values(kept).find((entry) => entry.device === pkg.provider.device)?.stepMs[0]);
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
    expect(pkg.provider.reason).toMatch(/cpu-twin:? [\d.]+ ms/);
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
