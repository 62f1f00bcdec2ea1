/**
 * What went wrong talking to the Hub, said in the user's words: each message names the repo, file
 * or folder, and what to do. The token itself never appears in one, only where it came from.
 */

import type { HubSettings } from './hub-settings.js';

export type HubErrorCode =
  | 'gated'
  | 'repo-not-found'
  | 'revision-not-found'
  | 'file-not-found'
  | 'token-refused'
  | 'forbidden'
  | 'no-network'
  | 'server'
  | 'integrity'
  | 'disk-full'
  | 'disk-space'
  | 'offline'
  /** The checkpoint is not one Folio converts (a config field, a tensor), as the exporter names it. */
  | 'refused'
  | 'cancelled';

export class HubError extends Error {
  override readonly name = 'HubError';

  constructor(
    readonly code: HubErrorCode,
    message: string,
  ) {
    super(message);
  }
}

/** What an error answer is about, for its message. */
export interface HubContext {
  settings: HubSettings;
  repo: string;
  revision: string;
  file?: string;
}

/** How to give Folio a token, in words both faces can show. */
export function tokenAdvice(settings: HubSettings): string {
  return `set HF_TOKEN to an access token (${settings.endpoint}/settings/tokens), or log in with "hf auth login", which writes ${settings.tokenFile} for Folio to read`;
}

/**
 * The Hub's error answer as a HubError. The Hub says what it means in `X-Error-Code` (GatedRepo,
 * RepoNotFound, RevisionNotFound, EntryNotFound) and answers 401 for an unknown repo asked without a
 * token, so that a private repo's existence does not show.
 */
export function answerError(status: number, errorCode: string | null, serverMessage: string | undefined, context: HubContext): HubError {
  const { settings, repo, revision, file } = context;
  const page = `${settings.endpoint}/${repo}`;
  const token = settings.token;
  if (errorCode === 'GatedRepo') {
    if (!token || status === 401) {
      return new HubError('gated', `${repo} is gated: its authors ask each user to accept their conditions before downloading. Accept them at ${page} (logged in), then ${tokenAdvice(settings)}`);
    }
    return new HubError('gated', `${repo} is gated and the account of the token from ${token.source} has not been granted access yet: accept the conditions at ${page} (some authors review each request; the page says when you are in)`);
  }
  if (errorCode === 'RepoNotFound') {
    return token
      ? new HubError('repo-not-found', `no model ${repo} on ${settings.endpoint} that the token from ${token.source} may see: check the name (owner/name, as in the model's address)`)
      : new HubError('repo-not-found', `no model ${repo} on ${settings.endpoint}, or it is private: check the name (owner/name, as in the model's address); for a private model, ${tokenAdvice(settings)}`);
  }
  if (errorCode === 'RevisionNotFound') {
    return new HubError('revision-not-found', `${repo} has no revision "${revision}" (a branch, tag or commit); its branches and tags are listed at ${page}/tree/main`);
  }
  if (errorCode === 'EntryNotFound' || (status === 404 && file)) {
    return new HubError('file-not-found', `${repo}@${revision} has no file ${file ?? ''}`.trimEnd());
  }
  if (status === 401 && token) {
    return new HubError('token-refused', `the Hub refused the access token from ${token.source} (${serverMessage ?? 'invalid credentials'}): it may be mistyped, expired or revoked; make a new one at ${settings.endpoint}/settings/tokens`);
  }
  if (status === 401) {
    return new HubError('repo-not-found', `${settings.endpoint} asks for a login to read ${repo}: ${tokenAdvice(settings)}`);
  }
  if (status === 403) {
    return new HubError('forbidden', `${settings.endpoint} refused access to ${repo}${file ? ` (${file})` : ''}${serverMessage ? `: ${serverMessage}` : ''}`);
  }
  if (status === 404) {
    return new HubError('repo-not-found', `no model ${repo} on ${settings.endpoint}: check the name`);
  }
  return new HubError('server', `${settings.endpoint} answered HTTP ${status}${serverMessage ? ` (${serverMessage})` : ''} for ${repo}${file ? ` ${file}` : ''}; try again later`);
}

/** A request that never got an answer: no network, DNS, a refused or reset connection. */
export function unreachableError(settings: HubSettings, cause: string): HubError {
  return new HubError('no-network', `could not reach ${settings.endpoint} (${cause}): check the internet connection, a proxy, or HF_ENDPOINT; models already installed still work`);
}

export function cancelledError(): HubError {
  return new HubError('cancelled', 'cancelled; what was downloaded is kept, and the same download resumes from there');
}
