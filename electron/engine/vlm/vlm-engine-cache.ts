/**
 * VLM engines by model package and settings. Opening a package (hashing graphs, creating sessions)
 * is the slow part, so each folder is opened once per engine host and every page reuses it while a
 * document uses it. Its sessions (gigabytes for a real model) are released once no open document
 * uses it: after a grace period, since the app closes a document after each conversion and a re-run
 * of a page soon after should not reopen the package; at once when another package is opened.
 */

import os from 'node:os';
import { MAX_SPEC_K } from '../../../shared/conversion-defaults.js';
import { parseDeviceRequest } from '../../../shared/device.js';
import type { VlmOptions } from '../../../shared/protocol.js';
import { FailureError } from '../../core/failure-error.js';
import { packageBytes } from '../../core/model/package-files.js';
import { availableDevices } from '../onnx/execution-provider.js';
import { knownStepCosts, openByMeasurement } from './device-calibration.js';
import { openModelPackage, type ModelPackage } from './model-package.js';
import type { ResolutionMode } from '../../core/model/manifest.js';
import { ModelRunner } from './model-runner.js';
import { knownPackedPassCosts, pageCacheBytes, whyPagesCannotPack } from './packed-pass-costs.js';
import { resolutionMode } from './page-input.js';
import { choosePagesInFlight, oneAtATime, type InFlightChoice, type PackedPassCost } from './pages-in-flight-choice.js';
import { VlmEngine, type VlmSettings } from './vlm-engine.js';

/** How long a package no document uses keeps its sessions. */
export const IDLE_RELEASE_MS = 120_000;

/** Opens a package, telling `progress` what it does as that changes; tests pass a counting one. */
export type OpenPackage = (dir: string, device: string, calibrationDir: string | undefined, progress: (detail: string) => void) => Promise<ModelPackage>;

/** Told what the engine does to get ready before its first page, and the bytes on disk it loads (shared/page-event.ts `engine-preparing`). */
export type PreparationListener = (detail: string, bytes: number) => void;

interface OpenedPackage {
  opening: Promise<ModelPackage>;
  progress: OpeningProgress;
  engines: Map<string, Promise<VlmEngine>>;
  /** The documents (their sessions) that used it and are still open. */
  users: Set<object>;
  /**
   * `--pages-in-flight auto`'s measurement of packed passes on the package's device, once asked for,
   * with the memory free then: taken once, so that every document's choice (and engine) is the same
   * but for its pages. A failed measurement says why in its place.
   */
  packedCosts?: Promise<{ costs: PackedPassCost[]; measured: string; freeBytes: number } | { failed: string }>;
  idleTimer?: ReturnType<typeof setTimeout>;
}

export class VlmEngineCache {
  private readonly packages = new Map<string, OpenedPackage>();

  constructor(
    private readonly openPackage: OpenPackage = openWithDevice,
    private readonly idleReleaseMs = IDLE_RELEASE_MS,
  ) {}

  /**
   * The engine for these options; `user` (an open document) holds the package until it lets go.
   * `preparing` hears what is under way while the package opens (or its steps are measured), and
   * nothing once the engine is there.
   */
  async engine(options: VlmOptions, user?: object, preparing?: PreparationListener): Promise<VlmEngine> {
    const opened = this.open(options.modelDir, options.device ?? 'auto', options.calibrationDir);
    if (user) {
      opened.users.add(user);
      clearTimeout(opened.idleTimer);
    }
    if (preparing) opened.progress.watch(preparing);
    const pkg = await opened.opening;
    const mode = options.mode ?? pkg.manifest.vision.resolution_modes[0]?.name ?? '';
    const inFlight = options.pagesInFlight === 'auto' ? await this.autoPagesInFlight(opened, pkg, options, mode, preparing) : { pages: options.pagesInFlight ?? 1, reason: undefined };
    const settings: VlmSettings = {
      mode,
      specK: options.specK,
      maxNewTokens: options.maxNewTokens,
      pagesInFlight: inFlight.pages,
      ...(inFlight.reason !== undefined && { pagesInFlightReason: inFlight.reason }),
    };
    const key = JSON.stringify([settings.mode, settings.specK, settings.maxNewTokens, settings.pagesInFlight, settings.pagesInFlightReason]);
    let engine = opened.engines.get(key);
    if (!engine) {
      // `--spec-k auto` starts from what a step costs on this device, so it probes only what can pay
      const measured = settings.specK === 'auto' && pkg.sessions.has('mtp') && !pkg.stepCosts;
      if (measured) preparing?.(`measuring the decoding steps on ${pkg.provider.device}`, opened.progress.bytes);
      engine = (measured ? knownStepCosts(pkg, options.calibrationDir).then((stepCosts) => ({ ...pkg, stepCosts })) : Promise.resolve(pkg)).then((ready) => createEngine(ready, settings));
      opened.engines.set(key, engine);
    }
    return engine;
  }

