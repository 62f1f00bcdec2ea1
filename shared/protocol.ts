/**
 * Messages between an engine host (a separate process running the engines) and whoever drives it:
 * the CLI, the tests, or Electron main. Requests go in, events come out; every event names its
 * document so one host can serve several.
 */

import { DEFAULT_ENGINE, type PagesInFlight } from './conversion-defaults.js';
import type { EngineChoice } from './engine-name.js';
import type { Failure } from './failure.js';
import type { OcrLanguage } from './ocr-languages.js';
import type { ConversionEvent } from './page-event.js';

export interface ConvertOptions {
  engine: EngineChoice;
  /** Keep running headers, footers and page numbers in the Markdown. */
  keepHeaders: boolean;
  /** Include each image's PNG bytes in the page result (for export to an assets folder). */
  extractImages: boolean;
  /** The model package for the `vlm` engine; with it, `auto` picks `vlm`. */
  vlm?: VlmOptions;
  /**
   * A vLLM (or other OpenAI-compatible) server for the `remote` engine; with it, `auto` picks `remote`.
   * The API key is never here: the engine host reads it from its FOLIO_API_KEY environment variable,
   * so no options object (saved settings, a workspace, an echoed request) can carry it.
   */
  remote?: RemoteOptions;
  /** What the `lite` OCR engine reads the page as; undefined: `auto` (English and Chinese). */
  lang?: OcrLanguage;
}

export const REMOTE_IMAGE_FORMATS = ['png', 'jpeg'] as const;
export type RemoteImageFormat = (typeof REMOTE_IMAGE_FORMATS)[number];

export interface RemoteOptions {
  /** Base URL, e.g. `http://gpu-box:8000` or `.../v1` (`/v1` is added when missing). */
  server: string;
  /** The model as the server names it (`/v1/models`); also picks the default prompt and sampling extras. */
  model: string;
  /** Pages in flight at once (over all documents the host converts). */
  concurrency: number;
  /** Time limit of one request, in ms; a page may take `retries + 1` of them plus backoff. */
  timeoutMs: number;
  /** How long a stream may go without a byte once the answer has begun, in ms; undefined: a minute (or `timeoutMs` if shorter). */
  idleTimeoutMs?: number;
  /** Retries of a page after a 429, a 5xx, or a connection that failed or dropped. */
  retries: number;
  /** The page image sent: its longer side in pixels, and its encoding. */
  imageLongSide: number;
  imageFormat: RemoteImageFormat;
  maxTokens: number;
  /** The instruction sent with the image; undefined: the model's own (see electron/core/remote-server/model-presets.ts). */
  prompt?: string;
  /** Fields merged into the request body (sampling extras such as `vllm_xargs`); undefined: the model's own. */
  extraBody?: Record<string, unknown>;
}

export interface VlmOptions {
  modelDir: string;
  /** Draft tokens per decoding step (0..4); 0 decodes plain greedy; `auto`: the engine measures and picks. */
  specK: number | 'auto';
  /** A resolution mode of the package; undefined: its first. */
  mode?: string;
  maxNewTokens: number;
  /** The device asked for (`auto`, `cpu`, `webgpu`, `cuda`, `cuda:N`: shared/device.ts); undefined: `auto`. */
  device?: string;
  /** The app-data folder, where `auto` (device and K) keeps what it measured; undefined: measured on every open, kept nowhere. */
  calibrationDir?: string;
  /** Pages decoding together (the CPU only for now; elsewhere one at a time, with a note); `auto`: measured on the device; undefined: 1. */
  pagesInFlight?: PagesInFlight;
  /** Pages of the document being converted, set by the engine host: `auto` puts no more than these in flight. */
  documentPages?: number;
}

export const DEFAULT_CONVERT_OPTIONS: ConvertOptions = {
  engine: DEFAULT_ENGINE,
  keepHeaders: false,
  extractImages: false,
};

export interface DocumentInfo {
  pageCount: number;
  title?: string;
  author?: string;
}

export type HostRequest =
  | { type: 'open'; docId: string; path: string; password?: string }
  /** Pages are 1-based and converted in the order given; one conversion per document at a time. */
  | { type: 'convert'; docId: string; pages: number[]; options: ConvertOptions }
  | { type: 'cancel'; docId: string }
  | { type: 'close'; docId: string }
  /** The page on white, its longer side `longSide` pixels, as PNG (training pairs' images). */
  | { type: 'render'; docId: string; page: number; longSide: number }
  /**
   * Which devices ONNX Runtime answers on here, and what the `device` setting (default `auto`) does
   * with them for the package in `modelDir`, from what `auto` kept in `calibrationDir`: asked of the
   * host, so its callers never load ONNX Runtime.
   */
  | ({ type: 'probe-device' } & DeviceProbeRequest);

/** What a device probe is asked about: the device setting (`auto` unless given) and the configured package. */
export interface DeviceProbeRequest {
  device?: string;
  modelDir?: string;
  calibrationDir?: string;
}

export type HostEvent =
  | { type: 'ready' }
  | { type: 'opened'; docId: string; info: DocumentInfo }
  | { type: 'open-failed'; docId: string; failure: Failure }
  | ConversionEvent
  /** The answer to `render`; a page that cannot be rendered answers `page-failed`. */
  | { type: 'page-image'; docId: string; page: number; width: number; height: number; png: Uint8Array }
  /**
   * The answer to `probe-device`: the device pages will run on and why (`auto` when it is measured
   * at the package's first open), the devices that answered and why each missing one is missing.
   */
  | { type: 'device'; device: string; reason: string; runtimeVersion: string; available: string[]; missing: string[] }
  /** A request the host could not act on (malformed, unknown document, conversion already running). */
  | { type: 'request-rejected'; docId?: string; message: string };
