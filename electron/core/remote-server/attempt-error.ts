/** Why one request for a page did not complete, and whether asking again may help. */

export class AttemptError extends Error {
  constructor(
    message: string,
    /** 429, 5xx, a refused or dropped connection: the server may answer the next time. */
    readonly retryable: boolean,
    /** From a Retry-After header, in ms. */
    readonly retryAfterMs?: number,
  ) {
    super(message);
    this.name = 'AttemptError';
  }
}

/** 408 and 429 ask to come back later; 5xx are the server's trouble (a restarting replica, a full queue). */
export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 429 || status >= 500;
}

/** Retry-After as seconds or as an HTTP date; undefined when absent or unreadable. */
export function retryAfterMs(header: string | null, now = Date.now()): number | undefined {
  if (header === null || header.trim() === '') return undefined;
  const seconds = Number(header);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(header);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}
