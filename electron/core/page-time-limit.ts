/**
 * The default time limit for one page, by the engine that will read it. The text engine answers in
 * well under a second, so a minute means it hangs. A VLM page is decoded token by token and on a CPU
 * may run at a few tokens per second, so its limit grows with the page's token budget.
 */

import { MAX_AUTO_PAGES_IN_FLIGHT, type PagesInFlight } from '../../shared/conversion-defaults.js';
import type { EngineChoice } from '../../shared/engine-name.js';
import type { RemoteOptions } from '../../shared/protocol.js';
import { longestPageMs } from './remote-server/retry-delay.js';

export const TEXT_PAGE_TIME_LIMIT_MS = 60_000;
/**
 * `auto` may send a page to the lite OCR engine: 4-10 s of CPU on a dense A4 page, several times
 * that on a busy machine, so a hang is told from a slow page later.
 */
export const OCR_PAGE_TIME_LIMIT_MS = 180_000;
/**
 * A CPU decoding the real model at 5 tokens/s spends 200 ms a token; the prefill comes first. Opening
 * the package is not the page's: it has its own limit (preparationLimitMs).
 */
const VLM_MS_PER_TOKEN = 200;
const VLM_START_MS = 60_000;

/**
 * With several pages in flight a page shares each pass with the others' rows, and a page whose
 * vision ran ahead (at most one a lane, vision-ahead.ts) then waits for a free lane, so at worst it
 * takes as long as twice the lanes' pages one after another.
 */
export function defaultPageTimeLimitMs(engine: EngineChoice, vlm: { maxNewTokens: number; pagesInFlight?: PagesInFlight } | undefined): number {
  // with a model package, `auto` reads every page with the vlm engine; pages in flight by `auto` are at most its largest choice
  const inFlight = vlm?.pagesInFlight === 'auto' ? MAX_AUTO_PAGES_IN_FLIGHT : Math.max(1, vlm?.pagesInFlight ?? 1);
  if (vlm && (engine === 'vlm' || engine === 'auto')) return (VLM_START_MS + vlm.maxNewTokens * VLM_MS_PER_TOKEN) * (inFlight > 1 ? 2 * inFlight : 1);
  if (engine === 'lite' || engine === 'auto') return OCR_PAGE_TIME_LIMIT_MS;
  return TEXT_PAGE_TIME_LIMIT_MS;
}

/**
 * The supervisor's limit for one page of a conversion: the user's limit or the engine's default,
 * plus what a remote page may legitimately spend waiting out its request time limits and retries.
 */
export function supervisorPageLimitMs(
  options: { engine: EngineChoice; vlm?: { maxNewTokens: number; pagesInFlight?: PagesInFlight }; remote?: Pick<RemoteOptions, 'retries' | 'timeoutMs'> },
  userLimitMs?: number,
): number {
  const base = userLimitMs ?? defaultPageTimeLimitMs(options.engine, options.vlm);
  return base + (options.remote ? longestPageMs(options.remote) : 0);
}

/**
 * How long an engine may take to get ready before its first page (the host's `engine-preparing`):
 * opening a model package and, with `--device auto`, measuring each device. The full 12-layer int4
 * package (about 2 GB) opens in 71 s on a CPU alone, and WebGPU on a software Vulkan driver opens and
 * measures several times slower, so two minutes plus 300 ms per MB on disk (12 min for 2 GB) tell a
 * stall from a slow disk or device.
 */
const PREPARATION_START_MS = 120_000;
const PREPARATION_MS_PER_MB = 300;

export function preparationLimitMs(bytes: number): number {
  return PREPARATION_START_MS + Math.round((Math.max(0, bytes) / 1e6) * PREPARATION_MS_PER_MB);
}
