/**
 * The sentence a server gave for an error. vLLM answers `{"error": {"message", "type", "code"}}`
 * (older releases: `{"object": "error", "message", ...}`), in a response body or inside a stream chunk;
 * proxies in front of it answer with plain text or HTML.
 */

const LONGEST_MESSAGE = 300;

export function serverMessage(payload: unknown): string | undefined {
  if (typeof payload !== 'object' || payload === null) return undefined;
  const { error, object, message } = payload as { error?: unknown; object?: unknown; message?: unknown };
  if (typeof error === 'string') return error;
  if (typeof error === 'object' && error !== null) {
    const inner = (error as { message?: unknown }).message;
    if (typeof inner === 'string') return inner;
  }
  if (object === 'error' && typeof message === 'string') return message;
  return undefined;
}

/** The error sentence of a response body, or its text cut short when it holds no JSON error. */
export function messageOfBody(body: string): string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    parsed = undefined;
  }
  const text = serverMessage(parsed) ?? body.replace(/<[^>]*>/g, ' ').replace(/\s+/g, ' ').trim();
  return text.length > LONGEST_MESSAGE ? `${text.slice(0, LONGEST_MESSAGE)}…` : text;
}
