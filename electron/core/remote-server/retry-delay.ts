/** How long to wait before asking the server again: exponential with jitter, or what Retry-After says. */

import type { RemoteOptions } from '../../../shared/protocol.js';

const FIRST_DELAY_MS = 500;
const LONGEST_DELAY_MS = 30_000;

/** `retry` counts from 0; `random` is injectable so tests can pin the jitter. */
export function retryDelayMs(retry: number, retryAfterMs: number | undefined, random: () => number = Math.random): number {
  if (retryAfterMs !== undefined) return Math.min(retryAfterMs, LONGEST_DELAY_MS);
  const ceiling = Math.min(LONGEST_DELAY_MS, FIRST_DELAY_MS * 2 ** retry);
  // jitter spreads the retries of many pages refused at once by the same overloaded server
  return ceiling / 2 + random() * (ceiling / 2);
}

/**
 * The longest a page may legitimately spend with the server: every attempt running to its time limit
 * and the longest waits between them. The supervisor adds this to its own per-page limit.
 */
export function longestPageMs(options: Pick<RemoteOptions, 'retries' | 'timeoutMs'>): number {
  // a Retry-After can ask for the longest wait at any retry
  return (options.retries + 1) * options.timeoutMs + options.retries * LONGEST_DELAY_MS;
}

export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', abort);
      resolve();
    }, ms);
    const abort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    signal.addEventListener('abort', abort, { once: true });
  });
}
