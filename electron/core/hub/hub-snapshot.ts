/**
 * A repo at one revision, fetched into the shared cache: its commit and files listed through
 * @huggingface/hub (model info, the paged tree), then each file downloaded by downloadBlob and
 * linked into `snapshots/<commit>/`, and `refs/<revision>` written, as huggingface_hub leaves them.
 * Files the cache already holds (from any tool) are linked, not fetched. Offline (HF_HUB_OFFLINE,
 * or no network), a snapshot the cache holds for the revision is used as it is.
 */

import { readdir, realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import { listFiles, modelInfo } from '@huggingface/hub';
import { downloadBlob, type Digest } from './blob-download.js';
import { blobPath, linkIntoSnapshot, readRef, repoCacheDir, sizeOf, snapshotDir, writeRef } from './hub-cache.js';
import { HubError, type HubContext } from './hub-error.js';
import { hubFetcher, type RetryPolicy } from './hub-fetch.js';
import type { HubSettings } from './hub-settings.js';
import { TransferMeter, type TransferProgress } from './transfer-meter.js';

export interface HubFile {
  path: string;
  size: number;
  /** The blob's name in the cache: the LFS sha256, else git's blob id. */
  etag: string;
  digest: Digest;
}

export interface RepoSnapshot {
  settings: HubSettings;
  repo: string;
  /** As asked: a branch, tag or commit. */
  revision: string;
  commit: string;
  /** The model card's `license:` (e.g. `cc-by-nc-4.0`); undefined when it has none. */
  license: string | undefined;
  gated: boolean;
  files: HubFile[];
  /** `models--owner--name/` in the cache. */
  repoDir: string;
  /** `snapshots/<commit>/`: the repo's files as a folder. */
  dir: string;
  /** Listed from the cache alone (offline): its files are what the cache holds, not checked against the Hub. */
  offline: boolean;
}

export interface SnapshotRequest {
  settings: HubSettings;
  repo: string;
  revision?: string;
  signal?: AbortSignal;
  retry?: RetryPolicy;
}

export async function openSnapshot(request: SnapshotRequest): Promise<RepoSnapshot> {
  const { settings, repo } = request;
  const revision = request.revision ?? 'main';
  const repoDir = repoCacheDir(settings.cacheDir, repo);
  const context: HubContext = { settings, repo, revision };
  if (settings.offline) return cachedSnapshot(settings, repo, revision, 'HF_HUB_OFFLINE is set');
  const fetch = hubFetcher({ context, signal: request.signal, retry: request.retry });
  let info;
  try {
    info = await modelInfo({ name: repo, revision, hubUrl: settings.endpoint, fetch, additionalFields: ['sha', 'cardData'] });
  } catch (error) {
    if (error instanceof HubError && error.code === 'no-network') return cachedSnapshot(settings, repo, revision, error.message, error);
    throw error;
  }
  const commit = info.sha;
  const files: HubFile[] = [];
  for await (const entry of listFiles({ repo: { type: 'model', name: repo }, revision: commit, recursive: true, hubUrl: settings.endpoint, fetch })) {
    if (entry.type !== 'file') continue;
    const digest: Digest = entry.lfs ? { kind: 'sha256', value: entry.lfs.oid } : { kind: 'git-blob', value: entry.oid ?? '' };
    files.push({ path: entry.path, size: entry.lfs?.size ?? entry.size, etag: digest.value, digest });
  }
  const card = info.cardData as { license?: unknown } | undefined;
  return {
    settings,
    repo,
    revision,
    commit,
    license: typeof card?.license === 'string' ? card.license : undefined,
    gated: Boolean(info.gated),
    files,
    repoDir,
    dir: snapshotDir(repoDir, commit),
    offline: false,
  };
}

/** The bytes still to fetch of `files`: less the blobs the cache holds whole and the parts of `.incomplete` ones. */
export async function bytesToFetch(snapshot: RepoSnapshot, files: readonly HubFile[]): Promise<number> {
  let missing = 0;
  for (const file of files) {
    const blob = blobPath(snapshot.repoDir, file.etag);
    if ((await sizeOf(blob)) === file.size) continue;
    const partial = (await sizeOf(`${blob}.incomplete`)) ?? 0;
    missing += file.size - (partial <= file.size ? partial : 0);
  }
  return missing;
}

export interface FetchOptions {
  signal?: AbortSignal;
  retry?: RetryPolicy;
  onProgress?(progress: TransferProgress): void;
  onNote?(note: string): void;
}

/** Fetches `files` (resuming, checked) and links them into the snapshot; writes `refs/<revision>`. */
export async function fetchFiles(snapshot: RepoSnapshot, files: readonly HubFile[], options: FetchOptions = {}): Promise<void> {
  if (snapshot.offline) {
    for (const file of files) {
      if ((await sizeOf(path.join(snapshot.dir, file.path))) === undefined) throw offlineError(snapshot, `${file.path} is not in it`);
    }
    return;
  }
  const total = files.reduce((sum, file) => sum + file.size, 0);
  const meter = new TransferMeter(total - (await bytesToFetch(snapshot, files)), total);
  await writeRef(snapshot.repoDir, snapshot.revision, snapshot.commit);
  for (const file of files) {
    options.onProgress?.(meter.progress(file.path));
    await downloadBlob({
      context: { settings: snapshot.settings, repo: snapshot.repo, revision: snapshot.commit, file: file.path },
      url: resolveUrl(snapshot, file.path),
      repoDir: snapshot.repoDir,
      etag: file.etag,
      size: file.size,
      digest: file.digest,
      signal: options.signal,
      retry: options.retry,
      onBytes: (delta) => {
        meter.add(delta);
        options.onProgress?.(meter.progress(file.path));
      },
      onNote: options.onNote,
    });
    await linkIntoSnapshot(snapshot.repoDir, snapshot.commit, file.path, file.etag);
  }
  options.onProgress?.(meter.progress());
}

function resolveUrl(snapshot: RepoSnapshot, file: string): string {
  return `${snapshot.settings.endpoint}/${snapshot.repo}/resolve/${snapshot.commit}/${file.split('/').map(encodeURIComponent).join('/')}`;
}

/** The snapshot the cache holds for `revision` (its ref, or the commit itself), listed from its folder. */
async function cachedSnapshot(settings: HubSettings, repo: string, revision: string, why: string, cause?: HubError): Promise<RepoSnapshot> {
  const repoDir = repoCacheDir(settings.cacheDir, repo);
  const commit = await readRef(repoDir, revision);
  const dir = commit && snapshotDir(repoDir, commit);
  const files = dir ? await listSnapshot(dir).catch(() => undefined) : undefined;
  if (!commit || !dir || !files || files.length === 0) {
    throw cause ?? new HubError('offline', `${why}, and the cache (${settings.cacheDir}) holds no snapshot of ${repo}@${revision}`);
  }
  return { settings, repo, revision, commit, license: undefined, gated: false, files, repoDir, dir, offline: true };
}

async function listSnapshot(dir: string, under = ''): Promise<HubFile[]> {
  const files: HubFile[] = [];
  for (const entry of await readdir(path.join(dir, under), { withFileTypes: true })) {
    const relative = under ? `${under}/${entry.name}` : entry.name;
    const full = path.join(dir, relative);
    if (entry.isDirectory()) files.push(...(await listSnapshot(dir, relative)));
    else {
      const blob = path.basename(await realpath(full));
      const digest: Digest = /^[0-9a-f]{64}$/.test(blob) ? { kind: 'sha256', value: blob } : { kind: 'git-blob', value: blob };
      files.push({ path: relative, size: (await stat(full)).size, etag: blob, digest });
    }
  }
  return files;
}

function offlineError(snapshot: RepoSnapshot, what: string): HubError {
  return new HubError('offline', `the Hub cannot be reached and the cached snapshot of ${snapshot.repo}@${snapshot.revision} (${snapshot.dir}) is incomplete: ${what}`);
}
