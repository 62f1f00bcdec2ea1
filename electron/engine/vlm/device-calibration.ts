/**
 * `--device auto` by measurement: every device that answers here (a WebGPU adapter, the CUDA
 * provider, the CPU) measures what a typical page costs there in its three parts (page-costs.ts):
 * the vision encoder, the prefill of its prompt and decoding its text (from a few decoding steps,
 * step-costs.ts); the device with the quickest page wins. What a device measured is kept in the
 * app-data folder, keyed by the package (its manifest, which holds every file's sha256), the device,
 * the ONNX Runtime version and the machine's CPU, so the next open measures only devices it has not
 * seen: a GPU driver installed later is measured then, and an updated ONNX Runtime or package
 * measures everything again.
 */

import { createHash } from 'node:crypto';
import os from 'node:os';
import type { NamedDeviceRequest } from '../../../shared/device.js';
import { availableDevices, runtimeVersion, type AvailableDevice } from '../onnx/execution-provider.js';
import type { DraftPrior } from './draft-length.js';
import type { Manifest } from '../../core/model/manifest.js';
import type { ModelPackage } from './model-package.js';
import { readManifest } from '../../core/model/package-files.js';
import { formatDuration, pageMs, pageSummary, readCalibrations, saveCalibrations, type Calibration } from '../../core/model/device-calibrations.js';
import { measureDevice, type DeviceCosts } from './page-costs.js';
import { measureStepCosts, type StepCosts } from './step-costs.js';

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

/** A device's measurement to keep: its steps (what `--spec-k auto` starts from) and, measured for `auto`, a typical page's parts. */
export function calibrationOf(manifest: Manifest, device: string, costs: StepCosts | DeviceCosts, now = new Date()): Calibration {
  const steps = 'steps' in costs ? costs.steps : costs;
  const page = 'page' in costs ? costs.page : null;
  const round = (ms: number) => Math.round(ms * 100) / 100;
  return {
    package: manifest.name,
    device,
    stepMs: steps.stepMs.map((ms) => (Number.isNaN(ms) ? null : round(ms))),
    catchUpMsPerRow: Number.isNaN(steps.catchUpMsPerRow) ? null : Math.round(steps.catchUpMsPerRow * 1000) / 1000,
    prefillMs: Math.round(steps.prefillMs),
    totalMs: Math.round(page?.totalMs ?? steps.totalMs),
    page: page && { ...page, visionMs: round(page.visionMs), prefillMs: round(page.prefillMs), decodeMs: round(page.decodeMs), totalMs: Math.round(page.totalMs) },
    measuredAt: now.toISOString(),
  };
}

/**
 * The calibration with the quickest typical page (one whose measurement was cut short counts at
 * the parts it measured, which already summed past a quicker device's); the earlier on a tie.
 * Pure: `--device auto` decides by it alone.
 */
export function quickest(calibrations: readonly Calibration[]): Calibration | undefined {
  const ms = (calibration: Calibration) => (calibration.page ? pageMs(calibration.page) : Number.POSITIVE_INFINITY);
  return calibrations.reduce<Calibration | undefined>((best, next) => (!best || ms(next) < ms(best) ? next : best), undefined);
}

/** "auto chose webgpu: 3.4 s a page (vision ...) against cpu 12 s a page (...) (measured now in 2.1 s)". */
export function autoReason(chosen: Calibration, others: readonly Calibration[], measuredNow: readonly Calibration[], missing: readonly string[]): string {
  const against = others.length ? ` against ${others.map((other) => `${other.device} ${pageSummary(other)}`).join('; ')}` : ' (the only device that answered)';
  const spent = measuredNow.reduce((sum, calibration) => sum + calibration.totalMs, 0);
  const when = measuredNow.length ? `measured now in ${formatDuration(spent)}` : `measured ${chosen.measuredAt.slice(0, 10)}, kept`;
  const absent = missing.length ? `; not tried: ${missing.join('; ')}` : '';
  return `auto chose ${chosen.device}: ${pageSummary(chosen)}${against} (${when})${absent}`;
}

/**
 * What `auto` will do with the devices that answer, before a page, from what it kept of this package
 * (by device): the device it chose when every one is measured, else `auto` and which it will measure.
 */
