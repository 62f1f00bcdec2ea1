/**
 * What the renderer sees as `window.folio`: one method per message, events that return an
 * unsubscribe function. Electron's preload implements it over IPC and a MessagePort; the browser
 * mode's bridge implements it over a local WebSocket. The renderer cannot tell them apart.
 */

import type { EngineChoice } from './engine-name.js';
import type { InstalledModel, ModelPrecision, ModelProgress, ModelSourceInfo, UnfinishedDownload } from './model-library.js';
import type { PairFormat } from './export/training-pairs.js';
import type { ExportFormat } from './export-choices.js';
import type { RemoteServerCheck } from './remote-check.js';
import type { Settings } from './settings.js';
import type { Workspace, WorkspaceEvent } from './workspace.js';

export interface AppInfo {
  version: string;
  /** Execution provider ONNX Runtime got, e.g. `cpu`, with the reason. */
  device: string;
  deviceReason: string;
}

/** A file the user dropped or picked: a DOM `File` in the renderer. */
export type PickedFile = Blob & { readonly name: string };

export interface ConvertRequest {
  docId: string;
  /** 1-based; absent: every page not yet done (a resume after cancel or a crash). */
  pages?: number[];
  /** Overrides the settings for this run, e.g. "re-run this page with another engine". */
  engine?: EngineChoice;
  mode?: string;
}

export type { ExportFormat };

export interface ExportRequest {
  docId: string;
  formats: ExportFormat[];
  /** 1-based; absent: the whole document. */
  pages?: number[];
  /** Visible page breaks: a rule and "Page N" in Markdown and HTML, a page break in Word and LaTeX. */
  pageMarkers: boolean;
  /** Figures written to `<stem>_assets/` beside the Markdown; else placeholders. */
  assets: boolean;
  folder: string;
  /** Without it, an export that would replace files writes nothing and names them. */
  overwrite: boolean;
}

/** Several documents at once, each whole, one set of files each in one folder. */
export type ExportDocumentsRequest = Omit<ExportRequest, 'docId' | 'pages'> & { docIds: string[] };

export type ExportOutcome =
  /** `warnings`: per page, what the Word or LaTeX file could not carry over as it was (written as text instead). */
  | { kind: 'written'; files: string[]; warnings?: string[] }
  | { kind: 'would-overwrite'; files: string[] }
  | { kind: 'failed'; message: string };

/** Fine-tuning pairs of every page in the workspace that was edited or marked reviewed. */
export interface TrainingPairsRequest {
  folder: string;
  /** The chat format of the model to train; absent: the model package in use decides (DeepSeek-OCR's without one). */
  format?: PairFormat;
  /** The page images' longer side in pixels; absent: the model package's base view (1024 without one). */
  imageSize?: number;
  /** Share of documents (whole, by id hash) whose pages go to validation.jsonl. */
  validationShare: number;
  overwrite: boolean;
}

export type TrainingPairsOutcome =
  /** `warnings`: pages left out (their image could not be rendered), each named. */
  | { kind: 'written'; folder: string; counts: { train: number; validation: number }; files: string[]; warnings?: string[] }
  | { kind: 'would-overwrite'; files: string[] }
  | { kind: 'failed'; message: string };

/** A model package folder, checked; `problem` says what makes it unusable and what to do, null when it can be used. */
export interface ModelFolderCheck {
  folder: string;
  problem: string | null;
  /** Present when the folder is a demo model's package (shared/demo-models.ts): shown wherever the model in use is named. */
  demoLabel?: string;
  /** Present when the folder is a model `folio model get` or the model manager installed: its id and precision, `owner/name (int4)`. */
  installedAs?: string;
}

/** "Get a model": what to fetch, and the licence the user was shown and accepted (the model card's id; '' when it names none). */
export interface ModelGetRequest {
  source: string;
  precision: ModelPrecision;
  acceptedLicense: string;
}

/** The download under way, or the last one and how it ended. */
export interface ModelDownloadState {
  /** The repo id once known, else the source as given. */
  id: string;
  source: string;
  precision: ModelPrecision;
  state: 'running' | 'installed' | 'failed' | 'cancelled';
  progress: ModelProgress | undefined;
  /** What the user should know on the way (a file fetched again, a config field ignored). */
  notes: string[];
  /** Why it failed or stopped. */
  message?: string;
  /** The installed package, once `installed`. */
  folder?: string;
}

