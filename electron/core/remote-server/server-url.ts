/** Where the OpenAI-compatible API of a server lives, and how to name the server in messages. */

import { FailureError } from '../failure-error.js';

/** `http://gpu-box:8000` and `http://gpu-box:8000/v1` both mean the API under `/v1`, as vLLM serves it. */
export function apiBase(server: string): URL {
  let url: URL;
  try {
    url = new URL(server);
  } catch {
    throw new FailureError('remote', `"${server}" is not a server address; give one like http://gpu-box:8000.`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new FailureError('remote', `"${shownServer(url)}" is not an http(s) address; give one like http://gpu-box:8000.`);
  }
  const path = url.pathname.replace(/\/+$/, '');
  url.pathname = path.endsWith('/v1') ? `${path}/` : `${path}/v1/`;
  url.search = '';
  url.hash = '';
  return url;
}

export function endpoint(base: URL, name: 'chat/completions' | 'models'): URL {
  return new URL(name, base);
}

/** The address without any user:password part, fit for messages and stats. */
export function shownServer(url: URL): string {
  return `${url.protocol}//${url.host}${url.pathname.replace(/\/$/, '')}`;
}
