/**
 * The Hugging Face Hub's own conventions, read as Python's `huggingface_hub` reads them, so that
 * Folio and other tools share one cache and one login: HF_ENDPOINT, HF_TOKEN (else the token file
 * `huggingface-cli login` writes), HF_HUB_CACHE and HF_HOME, HF_HUB_OFFLINE.
 */

import { readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export const DEFAULT_ENDPOINT = 'https://huggingface.co';

export interface HubToken {
  /** Sent as `Authorization: Bearer`; never printed, logged or written by Folio. */
  value: string;
  /** Where it came from, for messages: `HF_TOKEN` or the token file's path. */
  source: string;
}

export interface HubSettings {
  /** Without a trailing slash. */
  endpoint: string;
  token: HubToken | undefined;
  /** The shared cache: `models--owner--name/{blobs,snapshots,refs}` below it. */
  cacheDir: string;
  /** HF_HUB_OFFLINE: only what the cache holds is used. */
  offline: boolean;
  /** Where a token file is looked for, for the message that asks for one. */
  tokenFile: string;
}

/** `$HF_HOME`, else `$XDG_CACHE_HOME/huggingface`, else `~/.cache/huggingface`. */
export function hfHome(env: NodeJS.ProcessEnv = process.env, home = os.homedir()): string {
  return expandHome(env.HF_HOME || path.join(env.XDG_CACHE_HOME || path.join(home, '.cache'), 'huggingface'), home);
}

export function hubSettings(env: NodeJS.ProcessEnv = process.env, home = os.homedir()): HubSettings {
  const base = hfHome(env, home);
  const tokenFile = expandHome(env.HF_TOKEN_PATH || path.join(base, 'token'), home);
  return {
    endpoint: (env.HF_ENDPOINT || DEFAULT_ENDPOINT).replace(/\/+$/, ''),
    token: tokenFrom(env, tokenFile),
    cacheDir: expandHome(env.HF_HUB_CACHE || env.HUGGINGFACE_HUB_CACHE || path.join(base, 'hub'), home),
    offline: isTrue(env.HF_HUB_OFFLINE),
    tokenFile,
  };
}

function tokenFrom(env: NodeJS.ProcessEnv, tokenFile: string): HubToken | undefined {
  for (const name of ['HF_TOKEN', 'HUGGING_FACE_HUB_TOKEN'] as const) {
    const value = env[name]?.trim();
    if (value) return { value, source: name };
  }
  try {
    const value = readFileSync(tokenFile, 'utf8').trim();
    return value ? { value, source: tokenFile } : undefined;
  } catch {
    return undefined;
  }
}

function isTrue(value: string | undefined): boolean {
  return value !== undefined && ['1', 'on', 'yes', 'true'].includes(value.trim().toLowerCase());
}

function expandHome(folder: string, home: string): string {
  return folder === '~' || folder.startsWith('~/') ? path.join(home, folder.slice(1)) : folder;
}
