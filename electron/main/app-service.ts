/**
 * The app's behaviour behind `window.folio`, free of Electron so that Electron main and the browser
 * mode's bridge run the very same code: documents, conversions on a supervised engine host, edits
 * and review marks saved as they happen, settings, and export. Every change goes out as a workspace
 * event, applied here (and saved) with the reducer the renderer applies too.
 */

import { randomUUID } from 'node:crypto';
import path from 'node:path';
import type { AppInfo, ConvertRequest, DocumentBytes, ExportDocumentsRequest, ExportOutcome, ExportRequest, FolioApi, ModelFolderCheck, ModelGetRequest, ModelLibraryState, TrainingPairsOutcome, TrainingPairsRequest, Unsubscribe } from '../../shared/app-api.js';
import type { ModelPrecision, ModelSourceInfo } from '../../shared/model-library.js';
import { hubSettings, type HubSettings } from '../core/hub/hub-settings.js';
import { modelsFolder } from '../core/model/installed-models.js';
import { ModelDownloads } from './model-downloads.js';
import type { DeviceProbeRequest } from '../../shared/protocol.js';
import { parseSettings, type Settings } from '../../shared/settings.js';
import { pageVersions } from '../../shared/page-versions.js';
import { pagesToResume, type Workspace, type WorkspaceDocument, type WorkspaceEvent, type WorkspacePage } from '../../shared/workspace.js';
import { loadMathCss } from '../core/output/math-css.js';
import { checkRemoteServer } from '../core/remote-server/server-check.js';
import type { RemoteServerCheck } from '../../shared/remote-check.js';
import { findSameContent } from '../core/same-content.js';
import { passwordlessView } from '../core/passwordless-view.js';
import { toFailure } from '../core/failure-error.js';
import { HostClient, type DeviceProbe } from '../core/engine-client/host-client.js';
import type { HostProcess } from '../core/engine-client/host-process.js';
import { supervisorPageLimitMs } from '../core/page-time-limit.js';
import { MemoryApiKeyStore, type ApiKeyVault } from './api-key-store.js';
import { ConversionQueue } from './conversion-queue.js';
import { conversionOptions } from './conversion-options.js';
import { exportDocument, exportDocuments } from './document-export.js';
import { sniffFile } from './document-kind.js';
import { checkDemoModel, checkModelFolder, expandHome } from './model-folder-check.js';
import { loadSettings, saveSettings } from './settings-store.js';
import { exportTrainingPairs, HostPageRenderer, pairSettings } from '../core/training-pairs-export.js';
import { WorkspaceStore, type WorkspaceStoreOptions } from '../core/workspace-store.js';
import { MAX_DOCUMENT_BYTES, readBoundedFile, UnfitFileError } from '../core/bounded-file.js';

/**
 * An engine host with nothing to do for this long is ended, so the memory a model run took (1.4 GB
 * more after a 119-page run) goes back to the system; the next conversion starts a fresh one, which
 * costs a model load (seconds), not a conversion.
 */
export const ENGINE_IDLE_RELEASE_MS = 5 * 60_000;

/** FolioApi less what only a shell can do: resolve dropped files, show dialogs, own a menu. */
export type AppServiceApi = Omit<FolioApi, 'pathForFile' | 'chooseExportFolder' | 'defaultExportFolder' | 'chooseModelFolder' | 'onMenuCommand' | 'showInFolder'> & {
  /** A folder the shell's picker returned: checked, and saved as the model folder when usable. */
  useModelFolder(folder: string): Promise<ModelFolderCheck>;
  /** Whether an export in this session wrote the file (only those are shown in the file manager). */
  exportedThisSession(file: string): boolean;
};