export function autoOutlook(devices: readonly string[], missing: readonly string[], kept: ReadonlyMap<string, Calibration>): { device: string; reason: string } {
  const absent = missing.length ? ` (not available: ${missing.join('; ')})` : '';
  const only = devices.length === 1 ? devices[0] : undefined;
  if (only) return { device: only, reason: `auto: ${only}, the only device that answered${absent}` };
  const measured = devices.flatMap((device) => kept.get(device) ?? []).filter(weighed);
  const chosen = measured.length === devices.length ? quickest(measured) : undefined;
  if (chosen) return { device: chosen.device, reason: autoReason(chosen, measured.filter((other) => other !== chosen), [], missing) };
  const unmeasured = devices.filter((device) => !weighed(kept.get(device)));
  const known = measured.map((calibration) => `${calibration.device} ${pageSummary(calibration)}`);
  const when = known.length ? `the next time the package opens (kept: ${known.join('; ')})` : 'the first time a package opens';
  return { device: 'auto', reason: `auto measures a typical page on each of ${unmeasured.join(', ')} ${when} and keeps the quickest${absent}` };
}

/** A kept calibration that weighed a page; one kept before pages were weighed (steps only) is measured again. */
function weighed(calibration: Calibration | undefined): boolean {
  return Boolean(calibration?.page);
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
   * `stepGraphsOnly` to measure it (its vision graphs are opened only once its steps and prefill
   * leave it a chance to win, so a device that loses early never opens them).
   */
  open(dir: string, device: NamedDeviceRequest, verified: boolean, stepGraphsOnly: boolean): Promise<ModelPackage>;
  /** The devices to consider; default: those that answer here. */
  devices?: () => Promise<{ devices: AvailableDevice[]; missing: string[] }>;
  /** Measures an opened package (page-costs.ts `measureDevice`); `quickestPageMs`: the quickest page so far, past which the rest need not be measured. */
  measure?: (pkg: ModelPackage, quickestPageMs: number) => Promise<DeviceCosts>;
  /** Told what the open does now ("opening the model (measuring webgpu, 2 of 2)"), for the pages that wait for it. */
  progress?: (detail: string) => void;
}

/**
 * Opens the package on the device with the quickest typical page, measuring the devices not yet
 * measured; the package comes back with its reason saying what was compared and its step costs.
 */
export async function openByMeasurement(dir: string, options: AutoOpenOptions): Promise<ModelPackage> {
  const answered = await (options.devices ?? availableDevices)();
  // the CPU first: a yardstick that is always there, so a slower device is cut short once its parts sum past its page
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
  const measure = options.measure ?? measureDevice;
  const keyOf = (device: string) => calibrationKey(manifest, device, runtimeVersion());
  const calibrations: Calibration[] = [];
  const measuredNow = new Map<string, Calibration>();
  const unmeasured = devices.filter((candidate) => !weighed(kept.get(keyOf(candidate.device))));
  let open: ModelPackage | undefined;
  let verified = false;
  try {
    for (const candidate of devices) {
      const known = kept.get(keyOf(candidate.device));
      if (known && weighed(known)) {
        calibrations.push(known);
        continue;
      }
      const count = unmeasured.length > 1 ? `, ${unmeasured.indexOf(candidate) + 1} of ${unmeasured.length}` : '';
      options.progress?.(`opening the model (measuring ${candidate.device}${count})`);
      let pkg: ModelPackage;
      let costs: DeviceCosts;
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
        const best = quickest(calibrations)?.page;
        costs = await measure(pkg, best ? pageMs(best) : Number.POSITIVE_INFINITY);
      } catch (error) {
        await pkg.release();
        if (candidate === devices.at(-1) && !calibrations.length) throw error;
        missing.push(`${candidate.device}: the measurement failed (${(error as Error).message.split('\n')[0]})`);
        continue;
      }
      const calibration = calibrationOf(manifest, candidate.device, costs);
      measuredNow.set(keyOf(candidate.device), calibration);
      calibrations.push(calibration);
      // keep open only the quickest so far: a real package's sessions take gigabytes
      if (quickest(calibrations) === calibration) {
        await open?.release();
        open = pkg;
      } else await pkg.release();
    }
    const chosen = quickest(calibrations);
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
