/**
 * `fetch` for the Hub: the token goes only to the endpoint's own origin (a redirect to the CDN
 * does not carry it), answers that may pass (5xx, 429) and connections that fail are retried with
 * backoff, and any other error answer becomes a HubError in the user's words. @huggingface/hub's
 * calls take it as their `fetch`, so its listing gets the same retries and messages.
 */

import { answerError, cancelledError, unreachableError, type HubContext } from './hub-error.js';

export interface RetryPolicy {
  /** Tries after the first. */
  retries: number;
  baseDelayMs: number;
  maxDelayMs: number;
}

/** 0.5 s doubling to 8 s with jitter, 6 tries: a minute of a flaky link before giving up. */
export const DEFAULT_RETRY: RetryPolicy = { retries: 5, baseDelayMs: 500, maxDelayMs: 8000 };

export interface HubFetchOptions {
  context: HubContext;
  signal?: AbortSignal;
  retry?: RetryPolicy;
  /** Statuses handed back rather than thrown (the download handles 416 itself); default: 2xx. */
  accept?: (status: number) => boolean;
}

const RETRIED_STATUSES = new Set([408, 429, 500, 502, 503, 504]);

export function hubFetcher(options: HubFetchOptions): typeof fetch {
  const { context, signal } = options;
  const retry = options.retry ?? DEFAULT_RETRY;
  const accept = options.accept ?? ((status: number) => status >= 200 && status < 300);
  const origin = new URL(context.settings.endpoint).origin;
  const token = context.settings.token?.value;

  return async (input: string | URL | Request, init: RequestInit = {}) => {
    const url = input instanceof Request ? input.url : String(input);
    const headers = new Headers(init.headers);
    if (token && new URL(url).origin === origin) headers.set('authorization', `Bearer ${token}`);
    for (let attempt = 0; ; attempt++) {
      if (signal?.aborted) throw cancelledError();
      let response: Response;
      try {
        response = await fetch(url, { ...init, headers, signal: either(signal, init.signal ?? undefined) });
      } catch (error) {
        if (signal?.aborted) throw cancelledError();
        if (attempt >= retry.retries) throw unreachableError(context.settings, networkCause(error));
        await backoff(attempt, retry, undefined, signal);
        continue;
      }
      if (accept(response.status)) return response;
      if (RETRIED_STATUSES.has(response.status) && attempt < retry.retries) {
        await response.body?.cancel();
        await backoff(attempt, retry, response.headers.get('retry-after'), signal);
        continue;
      }
      throw answerError(response.status, response.headers.get('x-error-code'), await serverMessage(response), context);
    }
  };
}

function either(first: AbortSignal | undefined, second: AbortSignal | undefined): AbortSignal | undefined {
  return first && second ? AbortSignal.any([first, second]) : (first ?? second);
}

/** The reason a request got no answer, as the system named it (ECONNREFUSED, ENOTFOUND...). */
export function networkCause(error: unknown): string {
  let message = error instanceof Error ? error.message : String(error);
  let current: unknown = error;
  for (let depth = 0; current && depth < 4; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && !code.startsWith('ABORT')) return code;
    if (current instanceof Error) message = current.message;
    current = (current as { cause?: unknown }).cause;
  }
  return message;
}

/** Waits before try `attempt + 1`: Retry-After when the server gave one, else exponential with jitter. */
export async function backoff(attempt: number, retry: RetryPolicy, retryAfter: string | null | undefined, signal?: AbortSignal): Promise<void> {
  const asked = retryAfter ? Number(retryAfter) * 1000 : Number.NaN;
  const exponential = Math.min(retry.maxDelayMs, retry.baseDelayMs * 2 ** attempt);
  const delay = Number.isFinite(asked) ? Math.min(asked, retry.maxDelayMs * 4) : exponential * (0.5 + Math.random() / 2);
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(done, delay);
    function done() {
      signal?.removeEventListener('abort', aborted);
      resolve();
    }
    function aborted() {
      clearTimeout(timer);
      reject(cancelledError());
    }
    signal?.addEventListener('abort', aborted, { once: true });
  });
}

async function serverMessage(response: Response): Promise<string | undefined> {
  const header = response.headers.get('x-error-message');
  if (header) return header;
  try {
    const text = (await response.text()).slice(0, 2000);
    const parsed = JSON.parse(text) as { error?: unknown; message?: unknown };
    const message = parsed.error ?? parsed.message;
    return typeof message === 'string' ? message : undefined;
  } catch {
    return undefined;
  }
}
