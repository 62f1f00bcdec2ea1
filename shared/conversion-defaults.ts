/**
 * What a conversion uses where the CLI's flags or the app's settings leave a choice open, and the
 * bounds both accept: defined once so the two faces convert alike. Page time limits depend on the
 * engine and live with the supervisor (electron/core/page-time-limit.ts).
 */

import type { EngineChoice } from './engine-name.js';

export const DEFAULT_ENGINE: EngineChoice = 'auto';

/** A dense page of the real model stays well under this many tokens; a runaway page stops at it. */
export const DEFAULT_MAX_NEW_TOKENS = 4096;
export const MAX_NEW_TOKENS_LIMIT = 32768;

/** The largest K (draft tokens per step) `auto` considers and a user may ask for: past four, FastMTP's acceptance is too low to pay. */
export const MAX_SPEC_K = 4;

/**
 * Pages the vlm engine decodes together in the same decoder passes on the CPU, each on its own share
 * of the key/value cache: 1 (one page at a time) unless asked for, and at most this many.
 */
export const MAX_PAGES_IN_FLIGHT = 16;

/** `--pages-in-flight` and the setting: a number of pages, or `auto` (measured on the device, electron/engine/vlm/pages-in-flight-choice.ts). */
export type PagesInFlight = number | 'auto';

/** The most pages `auto` puts in flight: it measures packed passes of 1, 2, 4 and this many pages. */
export const MAX_AUTO_PAGES_IN_FLIGHT = 8;

export const REMOTE_DEFAULTS = {
  /** Pages in flight at once on the server. */
  concurrency: 16,
  /** Time limit of one request. */
  timeoutS: 180,
  /** A 429, a 5xx or a dropped connection is tried again this often. */
  retries: 3,
  /** As the vlm engine renders for DeepSeek-OCR's tiled mode: tiles need the page sharper than 1024. */
  imageLongSide: 1920,
  imageFormat: 'png',
} as const;

/** What the app's settings accept for the remote server's numbers (inclusive), as the settings file and its fields check them. */
export const REMOTE_BOUNDS = {
  concurrency: { min: 1, max: 256 },
  timeoutS: { min: 1, max: 3600 },
  imageLongSide: { min: 256, max: 8192 },
} as const;
