/**
 * The app's settings, validated when loaded from disk or received from the renderer: a settings
 * file edited by hand or written by an older version must not break the app, so unknown or invalid
 * fields fall back to their defaults.
 */

import { z } from 'zod';
import { DEFAULT_ENGINE, DEFAULT_MAX_NEW_TOKENS, MAX_NEW_TOKENS_LIMIT, MAX_PAGES_IN_FLIGHT, MAX_SPEC_K, REMOTE_BOUNDS, REMOTE_DEFAULTS } from './conversion-defaults.js';
import { parseDeviceRequest } from './device.js';
import { ENGINE_CHOICES } from './engine-name.js';
import { exportChoicesSchema } from './export-choices.js';
import { OCR_LANGUAGES } from './ocr-languages.js';
import { REMOTE_IMAGE_FORMATS } from './protocol.js';

/** `gpu-box:8000` as `http://gpu-box:8000`: an address typed without its scheme means plain http. */
export function withScheme(address: string): string {
  return address === '' || /^[a-z][a-z0-9+.-]*:\/\//i.test(address) ? address : `http://${address}`;
}

/** An http(s) address with no user:password in it (the API key is kept apart, encrypted). */
const serverAddress = z
  .string()
  .trim()
  .transform(withScheme)
  .refine((text) => {
    if (!URL.canParse(text)) return false;
    const url = new URL(text);
    return (url.protocol === 'http:' || url.protocol === 'https:') && !url.username && !url.password;
  });

/** The divider between page and Markdown moves within these; by default the Markdown (and its editor) gets the larger part. */
export const PAGE_SHARE_BOUNDS = { min: 0.15, max: 0.85, default: 0.4 } as const;

const settingsSchema = z.object({
  engine: z.enum(ENGINE_CHOICES).catch(DEFAULT_ENGINE),
  /** The model package folder for the `vlm` engine; null: none configured. */
  modelDir: z.string().min(1).nullable().catch(null),
  /** A resolution mode of the package; null: its first. */
  mode: z.string().min(1).nullable().catch(null),
  /** Draft tokens per decoding step, 0 (plain greedy) to 4, or measured on the device. */
  specK: z.union([z.int().min(0).max(MAX_SPEC_K), z.literal('auto')]).catch('auto'),
  maxNewTokens: z.int().min(1).max(MAX_NEW_TOKENS_LIMIT).catch(DEFAULT_MAX_NEW_TOKENS),
  /** Pages the `vlm` engine decodes together on the CPU (1: one at a time; `auto`: chosen by measurement). */
  pagesInFlight: z.union([z.int().min(1).max(MAX_PAGES_IN_FLIGHT), z.literal('auto')]).catch(1),
  /** Where the `vlm` engine runs: `auto`, `cpu`, `webgpu`, `cuda` or `cuda:N` (shared/device.ts). */
  device: z.string().refine((text) => parseDeviceRequest(text) !== null).catch('auto'),
  keepHeaders: z.boolean().catch(false),
  /** The `remote` engine's vLLM (OpenAI-compatible) server; null: none, and `remote` cannot run. */
  remoteServer: serverAddress.nullable().catch(null),
  /** The model as the server names it (`/v1/models`). */
  remoteModel: z.string().trim().min(1).nullable().catch(null),
  /** Pages in flight at once on the server. */
  remoteConcurrency: z.int().min(REMOTE_BOUNDS.concurrency.min).max(REMOTE_BOUNDS.concurrency.max).catch(REMOTE_DEFAULTS.concurrency),
  /** Time limit of one request, in seconds. */
  remoteTimeoutS: z.int().min(REMOTE_BOUNDS.timeoutS.min).max(REMOTE_BOUNDS.timeoutS.max).catch(REMOTE_DEFAULTS.timeoutS),
  /** The page image sent: its longer side in pixels, and its encoding. */
  remoteImageSide: z.int().min(REMOTE_BOUNDS.imageLongSide.min).max(REMOTE_BOUNDS.imageLongSide.max).catch(REMOTE_DEFAULTS.imageLongSide),
  remoteImageFormat: z.enum(REMOTE_IMAGE_FORMATS).catch(REMOTE_DEFAULTS.imageFormat),
  /** What the `lite` OCR engine reads pages as. */
  ocrLang: z.enum(OCR_LANGUAGES).catch('auto'),
  theme: z.enum(['system', 'light', 'dark']).catch('system'),
  /** What the Export dialog was last set to. */
  exportChoices: exportChoicesSchema,
  /** The page pane's share of the room it splits with the Markdown (the divider between them). */
  pageShare: z.number().min(PAGE_SHARE_BOUNDS.min).max(PAGE_SHARE_BOUNDS.max).catch(PAGE_SHARE_BOUNDS.default),
});

export type Settings = z.infer<typeof settingsSchema>;

export const DEFAULT_SETTINGS: Settings = settingsSchema.parse({});

/** Reads settings from anything (a parsed file, a message), keeping what is valid. */
export function parseSettings(value: unknown): Settings {
  const record = typeof value === 'object' && value !== null ? value : {};
  return settingsSchema.parse(record);
}