export interface AppServiceOptions {
  /** The app's data folder: the workspace and the settings live here. */
  dataDir: string;
  /** Starts an engine host with `env` added to its environment (FOLIO_API_KEY when a key is stored). */
  spawnHost: (env: Record<string, string>) => HostProcess;
  /** The remote server's API key; default: kept in memory only. */
  apiKeys?: ApiKeyVault;
  version: string;
  /** How long one page may take before its host is stopped and the page fails; default: by engine. */
  pageTimeoutMs?: number;
  /** The ONNX Runtime device probe for the device setting and package; default: asked of an engine host. Tests pass a fixed answer. */
  probeDevice?: (request: DeviceProbeRequest) => Promise<DeviceChoice>;
  /** How the workspace's files are written; tests inject a full disk. */
  writeWorkspaceFile?: WorkspaceStoreOptions['writeFile'];
  /** The Hugging Face Hub and cache models are fetched from and into; default: from the environment (HF_ENDPOINT, HF_TOKEN, HF_HOME...). */
  hub?: HubSettings;
}

export type DeviceChoice = Pick<DeviceProbe, 'device' | 'reason'>;

export class AppService implements AppServiceApi {
  private readonly listeners = new Set<(event: WorkspaceEvent) => void>();
  private readonly inspector: HostClient;
  private readonly converter: HostClient;
  private readonly queue: ConversionQueue;
  /** Encrypted documents' passwords by document id: in memory until the app quits, never in the workspace file. */
  private readonly passwords = new Map<string, string>();
  /** Opening runs one document at a time on its own host, so a long conversion never holds it up. */
  private opening: Promise<unknown> = Promise.resolve();
  private adding: Promise<unknown> = Promise.resolve();
  /** The last probe, and the settings it was asked about: another device or package asks again. */
  private device: { asked: string; choice: Promise<DeviceChoice> } | undefined;
  /** The converting host was started with another API key than the one now stored. */
  private hostKeyStale = false;
  private readonly models: ModelDownloads;
  /** Files exports wrote in this session: the only ones "Show in folder" may point at. */
  private readonly exportedFiles = new Set<string>();
  /** The last settings write, so that writes go to the file one after another. */
  private settingsWritten: Promise<unknown> = Promise.resolve();

  private constructor(
    private readonly options: AppServiceOptions,
    private readonly store: WorkspaceStore,
    private settings: Settings,
    private readonly apiKeys: ApiKeyVault,
    private apiKey: string | null,
  ) {
    // the key reaches the engine host only through its environment, read as each host starts
    this.models = new ModelDownloads(modelsFolder(options.dataDir), options.hub ?? hubSettings());
    const spawnHost = () => options.spawnHost(this.apiKey === null ? {} : { FOLIO_API_KEY: this.apiKey });
    const clientOptions = { spawnHost, pageTimeoutMs: options.pageTimeoutMs, openTimeoutMs: options.pageTimeoutMs, idleReleaseMs: ENGINE_IDLE_RELEASE_MS };
    this.inspector = new HostClient(clientOptions);
    this.converter = new HostClient(clientOptions);
    this.queue = new ConversionQueue(
      this.converter,
      (event) => void this.emit(event).catch((error: unknown) => this.saveFailed(error)),
      (convertOptions) => supervisorPageLimitMs(convertOptions, options.pageTimeoutMs),
    );
  }

  static async start(options: AppServiceOptions): Promise<AppService> {
    const store = await WorkspaceStore.open(options.dataDir, { writeFile: options.writeWorkspaceFile });
    for (const problem of store.restoreProblems) console.warn(`Folio: ${problem}`);
    const apiKeys = options.apiKeys ?? new MemoryApiKeyStore();
    const apiKey = await apiKeys.read().catch((error: unknown) => {
      console.warn(`Folio could not read the remote server's API key: ${(error as Error).message}`);
      return null;
    });
    return new AppService(options, store, await loadSettings(options.dataDir), apiKeys, apiKey);
  }

  /** Cancels conversions, ends the engine hosts and waits for every save. */
  async close(): Promise<void> {
    this.queue.stop();
    await this.models.close();
    // ending the hosts now, rather than waiting for a cancelled page to stop, keeps a hung page from holding up the quit
    this.inspector.dispose();
    this.converter.dispose();
    await this.queue.idle();
    await this.opening.catch(() => undefined);
    await this.store.flush();
    await this.store.discardRemoved();
  }

