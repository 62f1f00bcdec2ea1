/**
 * The shared cache in huggingface_hub's layout, so that Python's `huggingface_hub`, `transformers`
 * and Folio read each other's downloads:
 *
 *     <cache>/models--owner--name/blobs/<etag>             the file's bytes (sha256 for LFS files, git's blob id else)
 *     <cache>/models--owner--name/blobs/<etag>.incomplete  a download under way, resumed from its length
 *     <cache>/models--owner--name/snapshots/<commit>/<path> a relative symlink to ../../blobs/<etag>
 *     <cache>/models--owner--name/refs/<revision>           the commit the revision pointed to
 */

import { constants } from 'node:fs';
import { copyFile, lstat, mkdir, open, readFile, rm, stat, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { getRepoFolderName } from '@huggingface/hub';
import { HubError } from './hub-error.js';

export function repoCacheDir(cacheDir: string, repo: string): string {
  return path.join(cacheDir, getRepoFolderName({ type: 'model', name: repo }));
}

export function blobPath(repoDir: string, etag: string): string {
  return path.join(repoDir, 'blobs', etag);
}

export function snapshotDir(repoDir: string, commit: string): string {
  return path.join(repoDir, 'snapshots', commit);
}

/** Writes `refs/<revision>` as huggingface_hub does: the commit alone, no newline. */
export async function writeRef(repoDir: string, revision: string, commit: string): Promise<void> {
  if (revision === commit) return;
  const file = path.join(repoDir, 'refs', revision);
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, commit);
}

export async function readRef(repoDir: string, revision: string): Promise<string | undefined> {
  if (/^[0-9a-f]{40}$/.test(revision)) return revision;
  try {
    const commit = (await readFile(path.join(repoDir, 'refs', revision), 'utf8')).trim();
    return /^[0-9a-f]{40}$/.test(commit) ? commit : undefined;
  } catch {
    return undefined;
  }
}

/** The length of a file, or undefined when there is none. */
export async function sizeOf(file: string): Promise<number | undefined> {
  try {
    return (await stat(file)).size;
  } catch {
    return undefined;
  }
}

/**
 * Points `snapshots/<commit>/<file>` at the blob with a relative symlink, as huggingface_hub
 * does; where the file system has no symlinks the blob is copied.
 */
export async function linkIntoSnapshot(repoDir: string, commit: string, file: string, etag: string): Promise<string> {
  const pointer = path.join(snapshotDir(repoDir, commit), ...file.split('/'));
  const blob = blobPath(repoDir, etag);
  await mkdir(path.dirname(pointer), { recursive: true });
  const target = path.relative(path.dirname(pointer), blob);
  try {
    const existing = await lstat(pointer);
    if (existing.isSymbolicLink() && (await sizeOf(pointer)) === (await sizeOf(blob))) return pointer;
    await rm(pointer, { force: true });
  } catch {
    // no pointer yet
  }
  try {
    await symlink(target, pointer);
  } catch {
    await copyFile(blob, pointer);
  }
  return pointer;
}

/**
 * One writer per blob across processes: `.locks/models--owner--name/<etag>.folio-lock` holds the
 * writer's pid, and a lock whose process is gone is taken over. (huggingface_hub's own `.lock`
 * files are flock()ed, which Node cannot do; two Folios never write one blob at once.)
 */
export async function lockBlob(cacheDir: string, repo: string, etag: string, file: string): Promise<() => Promise<void>> {
  const lock = path.join(cacheDir, '.locks', getRepoFolderName({ type: 'model', name: repo }), `${etag}.folio-lock`);
  await mkdir(path.dirname(lock), { recursive: true });
  for (let tries = 0; tries < 3; tries++) {
    try {
      const handle = await open(lock, constants.O_CREAT | constants.O_EXCL | constants.O_WRONLY);
      await handle.writeFile(String(process.pid));
      await handle.close();
      return () => rm(lock, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = Number((await readFile(lock, 'utf8').catch(() => '')).trim());
      if (holder && holder !== process.pid && processAlive(holder)) {
        throw new HubError('server', `${file} of ${repo} is being downloaded by another Folio (process ${holder}); wait for it to finish, or stop it`);
      }
      await rm(lock, { force: true });
    }
  }
  throw new HubError('server', `could not lock ${lock} for ${file}`);
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
