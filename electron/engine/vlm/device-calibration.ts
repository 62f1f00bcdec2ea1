/**
 * `--device auto` by measurement: every device that answers here (a WebGPU adapter, the CUDA
 * provider, the CPU) runs a few decoding steps of the package (step-costs.ts), and the fastest plain
 * step wins. What a device measured is kept in the app-data folder, keyed by the package (its
 * manifest, which holds every file's sha256), the device, the ONNX Runtime version and the machine's
 * CPU, so the next open measures only devices it has not seen: a GPU driver installed later is
 * measured then, and an updated ONNX Runtime or package measures everything again.
 */

import { createHash } from 'node:crypto';
import os from 'node:os';
import type { NamedDeviceRequest } from '../../../shared/device.js';
import { availableDevices, runtimeVersion, type AvailableDevice } from '../onnx/execution-provider.js';
import type { DraftPrior } from './draft-length.js';
import type { Manifest } from '../../core/model/manifest.js';
import type { ModelPackage } from './model-package.js';
import { readManifest } from '../../core/model/package-files.js';
import { readCalibrations, saveCalibrations, type Calibration } from '../../core/model/device-calibrations.js';
import { DEFAULT_STEP_COST_PLAN, measureStepCosts, type StepCosts } from './step-costs.js';

/** The key of one device's measurement of one package on this machine. */
export function calibrationKey(manifest: Manifest, device: string, runtimeVersion: string, machine = machineName()): string {
  return createHash('sha256').update(JSON.stringify([manifest, device, runtimeVersion, machine])).digest('hex');
}

function machineName(): string {
  const cpus = os.cpus();
  return `${process.platform}-${process.arch} ${cpus[0]?.model ?? 'unknown CPU'} x${cpus.length}`;
}

/** What `--spec-k auto` starts from: per K, ms per step (NaN where not measured), and the draft head's catch-up. */
export function priorOf(calibration: Calibration): DraftPrior {
  return { stepMs: calibration.stepMs.map((ms) => ms ?? Number.NaN), catchUpMsPerRow: calibration.catchUpMsPerRow ?? Number.NaN };
}

export function calibrationOf(manifest: Manifest, device: string, costs: StepCosts, now = new Date()): Calibration {
  return {
    package: manifest.name,
    device,
    stepMs: costs.stepMs.map((ms) => (Number.isNaN(ms) ? null : Math.round(ms * 100) / 100)),
    catchUpMsPerRow: Number.isNaN(costs.catchUpMsPerRow) ? null : Math.round(costs.catchUpMsPerRow * 1000) / 1000,
    prefillMs: Math.round(costs.prefillMs),
    totalMs: Math.round(costs.totalMs),
    measuredAt: now.toISOString(),
  };
}

/** The calibration with the cheapest plain step; the earlier (WebGPU, CUDA, CPU) on a tie. */
export function fastest(calibrations: readonly Calibration[]): Calibration | undefined {
  return calibrations.reduce<Calibration | undefined>((best, next) => (!best || (next.stepMs[0] ?? Infinity) < (best.stepMs[0] ?? Infinity) ? next : best), undefined);
}

/** "auto chose webgpu: 23 ms a step against cpu 85 ms (measured now in 2.1 s)". */
export function autoReason(chosen: Calibration, others: readonly Calibration[], measuredNow: readonly Calibration[], missing: readonly string[]): string {
  const ms = (calibration: Calibration) => `${formatMs(calibration.stepMs[0] ?? Number.NaN)} ms`;
  const against = others.length ? ` against ${others.map((other) => `${other.device} ${ms(other)}`).join(', ')}` : ' (the only device that answered)';
  const spent = measuredNow.reduce((sum, calibration) => sum + calibration.totalMs, 0);
  const when = measuredNow.length
    ? `measured now in ${spent < 1000 ? `${spent} ms` : `${(spent / 1000).toFixed(1)} s`}`
    : `measured ${chosen.measuredAt.slice(0, 10)}, kept`;
  const absent = missing.length ? `; not tried: ${missing.join('; ')}` : '';
  return `auto chose ${chosen.device}: ${ms(chosen)} a step${against} (${when})${absent}`;
}

/**
 * What `auto` will do with the devices that answer, before a page, from what it kept of this package
 * (by device): the device it chose when every one is measured, else `auto` and which it will measure.
 */
export function autoOutlook(devices: readonly string[], missing: readonly string[], kept: ReadonlyMap<string, Calibration>): { device: string; reason: string } {
  const absent = missing.length ? ` (not available: ${missing.join('; ')})` : '';
  const only = devices.length === 1 ? devices[0] : undefined;
  if (only) return { device: only, reason: `auto: ${only}, the only device that answered${absent}` };
  const measured = devices.flatMap((device) => kept.get(device) ?? []);
  const chosen = measured.length === devices.length ? fastest(measured) : undefined;
  if (chosen) return { device: chosen.device, reason: autoReason(chosen, measured.filter((other) => other !== chosen), [], missing) };
  const unmeasured = devices.filter((device) => !kept.has(device));
  const known = measured.map((calibration) => `${calibration.device} ${formatMs(calibration.stepMs[0] ?? Number.NaN)} ms a step`);
  const when = known.length ? `the next time the package opens (kept: ${known.join(', ')})` : 'the first time a package opens';
  return { device: 'auto', reason: `auto measures each of ${unmeasured.join(', ')} ${when} and keeps the fastest${absent}` };
}

function formatMs(ms: number): string {
  return ms >= 10 ? ms.toFixed(0) : ms.toFixed(1);
}

/**
 * Per K, ms per step of an opened package on its device, for `--spec-k auto` where the device was
 * named: kept from an earlier measurement, else measured now (and kept when `calibrationDir` is given).
 */
