/**
 * The app's side of "Get a model": one download at a time in this process (Electron main, or the
 * browser mode's bridge), its progress kept for the settings dialog to ask for, the licence the
 * user accepted checked against the one the download finds, cancel, and the packages installed.
 * Packages and unfinished downloads live where `folio model get` keeps them, so the app and the CLI
 * see, resume and remove each other's.
 */

import type { ModelDownloadState, ModelGetRequest, ModelLibraryState } from '../../shared/app-api.js';
import type { ModelPrecision, ModelSourceInfo } from '../../shared/model-library.js';
import { HubError } from '../core/hub/hub-error.js';
import type { HubSettings } from '../core/hub/hub-settings.js';
import { clearUnfinished, listInstalled, listUnfinished, removeInstalled } from '../core/model/installed-models.js';
import { inspectSource, installModel } from '../core/model/model-install.js';

/** Notes kept for the dialog (a file fetched again, a config field ignored): the last few. */
const NOTES_KEPT = 5;

export class ModelDownloads {
  private download: ModelDownloadState | null = null;
  private controller: AbortController | undefined;
  private running: Promise<void> = Promise.resolve();

  constructor(
    private readonly modelsDir: string,
    private readonly hub: HubSettings,
  ) {}

  async library(): Promise<ModelLibraryState> {
    return {
      installed: await listInstalled(this.modelsDir),
      // the download under way is shown as itself, not also as unfinished
      unfinished: (await listUnfinished(this.modelsDir)).filter((entry) => !(this.download?.state === 'running' && entry.id === this.download.id && entry.precision === this.download.precision)),
      download: this.download,
      modelsDir: this.modelsDir,
      hubCache: this.hub.cacheDir,
    };
  }

  inspect(source: string, precision: ModelPrecision): Promise<ModelSourceInfo> {
    return inspectSource({ source, precision, modelsDir: this.modelsDir, hub: this.hub });
  }

  /** Starts the download and resolves at once; the dialog follows it through `library()`. */
  async get(request: ModelGetRequest): Promise<void> {
    if (this.download?.state === 'running') throw new Error(`${this.download.id} is being downloaded; wait for it, or cancel it first.`);
    const controller = new AbortController();
    this.controller = controller;
    const state: ModelDownloadState = { id: request.source, source: request.source, precision: request.precision, state: 'running', progress: undefined, notes: [] };
    this.download = state;
    this.running = installModel({
      source: request.source,
      precision: request.precision,
      modelsDir: this.modelsDir,
      hub: this.hub,
      signal: controller.signal,
      onPlan: (info) => {
        state.id = info.id;
        // the user accepted the licence they were shown; a model card changed since then is asked about again
        if ((info.license ?? '') !== request.acceptedLicense) {
          controller.abort();
          state.message = `the licence of ${info.id} is now ${info.license ?? 'not named'}, not the ${request.acceptedLicense || 'none'} you accepted; look it up again`;
        }
      },
      onProgress: (progress) => (state.progress = progress),
      onNote: (note) => (state.notes = [...state.notes, note].slice(-NOTES_KEPT)),
    }).then(
      (installed) => {
        state.state = 'installed';
        state.folder = installed.folder;
        // a package fetched as it is has its own precision, whatever was asked
        state.precision = installed.precision;
      },
      (error: unknown) => {
        const cancelled = error instanceof HubError && error.code === 'cancelled';
        state.state = cancelled && !state.message ? 'cancelled' : 'failed';
        state.message ??= error instanceof Error ? error.message : String(error);
      },
    );
  }

  async cancel(): Promise<void> {
    this.controller?.abort();
    await this.running;
  }

  async remove(id: string, precision: ModelPrecision): Promise<void> {
    if (this.download?.state === 'running' && this.download.id === id && this.download.precision === precision) {
      throw new Error(`${id} is being downloaded; cancel it first.`);
    }
    const removed = await removeInstalled(this.modelsDir, `${id}:${precision}`);
    if (removed.length === 0) throw new Error(`no ${id} (${precision}) is installed in ${this.modelsDir}.`);
  }

  /** Forgets an unfinished download; its partial files stay in the Hugging Face cache, which other tools share. */
  async discard(id: string, precision: ModelPrecision): Promise<void> {
    await clearUnfinished(this.modelsDir, id, precision);
    if (this.download && this.download.state !== 'running' && this.download.id === id) this.download = null;
  }

  /** The app is closing: the download stops where it is, and is offered for resuming next time. */
  close(): Promise<void> {
    return this.cancel();
  }
}
