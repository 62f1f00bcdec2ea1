/**
 * One file of a repo into the cache's `blobs/`, as huggingface_hub lays it out, with what
 * @huggingface/hub's download lacks: a dropped connection resumes with `Range` from the bytes
 * already on disk (so a drop costs only what was in flight), the file is checked against the Hub's
 * digest (sha256 for LFS files, git's blob id for the others) and fetched again once when it does
 * not match, a stalled connection is dropped and resumed, and a cancelled or interrupted download
 * leaves `<etag>.incomplete` for the next one (Folio's or huggingface_hub's) to resume.
 */

import { createHash, type Hash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, open, rename, rm, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { cancelledError, HubError, unreachableError, type HubContext } from './hub-error.js';
import { backoff, DEFAULT_RETRY, hubFetcher, networkCause, type RetryPolicy } from './hub-fetch.js';
import { blobPath, lockBlob, sizeOf } from './hub-cache.js';

export interface Digest {
  /** `sha256` of the bytes (LFS files), or git's blob id (sha1 of `blob <size>\0` and the bytes). */
  kind: 'sha256' | 'git-blob';
  value: string;
}

export interface BlobRequest {
  /** `file` names the repo's file in messages. */
  context: HubContext & { file: string };
  /** The file's `resolve` address; the CDN it redirects to is followed. */
  url: string;
  repoDir: string;
  etag: string;
  size: number;
  digest: Digest;
  signal?: AbortSignal;
  retry?: RetryPolicy;
  /** Bytes newly on disk; negative when a download starts over. */
  onBytes(delta: number): void;
  /** Something the user should hear about (a mismatch fetched again, a server that ignored Range). */
  onNote?(note: string): void;
  /** A connection that sends nothing for this long is dropped and resumed; default 60 s. */
  stallMs?: number;
}

/** Written to disk in pieces this large: fewer system calls than the socket's 16-64 KB chunks. */
const WRITE_SIZE = 1 << 20;

/** Downloads the blob unless the cache has it whole; resolves once `blobs/<etag>` is complete and checked. */
export async function downloadBlob(request: BlobRequest): Promise<void> {
  const { context, repoDir, etag, size } = request;
  const blob = blobPath(repoDir, etag);
  if ((await sizeOf(blob)) === size) return;
  await mkdir(path.dirname(blob), { recursive: true });
  const release = await lockBlob(context.settings.cacheDir, context.repo, etag, context.file);
  try {
    const incomplete = `${blob}.incomplete`;
    for (let pass = 0; pass < 2; pass++) {
      const digest = await fetchToFile(request, incomplete);
      if (digest === request.digest.value) {
        await rename(incomplete, blob);
        return;
      }
      await rm(incomplete, { force: true });
      request.onBytes(-size);
      if (pass === 0) request.onNote?.(`${context.file}: the bytes received do not match the Hub's ${request.digest.kind} (${short(digest)} instead of ${short(request.digest.value)}); fetching it again`);
      else {
        throw new HubError(
          'integrity',
          `${context.file} of ${context.repo}: downloaded twice, and neither copy matches the Hub's ${request.digest.kind} ${request.digest.value} (got ${digest}); ` +
            'the copy was deleted. Something between here and the Hub is changing data (a proxy, a failing disk or memory); try again later or from another network',
        );
      }
    }
  } finally {
    await release();
  }
}

/** The file's bytes into `target`, resuming from what is there; resolves with their digest. */
async function fetchToFile(request: BlobRequest, target: string): Promise<string> {
  const { context, size, signal } = request;
  const retry = request.retry ?? DEFAULT_RETRY;
  // the bytes already there (from an earlier run, Folio's or huggingface_hub's) are hashed from disk
  const file = await HashedFile.open(target, request.digest.kind, size, request.onBytes);
  let failures = 0;
  try {
    while (file.offset < size) {
      if (signal?.aborted) throw cancelledError();
      const before = file.offset;
      try {
        await fetchRange(request, file);
        if (file.offset > size) throw new Error(`the server sent ${file.offset} bytes of a ${size}-byte file`);
        if (file.offset < size) throw new Error('the connection closed early');
      } catch (error) {
        await file.flush().catch(() => undefined);
        if (signal?.aborted) throw cancelledError();
        if (error instanceof HubError) throw error;
        if ((error as NodeJS.ErrnoException).code === 'ENOSPC') throw diskFull(request, target);
        if (file.offset > size) await file.restart();
        // a connection that brought bytes resets the count: only a link that makes no progress gives up
        failures = file.offset > before ? 0 : failures + 1;
        if (failures === 0 && file.offset < size) request.onNote?.(`${context.file}: the connection dropped after ${file.offset.toLocaleString('en-US')} bytes (${networkCause(error)}); resuming from there`);
        if (failures > retry.retries) throw unreachableError(context.settings, `${networkCause(error)} while downloading ${context.file}`);
        await backoff(failures, retry, undefined, signal);
      }
    }
  } finally {
    await file.close();
  }
  return file.hexDigest();
}

/** One request from the file's current length to its end, written as it arrives. */
async function fetchRange(request: BlobRequest, file: HashedFile): Promise<void> {
  const stall = new AbortController();
  const stallMs = request.stallMs ?? 60_000;
  let timer = setTimeout(() => stall.abort(), stallMs);
  try {
    const fetcher = hubFetcher({
      context: request.context,
      signal: request.signal,
      retry: request.retry,
      accept: (status) => status === 200 || status === 206 || status === 416,
    });
    const response = await fetcher(request.url, { headers: file.offset > 0 ? { range: `bytes=${file.offset}-` } : {}, signal: stall.signal });
    const start = response.status === 206 ? Number(/^bytes (\d+)-/.exec(response.headers.get('content-range') ?? '')?.[1]) : 0;
    if (response.status === 416 || start !== file.offset) {
      // the server will not continue from here (416, a Range ignored or answered elsewhere): start the file over
      await response.body?.cancel();
      if (file.offset > 0) request.onNote?.(`${request.context.file}: the server would not resume at byte ${file.offset}; starting the file over`);
      await file.restart();
      if (response.status === 416) return;
      return fetchRange(request, file);
    }
    if (!response.body) throw new Error('an empty answer');
    const reader = response.body.getReader();
    for (let read = await reader.read(); !read.done; read = await reader.read()) {
      clearTimeout(timer);
      timer = setTimeout(() => stall.abort(), stallMs);
      await file.append(read.value);
    }
    await file.flush();
  } finally {
    clearTimeout(timer);
  }
}

/** The file being written, with its hash kept to exactly the bytes on disk. */
class HashedFile {
  private pending: Uint8Array[] = [];
  private pendingBytes = 0;
  private hash: Hash;
  /** Bytes on disk and in the hash. */
  offset = 0;

  private constructor(
    private readonly handle: FileHandle,
    private readonly digest: Digest['kind'],
    private readonly size: number,
    private readonly onBytes: (delta: number) => void,
  ) {
    this.hash = newHash(digest, size);
  }

  /** Opens `target` to append to, the bytes already there hashed from disk. */
  static async open(target: string, digest: Digest['kind'], size: number, onBytes: (delta: number) => void): Promise<HashedFile> {
    const have = (await sizeOf(target)) ?? 0;
    const file = new HashedFile(await open(target, 'a'), digest, size, onBytes);
    if (have > size) await file.restart();
    else if (have > 0) {
      for await (const chunk of createReadStream(target, { start: 0, end: have - 1 })) file.hash.update(chunk as Buffer);
      file.offset = have;
    }
    return file;
  }

  async append(chunk: Uint8Array): Promise<void> {
    this.pending.push(chunk);
    this.pendingBytes += chunk.byteLength;
    if (this.pendingBytes >= WRITE_SIZE) await this.flush();
  }

  async flush(): Promise<void> {
    if (this.pendingBytes === 0) return;
    const buffer = Buffer.concat(this.pending, this.pendingBytes);
    this.pending = [];
    this.pendingBytes = 0;
    for (let written = 0; written < buffer.length; ) {
      // a short write (a disk filling up) is followed by the error on the next one
      const { bytesWritten } = await this.handle.write(buffer, written, buffer.length - written);
      this.hash.update(buffer.subarray(written, written + bytesWritten));
      written += bytesWritten;
      this.offset += bytesWritten;
      this.onBytes(bytesWritten);
    }
  }

  async restart(): Promise<void> {
    this.pending = [];
    this.pendingBytes = 0;
    await this.handle.truncate(0);
    this.onBytes(-this.offset);
    this.offset = 0;
    this.hash = newHash(this.digest, this.size);
  }

  hexDigest(): string {
    return this.hash.digest('hex');
  }

  close(): Promise<void> {
    return this.handle.close();
  }
}

function newHash(kind: Digest['kind'], size: number): Hash {
  return kind === 'sha256' ? createHash('sha256') : createHash('sha1').update(`blob ${size}\0`);
}

function short(digest: string): string {
  return `${digest.slice(0, 12)}…`;
}

function diskFull(request: BlobRequest, target: string): HubError {
  return new HubError(
    'disk-full',
    `the disk holding ${request.repoDir} is full (no space left while writing ${request.context.file}); ` +
      `free some space, then run the same download again: it resumes from the ${target.endsWith('.incomplete') ? 'bytes already saved' : 'start'}`,
  );
}
