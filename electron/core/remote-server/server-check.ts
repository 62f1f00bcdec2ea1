/**
 * "Test connection" for the remote engine's server: one GET of `/v1/models`, run in Node (main or the
 * browser mode's bridge, never the sandboxed page), each way it can fail said as what to do. The API
 * key is sent, never written into a message: a server that echoes it back has it cut out.
 */

import type { RemoteServerCheck } from '../../../shared/remote-check.js';
import { withScheme } from '../../../shared/settings.js';
import { boundedText } from './completion-stream.js';
import { messageOfBody } from './server-message.js';
import { apiBase, endpoint, shownServer } from './server-url.js';

/** A server that takes longer than this to list its models will not serve pages well either. */
export const CHECK_TIMEOUT_MS = 10_000;
const MAX_LIST_BYTES = 4 * 1024 * 1024;

export async function checkRemoteServer(address: string, apiKey: string | null, timeoutMs = CHECK_TIMEOUT_MS): Promise<RemoteServerCheck> {
  const typed = withScheme(address.trim());
  let base: URL;
  try {
    base = apiBase(typed);
  } catch {
    return { kind: 'bad-address', server: typed, models: [], message: `"${typed}" is not a server address: give one such as gpu-box:8000 or https://gpu-box.` };
  }
  const server = shownServer(new URL(typed));
  if (base.username || base.password) {
    return { kind: 'bad-address', server, models: [], message: 'Give the address without a user or password; an API key goes in the API key field.' };
  }
  const result = (kind: RemoteServerCheck['kind'], message: string, models: string[] = []): RemoteServerCheck => ({ kind, server, models, message: redact(message, apiKey) });
  const url = endpoint(base, 'models');
  let response: Response;
  try {
    response = await fetch(url, { headers: apiKey ? { authorization: `Bearer ${apiKey}` } : {}, signal: AbortSignal.timeout(timeoutMs), redirect: 'follow' });
  } catch (error) {
    if ((error as Error).name === 'TimeoutError') {
      return result('timeout', `${server} did not answer within ${Math.round(timeoutMs / 1000)} s. Is the server still starting (vLLM loads its model first), or is a firewall in the way?`);
    }
    const code = networkCode(error);
    if (code === 'ECONNREFUSED') return result('refused', `${server} refused the connection: nothing is listening there. Is the server started, and is the port right?`);
    if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return result('not-found', `No computer named ${base.hostname} was found. Check the spelling of the address.`);
    return result('unreachable', `${server} could not be reached (${code ?? (error as Error).message}).`);
  }
  const text = await boundedText(response, MAX_LIST_BYTES, !response.ok).catch(() => undefined);
  if (response.status === 401 || response.status === 403) {
    return apiKey
      ? result('wrong-key', `${server} refused the stored API key (${response.status}). Enter the key the server expects and save it, then test again.`)
      : result('needs-key', `${server} asks for an API key (${response.status}). Enter it in the API key field, save it, then test again.`);
  }
  const notOpenAi = (why: string) => result('not-openai', `${server} answers, but not as an OpenAI-compatible server such as vLLM (${why}). Check the address and port: vLLM serves its API at http://host:8000/v1.`);
  if (!response.ok) return notOpenAi(`${url.pathname} answered ${response.status}${text ? `: ${messageOfBody(text)}` : ''}`);
  const models = text === undefined ? undefined : modelNames(text);
  if (models === undefined) return notOpenAi(`${url.pathname} gave no list of models`);
  if (models.length === 0) return result('reachable', `${server} answers, but lists no model: start it with one (vllm serve <model>).`);
  return result('reachable', `${server} answers and lists ${models.length === 1 ? 'one model' : `${models.length} models`}: ${models.join(', ')}.`, models);
}

/** The ids of an OpenAI `{"object": "list", "data": [{"id"}]}` answer; undefined for anything else. */
export function modelNames(body: string): string[] | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return undefined;
  }
  const data = typeof parsed === 'object' && parsed !== null ? (parsed as { data?: unknown }).data : undefined;
  if (!Array.isArray(data)) return undefined;
  return data.map((entry: unknown) => (typeof entry === 'object' && entry !== null ? (entry as { id?: unknown }).id : undefined)).filter((id): id is string => typeof id === 'string');
}

function networkCode(error: unknown): string | undefined {
  const cause = (error as { cause?: { code?: unknown; errors?: { code?: unknown }[] } }).cause;
  if (typeof cause?.code === 'string') return cause.code;
  // localhost tried over both IPv6 and IPv4: an AggregateError of the two refusals
  const inner = cause?.errors?.find((entry) => typeof entry.code === 'string')?.code;
  return typeof inner === 'string' ? inner : undefined;
}

function redact(text: string, apiKey: string | null): string {
  return apiKey ? text.split(apiKey).join('[API key]') : text;
}