/** What the model manager in Settings shows. */
export interface ModelLibraryState {
  installed: InstalledModel[];
  /** Downloads that stopped (cancelled, failed, the app closed): each can be resumed or discarded. */
  unfinished: UnfinishedDownload[];
  download: ModelDownloadState | null;
  /** Where packages are installed, and the Hugging Face cache downloads go to. */
  modelsDir: string;
  hubCache: string;
}

export type DocumentBytes = { mime: 'application/pdf' | 'image/png' | 'image/jpeg' | 'image/tiff'; data: Uint8Array };

/** Application-menu items and their shortcuts, delivered to the renderer to act on. */
export const MENU_COMMANDS = [
  'open',
  'export',
  'next-page',
  'previous-page',
  'next-to-review',
  'previous-to-review',
  'toggle-source',
  'undo',
  'redo',
  'settings',
] as const;
export type MenuCommand = (typeof MENU_COMMANDS)[number];

/** Electron IPC channel names; the sandboxed preload repeats them, checked by `satisfies`. */
export const IPC_CHANNELS = {
  appInfo: 'folio:app-info',
  getWorkspace: 'folio:get-workspace',
  openDocuments: 'folio:open-documents',
  removeDocument: 'folio:remove-document',
  restoreDocument: 'folio:restore-document',
  unlockDocument: 'folio:unlock-document',
  readDocument: 'folio:read-document',
  convert: 'folio:convert',
  cancel: 'folio:cancel',
  setEdit: 'folio:set-edit',
  setReviewed: 'folio:set-reviewed',
  keepVersion: 'folio:keep-version',
  getSettings: 'folio:get-settings',
  setSettings: 'folio:set-settings',
  chooseExportFolder: 'folio:choose-export-folder',
  defaultExportFolder: 'folio:default-export-folder',
  exportDocument: 'folio:export-document',
  exportDocuments: 'folio:export-documents',
  showInFolder: 'folio:show-in-folder',
  exportTrainingPairs: 'folio:export-training-pairs',
  hasApiKey: 'folio:has-api-key',
  setApiKey: 'folio:set-api-key',
  testRemoteServer: 'folio:test-remote-server',
  chooseModelFolder: 'folio:choose-model-folder',
  checkModelFolder: 'folio:check-model-folder',
  useDemoModel: 'folio:use-demo-model',
  modelLibrary: 'folio:model-library',
  inspectModel: 'folio:inspect-model',
  getModel: 'folio:get-model',
  cancelModelDownload: 'folio:cancel-model-download',
  removeModel: 'folio:remove-model',
  discardModelDownload: 'folio:discard-model-download',
  /** main -> renderer: the MessagePort that carries workspace events. */
  workspacePort: 'folio:workspace-port',
  /** main -> renderer: an application-menu command. */
  menuCommand: 'folio:menu-command',
} as const;

export type Unsubscribe = () => void;