  onWorkspaceEvent(listener: (event: WorkspaceEvent) => void): Unsubscribe {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async appInfo(): Promise<AppInfo> {
    const request: DeviceProbeRequest = { device: this.settings.device, calibrationDir: this.options.dataDir, ...(this.settings.modelDir !== null && { modelDir: this.settings.modelDir }) };
    const asked = JSON.stringify([request.device, request.modelDir]);
    if (this.device?.asked !== asked) this.device = { asked, choice: this.options.probeDevice ? this.options.probeDevice(request) : this.probeDeviceInHost(request) };
    const choice = await this.device.choice;
    return { version: this.options.version, device: choice.device, deviceReason: choice.reason };
  }

  /** Asked of an engine host: ONNX Runtime's native library stays out of this process (Electron main, the bridge). */
  private async probeDeviceInHost(request: DeviceProbeRequest): Promise<DeviceChoice> {
    try {
      return await this.inspector.probeDevice(request);
    } catch (error) {
      return { device: 'unknown', reason: toFailure(error).message };
    }
  }

  async getWorkspace(): Promise<Workspace> {
    return this.store.workspace;
  }

  async openDocuments(paths: string[]): Promise<string[]> {
    // one call adds at a time, so the same file dropped twice in quick succession is one document
    const added = this.adding.then(() => this.addDocuments(paths));
    this.adding = added.catch(() => undefined);
    const ids = await added;
    for (const id of ids) {
      const document = this.document(id);
      if (!document.info && !document.failure) await this.inspect(id, document.path);
    }
    return ids;
  }

  /** The documents' ids, adding those not in the workspace yet and reopening known ones that failed. */
  private async addDocuments(paths: readonly string[]): Promise<string[]> {
    const ids: string[] = [];
    for (const given of paths) {
      const file = path.resolve(given);
      // the same file again, from another folder or uploaded twice, is the document already open
      const documents = this.store.workspace.documents;
      const samePath = documents.find((document) => document.path === file);
      const sameBytes = samePath ? undefined : await findSameContent(file, documents.map((document) => document.path));
      const known = samePath ?? documents.find((document) => document.path === sameBytes);
      if (known) {
        ids.push(known.id);
        if (known.failure || !known.info) await this.inspect(known.id, file);
        continue;
      }
      const document: WorkspaceDocument = {
        id: randomUUID(),
        path: file,
        name: path.basename(file),
        kind: (await sniffFile(file)).kind,
        addedAt: new Date().toISOString(),
        pages: [],
        converting: false,
      };
      await this.emit({ type: 'document-added', document });
      ids.push(document.id);
    }
    return ids;
  }

  /**
   * Takes the document out of the list and cancels its conversion; its files are set aside until
   * the session ends, so `restoreDocument` can put it back. Its password stays in memory for that.
   */
  async removeDocument(docId: string): Promise<void> {
    this.document(docId);
    this.queue.cancel(docId);
    await this.emit({ type: 'document-removed', docId });
  }

  async restoreDocument(docId: string): Promise<void> {
    if (!this.store.workspace.removed?.some((entry) => entry.document.id === docId)) {
      throw new Error(`No document ${docId} was removed in this session; a removal can be undone only until Folio closes.`);
    }
    await this.emit({ type: 'document-restored', docId });
  }

  async unlockDocument(docId: string, password: string): Promise<boolean> {
    const document = this.document(docId);
    this.passwords.set(docId, password);
    await this.inspect(docId, document.path);
    const opened = this.document(docId).failure === undefined;
    if (!opened) this.passwords.delete(docId);
    return opened;
  }

  async readDocument(docId: string): Promise<DocumentBytes> {
    const document = this.document(docId);
    try {
      const { mime } = await sniffFile(document.path);
      const data = new Uint8Array(await readBoundedFile(document.path, MAX_DOCUMENT_BYTES, 'document'));
      // the preview's pdf.js would ask for a password that the engine found it needs none of (see passwordless-view.ts)
      const view = mime === 'application/pdf' && !this.passwords.has(docId) ? passwordlessView(data) : undefined;
      return { mime, data: view?.bytes ?? data };
    } catch (error) {
      if (error instanceof UnfitFileError) throw new Error(error.message);
      throw new Error(`${document.path}: cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}); it may have been moved or deleted. Remove it and add it again.`);
    }
  }

  /** Resolves once the pages are queued; the conversion reports through workspace events. */
  async convert(request: ConvertRequest): Promise<void> {
    let document = this.document(request.docId);
    if (!document.info || document.failure) {
      await this.inspect(document.id, document.path);
      document = this.document(request.docId);
      if (!document.info) return;
    }
    const pageCount = document.info!.pageCount;
    const pages = request.pages ?? pagesToResume(document);
    const outside = pages.find((page) => !Number.isInteger(page) || page < 1 || page > pageCount);
    if (outside !== undefined) throw new Error(`${document.name} has pages 1 to ${pageCount}; there is no page ${outside}.`);
    const options = await conversionOptions(this.settings, request, this.options.dataDir);
    this.restartHostForKey();
    this.queue.enqueue(document.id, document.path, pages, options, this.passwords.get(document.id));
  }

  async cancel(docId: string): Promise<void> {
    this.document(docId);
    this.queue.cancel(docId);
  }

  async setEdit(docId: string, page: number, markdown: string | null): Promise<void> {
    this.page(docId, page);
    await this.emit({ type: 'page-edited', docId, page, markdown });
  }

  async setReviewed(docId: string, page: number, reviewed: boolean): Promise<void> {
    this.page(docId, page);
    await this.emit({ type: 'page-reviewed', docId, page, reviewed });
  }

  async keepVersion(docId: string, page: number, version: number): Promise<void> {
    const target = this.page(docId, page);
    if (target.state === 'converting' || target.state === 'queued') throw new Error(`Page ${page} is converting; choose its version once it is done.`);
    if (!pageVersions(target).some((candidate) => candidate.id === version)) throw new Error(`Page ${page} has no version ${version}; it may have been pruned.`);
    await this.emit({ type: 'version-kept', docId, page, version });
  }

  async getSettings(): Promise<Settings> {
    return this.settings;
  }

  async setSettings(patch: Partial<Settings>): Promise<Settings> {
    // `~/models/x` as typed is the folder a shell would read, not one named "~" here
    const modelDir = typeof patch.modelDir === 'string' && patch.modelDir.trim() !== '' ? { modelDir: path.resolve(expandHome(patch.modelDir.trim())) } : {};
    const next = parseSettings({ ...this.settings, ...patch, ...modelDir });
    // a change made while an earlier one is being written builds on it (two quick changes in the
    // settings dialog once lost the first), and the file is written in the order the changes came
    this.settings = next;
    const saved = this.settingsWritten.then(() => saveSettings(this.options.dataDir, next));
    this.settingsWritten = saved.catch(() => undefined);
    await saved;
    return next;
  }

  async hasApiKey(): Promise<boolean> {
    return this.apiKey !== null;
  }

  async setApiKey(key: string | null): Promise<void> {
    if (key === this.apiKey) return;
    await this.apiKeys.write(key);
    this.apiKey = key;
    this.hostKeyStale = true;
    this.restartHostForKey();
  }

  testRemoteServer(server: string): Promise<RemoteServerCheck> {
    return checkRemoteServer(server, this.apiKey);
  }

  /** A running conversion keeps its host (and the old key) rather than losing its page: the restart waits for the next idle convert. */
  private restartHostForKey(): void {
    if (!this.hostKeyStale || this.store.workspace.documents.some((document) => document.converting)) return;
    this.converter.dispose();
    this.hostKeyStale = false;
  }

  async checkModelFolder(folder: string): Promise<ModelFolderCheck> {
    return checkModelFolder(folder);
  }

  async useModelFolder(folder: string): Promise<ModelFolderCheck> {
    const check = await checkModelFolder(folder);
    if (check.problem === null) await this.setSettings({ modelDir: check.folder });
    return check;
  }

  async useDemoModel(name: string): Promise<ModelFolderCheck> {
    const check = await checkDemoModel(name);
    if (check.problem === null) await this.setSettings({ modelDir: check.folder });
    return check;
  }

  modelLibrary(): Promise<ModelLibraryState> {
    return this.models.library();
  }

  inspectModel(source: string, precision: ModelPrecision): Promise<ModelSourceInfo> {
    return this.models.inspect(source, precision);
  }

  getModel(request: ModelGetRequest): Promise<void> {
    return this.models.get(request);
  }

  cancelModelDownload(): Promise<void> {
    return this.models.cancel();
  }

  removeModel(id: string, precision: ModelPrecision): Promise<void> {
    return this.models.remove(id, precision);
  }

  discardModelDownload(id: string, precision: ModelPrecision): Promise<void> {
    return this.models.discard(id, precision);
  }

  async exportDocument(request: ExportRequest): Promise<ExportOutcome> {
    const document = this.document(request.docId);
    return this.exported(
      await exportDocument(document, request, {
        readImage: (name) => this.store.readImage(document.id, name),
        mathCss: loadMathCss,
      }),
    );
  }

  async exportDocuments(request: ExportDocumentsRequest): Promise<ExportOutcome> {
    const { docIds, ...choices } = request;
    const documents = [...new Set(docIds)].map((docId) => {
      const document = this.document(docId);
      return { document, sources: { readImage: (name: string) => this.store.readImage(document.id, name), mathCss: loadMathCss } };
    });
    return this.exported(await exportDocuments(documents, choices));
  }

  exportedThisSession(file: string): boolean {
    return this.exportedFiles.has(path.resolve(file));
  }

  private exported(outcome: ExportOutcome): ExportOutcome {
    if (outcome.kind === 'written') for (const file of outcome.files) this.exportedFiles.add(path.resolve(file));
    return outcome;
  }

  /**
   * Pages are rendered on an engine host of their own, started for this export and ended with it,
   * so neither a long conversion nor the opening of documents waits on it.
   */
  async exportTrainingPairs(request: TrainingPairsRequest): Promise<TrainingPairsOutcome> {
    let settings;
    try {
      settings = await pairSettings(this.settings.modelDir, { format: request.format, imageSize: request.imageSize });
    } catch (error) {
      return { kind: 'failed', message: (error as Error).message };
    }
    const client = new HostClient({ spawnHost: () => this.options.spawnHost({}), pageTimeoutMs: this.options.pageTimeoutMs, openTimeoutMs: this.options.pageTimeoutMs });
    const renderer = new HostPageRenderer(client, (document) => this.passwords.get(document.id));
    try {
      return await exportTrainingPairs(this.store.workspace.documents, { ...settings, folder: request.folder, validationShare: request.validationShare, overwrite: request.overwrite }, renderer);
    } finally {
      await renderer.close();
      client.dispose();
    }
  }

  /** A save behind a conversion failed: the window is told (the edits' own saves tell it through their promises). */
  private saveFailed(error: unknown): void {
    const message = (error as Error).message;
    console.error(message);
    for (const listener of this.listeners) listener({ type: 'save-failed', message });
  }

  /** Applies, saves and broadcasts one event; resolves once it is on disk. */
  private emit(event: WorkspaceEvent): Promise<void> {
    const { applied, saved } = this.store.apply(event);
    for (const listener of this.listeners) listener(applied);
    return saved;
  }

  /** Opens the document in the inspecting host to learn its pages, or records why it cannot be opened. */
  private inspect(docId: string, file: string): Promise<void> {
    const run = this.opening.catch(() => undefined).then(async () => {
      try {
        const opened = await this.inspector.open(file, this.passwords.get(docId));
        this.inspector.close(opened);
        await this.emit({ type: 'document-opened', docId, info: opened.info });
      } catch (error) {
        await this.emit({ type: 'document-failed', docId, failure: toFailure(error) });
      }
    });
    this.opening = run;
    return run;
  }

  private document(docId: string): WorkspaceDocument {
    const document = this.store.workspace.documents.find((candidate) => candidate.id === docId);
    if (!document) throw new Error(`No document ${docId} in the workspace; it may have been removed.`);
    return document;
  }

  private page(docId: string, page: number): WorkspacePage {
    const document = this.document(docId);
    const found = document.pages.find((candidate) => candidate.page === page);
    if (!found) throw new Error(`${document.name} has no page ${page}.`);
    return found;
  }
}

/** Loaded when first asked: ONNX Runtime's native library has no business in a process that only shows windows until then. */