  /**
   * `--pages-in-flight auto`: packed passes measured once per package and device (kept in the
   * app-data folder), then as many pages as still pay, fit half the free memory and the document has.
   */
  private async autoPagesInFlight(opened: OpenedPackage, pkg: ModelPackage, options: VlmOptions, modeName: string, preparing?: PreparationListener): Promise<InFlightChoice> {
    const runner = new ModelRunner(pkg);
    if (!runner.packs) return oneAtATime(whyPagesCannotPack(runner, pkg));
    if (!opened.packedCosts) {
      preparing?.(`measuring decoder passes of several pages on ${pkg.provider.device}`, opened.progress.bytes);
      opened.packedCosts = knownPackedPassCosts(pkg, options.calibrationDir).then(
        (known) => ({ ...known, freeBytes: os.freemem() }),
        (error: unknown) => ({ failed: (error as Error).message.split('\n')[0] ?? '' }),
      );
    }
    const known = await opened.packedCosts;
    if ('failed' in known) return oneAtATime(`timing packed passes failed (${known.failed})`);
    let mode: ResolutionMode;
    try {
      mode = resolutionMode(pkg.manifest, modeName);
    } catch {
      // createEngine reports the unknown mode
      return oneAtATime(`no resolution mode ${modeName}`);
    }
    const maxK = typeof options.specK === 'number' ? options.specK : runner.hasMtp ? MAX_SPEC_K : 0;
    const bytesPerPage = pageCacheBytes(pkg.manifest, mode, options.maxNewTokens, maxK, runner.hasMtp);
    return choosePagesInFlight(known.costs, { bytesPerPage, freeBytes: known.freeBytes, documentPages: options.documentPages }, known.measured);
  }

  /** The document closed: each package no open document uses any more is released after the grace period. */
  letGo(user: object): void {
    for (const [key, opened] of this.packages) {
      if (!opened.users.delete(user) || opened.users.size > 0) continue;
      clearTimeout(opened.idleTimer);
      opened.idleTimer = setTimeout(() => this.release(key), this.idleReleaseMs);
      // an idle package must not keep the engine host alive
      opened.idleTimer.unref?.();
    }
  }

  /** A package that failed to open stays failed: every page gets the loader's message without retrying. */
  private open(dir: string, device: string, calibrationDir: string | undefined): OpenedPackage {
    const key = JSON.stringify([dir, device]);
    const known = this.packages.get(key);
    if (known) return known;
    // one idle package at a time: a model switched in the settings frees the last one's memory now
    for (const [otherKey, other] of this.packages) if (other.users.size === 0 && other.idleTimer) this.release(otherKey);
    const progress = new OpeningProgress();
    const opening = packageBytes(dir)
      .then((bytes) => {
        progress.begin(bytes);
        return this.openPackage(dir, device, calibrationDir, (detail) => progress.tell(detail));
      })
      .catch((error: unknown) => {
        // a failure that already says what to do (another device) keeps its remedy
        throw error instanceof FailureError ? error : new FailureError('model-package', (error as Error).message);
      })
      .finally(() => progress.end());
    const opened: OpenedPackage = { opening, progress, engines: new Map(), users: new Set() };
    this.packages.set(key, opened);
    return opened;
  }

  private release(key: string): void {
    const opened = this.packages.get(key);
    if (!opened || opened.users.size > 0) return;
    clearTimeout(opened.idleTimer);
    this.packages.delete(key);
    // nothing waits for a release; a session that fails to let go has nothing more to report
    void opened.opening.then((pkg) => pkg.release()).catch(() => undefined);
  }
}

/**
 * What an opening package does now, told to every page that waits for it: from when its size is
 * known until it is open (or failed), never after.
 */
class OpeningProgress {
  bytes = 0;
  private detail: string | undefined;
  private ended = false;
  private readonly listeners = new Set<PreparationListener>();

  watch(listener: PreparationListener): void {
    if (this.ended) return;
    this.listeners.add(listener);
    if (this.detail !== undefined) listener(this.detail, this.bytes);
  }

  begin(bytes: number): void {
    this.bytes = bytes;
    this.tell('opening the model');
  }

  tell(detail: string): void {
    if (this.ended) return;
    this.detail = detail;
    for (const listener of this.listeners) listener(detail, this.bytes);
  }

  end(): void {
    this.ended = true;
    this.listeners.clear();
  }
}

/** A named device is opened as asked; `auto` measures the devices that answer (device-calibration.ts). */
function openWithDevice(dir: string, device: string, calibrationDir: string | undefined, progress: (detail: string) => void): Promise<ModelPackage> {
  const request = parseDeviceRequest(device) ?? { kind: 'auto' };
  if (request.kind !== 'auto') return openModelPackage(dir, { device: request });
  return openByMeasurement(dir, {
    calibrationDir,
    progress,
    devices: () => availableDevices(request.deviceId ?? 0),
    open: (folder, named, verified, stepGraphsOnly) => openModelPackage(folder, { device: named, skipChecksums: verified, stepGraphsOnly }),
  });
}

function createEngine(pkg: ModelPackage, settings: VlmSettings): VlmEngine {
  try {
    resolutionMode(pkg.manifest, settings.mode);
    return new VlmEngine(pkg, settings);
  } catch (error) {
    if (error instanceof FailureError) throw error;
    throw new FailureError('model-package', `${pkg.dir}: ${(error as Error).message.replace(`${pkg.dir}: `, '')}.`);
  }
}