export interface FolioApi {
  appInfo(): Promise<AppInfo>;
  /**
   * Every document, its pages' engine output, edits and review marks, as last saved. Workspace
   * events that happened before this snapshot are not delivered after it: subscribe first, then
   * apply to the snapshot whatever arrives once it has resolved.
   */
  getWorkspace(): Promise<Workspace>;
  /** The file-system path of a dropped or picked file (the browser mode uploads it first). */
  pathForFile(file: PickedFile): Promise<string>;
  /** Adds documents to the workspace and opens them; returns their ids in the given order. */
  openDocuments(paths: string[]): Promise<string[]>;
  /**
   * Takes a document out of the list and stops its conversion. Its edits and results are kept
   * until the session ends, so that `restoreDocument` can undo the removal; after that they are gone.
   */
  removeDocument(docId: string): Promise<void>;
  /** Puts back a document removed in this session, where it was in the list, with its edits and review marks. */
  restoreDocument(docId: string): Promise<void>;
  /**
   * Opens an encrypted PDF with its password, then converts with it. The password is kept in memory
   * until the app quits, never saved or logged; a wrong one leaves the document failed with
   * `wrong-password`. Resolves with whether it opened.
   */
  unlockDocument(docId: string, password: string): Promise<boolean>;
  /** The document's own bytes, for the page pane. */
  readDocument(docId: string): Promise<DocumentBytes>;
  convert(request: ConvertRequest): Promise<void>;
  cancel(docId: string): Promise<void>;
  /** The user's Markdown for a page; `null` reverts to the engine's. Saved before it resolves. */
  setEdit(docId: string, page: number, markdown: string | null): Promise<void>;
  setReviewed(docId: string, page: number, reviewed: boolean): Promise<void>;
  /** Makes one of the page's versions (shared/page-versions.ts) the one shown and exported; saved before it resolves. */
  keepVersion(docId: string, page: number, version: number): Promise<void>;
  getSettings(): Promise<Settings>;
  setSettings(patch: Partial<Settings>): Promise<Settings>;
  /** A folder picked by the user (a native dialog in the app), or `null` when they cancel. */
  chooseExportFolder(): Promise<string | null>;
  /** Where a document's export goes unless another folder is chosen: beside it in the app, the bridge's export folder in browser mode. */
  defaultExportFolder(docId: string): Promise<string | null>;
  exportDocument(request: ExportRequest): Promise<ExportOutcome>;
  /** Several documents in one go, written all or nothing; documents with nothing converted are left out with a warning. */
  exportDocuments(request: ExportDocumentsRequest): Promise<ExportOutcome>;
  /**
   * Shows a file this session exported in the system's file manager; resolves false where that cannot
   * be done (browser mode, or a file not exported here), and the page shows its path instead.
   */
  showInFolder(file: string): Promise<boolean>;
  /** Writes `train.jsonl`, `validation.jsonl`, `images/` and `manifest.json`; never replaces files unasked. */
  exportTrainingPairs(request: TrainingPairsRequest): Promise<TrainingPairsOutcome>;
  /** Whether the remote server's API key is stored; the key itself never comes back to the page. */
  hasApiKey(): Promise<boolean>;
  /**
   * Stores the remote server's API key (encrypted by the OS keychain in the app; in memory only in
   * browser mode), or forgets it with `null`; the engine host restarts with it in its environment.
   */
  setApiKey(key: string | null): Promise<void>;
  /**
   * "Test connection": main asks the server's `/v1/models` (with the stored API key) and says what it
   * found in the user's words, with the models it lists. The address is as typed; nothing is saved.
   */
  testRemoteServer(server: string): Promise<RemoteServerCheck>;
  /** A model package folder picked by the user, checked, and saved as `modelDir` when usable; `null` when they cancel. */
  chooseModelFolder(): Promise<ModelFolderCheck | null>;
  /** Checks a typed model package folder; saves nothing. */
  checkModelFolder(folder: string): Promise<ModelFolderCheck>;
  /**
   * A demo model by name (shared/demo-models.ts): main finds its package, checks it like a chosen
   * folder and saves it as `modelDir` when usable; `problem` says when it is not installed.
   */
  useDemoModel(name: string): Promise<ModelFolderCheck>;
  /** The installed models, the download under way and the unfinished ones. */
  modelLibrary(): Promise<ModelLibraryState>;
  /**
   * A Hugging Face repo (`owner/name[@revision]`) or checkpoint folder looked at before downloading:
   * its kind, licence and sizes. Rejects in the user's words (gated, unknown, no network).
   */
  inspectModel(source: string, precision: ModelPrecision): Promise<ModelSourceInfo>;
  /** Starts a download (one at a time), resuming what an earlier one left; follow it with `modelLibrary`. */
  getModel(request: ModelGetRequest): Promise<void>;
  /** Stops the download; what arrived is kept for a later `getModel` to resume. */
  cancelModelDownload(): Promise<void>;
  removeModel(id: string, precision: ModelPrecision): Promise<void>;
  /** Forgets an unfinished download (its partial files stay in the shared cache). */
  discardModelDownload(id: string, precision: ModelPrecision): Promise<void>;
  /** Workspace changes, streamed page deltas included, in the order they happened. */
  onWorkspaceEvent(listener: (event: WorkspaceEvent) => void): Unsubscribe;
  onMenuCommand(listener: (command: MenuCommand) => void): Unsubscribe;
}