export async function knownStepCosts(pkg: ModelPackage, calibrationDir: string | undefined, measure = measureStepCosts): Promise<DraftPrior> {
  if (pkg.stepCosts) return pkg.stepCosts;
  const key = calibrationKey(pkg.manifest, pkg.provider.device, pkg.provider.runtimeVersion);
  const kept = calibrationDir ? (await readCalibrations(calibrationDir)).get(key) : undefined;
  if (kept) return priorOf(kept);
  const calibration = calibrationOf(pkg.manifest, pkg.provider.device, await measure(pkg));
  if (calibrationDir) await saveCalibrations(calibrationDir, new Map([[key, calibration]]));
  return priorOf(calibration);
}

export interface AutoOpenOptions {
  /** Where measurements are kept (the app-data folder); undefined: measured on every open, kept nowhere. */
  calibrationDir?: string;
  /**
   * Opens the package on one device; `verified` once its files were hashed by an earlier open;
   * `stepGraphsOnly` to measure it (the vision graphs are opened on the chosen device only).
   */
  open(dir: string, device: NamedDeviceRequest, verified: boolean, stepGraphsOnly: boolean): Promise<ModelPackage>;
  /** The devices to consider; default: those that answer here. */
  devices?: () => Promise<{ devices: AvailableDevice[]; missing: string[] }>;
  /** Measures an opened package; `slowerThanMs`: the best plain step so far, past which drafting steps need not be measured. */
  measure?: (pkg: ModelPackage, slowerThanMs: number) => Promise<StepCosts>;
  /** Told what the open does now ("opening the model (measuring webgpu, 2 of 2)"), for the pages that wait for it. */
  progress?: (detail: string) => void;
}

/**
 * Opens the package on the device with the cheapest decoding step, measuring the devices not yet
 * measured; the package comes back with its reason saying what was compared and its step costs.
 * A device is measured with the step graphs only; the vision encoder is opened on the winner.
 */
export async function openByMeasurement(dir: string, options: AutoOpenOptions): Promise<ModelPackage> {
  const answered = await (options.devices ?? availableDevices)();
  // the CPU first: a yardstick that is always there, so a slower device is cut short after its plain steps
  const devices = [...answered.devices].sort((a, b) => Number(b.request.kind === 'cpu') - Number(a.request.kind === 'cpu'));
  const missing = [...answered.missing];
  const only = devices.length === 1 ? devices[0] : undefined;
  if (only) {
    // nothing to compare: no measurement
    const pkg = await options.open(dir, only.request, false, false);
    return { ...pkg, provider: { ...pkg.provider, reason: `auto: ${only.device}, the only device that answered (${missing.join('; ')})` } };
  }
  const manifest = await readManifest(dir);
  const kept = options.calibrationDir ? await readCalibrations(options.calibrationDir) : new Map<string, Calibration>();
  const measure = options.measure ?? ((pkg: ModelPackage, slowerThanMs: number) => measureStepCosts(pkg, DEFAULT_STEP_COST_PLAN, slowerThanMs));
  const keyOf = (device: string) => calibrationKey(manifest, device, runtimeVersion());
  const calibrations: Calibration[] = [];
  const measuredNow = new Map<string, Calibration>();
  const unmeasured = devices.filter((candidate) => !kept.has(keyOf(candidate.device)));
  let open: ModelPackage | undefined;
  let verified = false;
  try {
    for (const candidate of devices) {
      const known = kept.get(keyOf(candidate.device));
      if (known) {
        calibrations.push(known);
        continue;
      }
      const count = unmeasured.length > 1 ? `, ${unmeasured.indexOf(candidate) + 1} of ${unmeasured.length}` : '';
      options.progress?.(`opening the model (measuring ${candidate.device}${count})`);
      let pkg: ModelPackage;
      let costs: StepCosts;
      try {
        pkg = await options.open(dir, candidate.request, verified, true);
      } catch (error) {
        // a device that cannot hold or run the package is passed over; the last one's error is the page's
        if (candidate === devices.at(-1) && !calibrations.length) throw error;
        missing.push(`${candidate.device}: ${(error as Error).message.split('\n')[0]}`);
        continue;
      }
      verified = true;
      try {
        costs = await measure(pkg, fastest(calibrations)?.stepMs[0] ?? Number.POSITIVE_INFINITY);
      } catch (error) {
        await pkg.release();
        if (candidate === devices.at(-1) && !calibrations.length) throw error;
        missing.push(`${candidate.device}: the measurement failed (${(error as Error).message.split('\n')[0]})`);
        continue;
      }
      const calibration = calibrationOf(manifest, candidate.device, costs);
      measuredNow.set(keyOf(candidate.device), calibration);
      calibrations.push(calibration);
      // keep open only the fastest so far: a real package's sessions take gigabytes
      if (fastest(calibrations) === calibration) {
        await open?.release();
        open = pkg;
      } else await pkg.release();
    }
    const chosen = fastest(calibrations);
    if (!chosen) throw new Error(`${dir}: no device to run the model on`);
    options.progress?.(`opening the model on ${chosen.device}`);
    if (open?.provider.device !== chosen.device) {
      await open?.release();
      open = undefined;
      const request = devices.find((candidate) => candidate.device === chosen.device)?.request ?? { kind: 'cpu' };
      open = await options.open(dir, request, verified, false);
    } else await open.openVision();
    if (options.calibrationDir && measuredNow.size) await saveCalibrations(options.calibrationDir, measuredNow);
    const others = calibrations.filter((calibration) => calibration !== chosen);
    const reason = autoReason(chosen, others, [...measuredNow.values()], missing);
    return { ...open, provider: { ...open.provider, reason }, stepCosts: priorOf(chosen) };
  } catch (error) {
    await open?.release();
    throw error;
  }
}
