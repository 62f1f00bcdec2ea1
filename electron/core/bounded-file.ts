/**
 * Files Folio reads because someone named them (an input, a model package's files, a benchmark's
 * tests) are read only when they are regular files of a size known before the first byte: a device
 * (`/dev/zero`), a FIFO or a socket would otherwise be read until memory runs out, or block forever.
 * The file is opened without blocking, checked on the open handle (so a swapped path cannot slip
 * past), and read to its size and no further.
 */

import { constants, type Stats } from 'node:fs';
import { open, stat } from 'node:fs/promises';

/** Why a file is not one Folio reads: not a regular file (named by its kind), or larger than `maxBytes`. */
export class UnfitFileError extends Error {
  constructor(
    readonly reason: 'not-regular' | 'too-large',
    message: string,
  ) {
    super(message);
    this.name = 'UnfitFileError';
  }
}

/** The largest document (PDF or image) Folio opens: pdf.js holds the whole file in memory. */
export const MAX_DOCUMENT_BYTES = 2 * 1024 ** 3;

export function fileKind(stats: Stats): string {
  if (stats.isDirectory()) return 'a folder';
  if (stats.isCharacterDevice()) return 'a character device';
  if (stats.isBlockDevice()) return 'a block device';
  if (stats.isFIFO()) return 'a named pipe (FIFO)';
  if (stats.isSocket()) return 'a socket';
  if (stats.isSymbolicLink()) return 'a symbolic link';
  return 'a regular file';
}

/** The problem with reading `file` (what it is, or its size against the limit), or undefined when it may be read. */
export function unfitFile(file: string, stats: Stats, maxBytes: number, what = 'file'): UnfitFileError | undefined {
  if (!stats.isFile()) return new UnfitFileError('not-regular', `${file}: is ${fileKind(stats)}, not a ${what} Folio can read.`);
  if (stats.size > maxBytes) return new UnfitFileError('too-large', `${file}: is ${megabytes(stats.size)}, larger than the ${megabytes(maxBytes)} Folio reads as a ${what}.`);
  return undefined;
}

/** Throws UnfitFileError unless `file` (after links) is a regular file of at most `maxBytes`. */
export async function checkFile(file: string, maxBytes: number, what?: string): Promise<Stats> {
  const stats = await stat(file);
  const problem = unfitFile(file, stats, maxBytes, what);
  if (problem) throw problem;
  return stats;
}

/** The whole file, when it is a regular file of at most `maxBytes`; else UnfitFileError (or the file system's error). */
export async function readBoundedFile(file: string, maxBytes: number, what?: string): Promise<Buffer> {
  // O_NONBLOCK: opening a FIFO with no writer would wait forever
  const handle = await open(file, constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    const stats = await handle.stat();
    const problem = unfitFile(file, stats, maxBytes, what);
    if (problem) throw problem;
    const bytes = Buffer.alloc(stats.size);
    let filled = 0;
    while (filled < bytes.length) {
      const { bytesRead } = await handle.read(bytes, filled, bytes.length - filled, filled);
      if (bytesRead === 0) break;
      filled += bytesRead;
    }
    return filled === bytes.length ? bytes : bytes.subarray(0, filled);
  } finally {
    await handle.close();
  }
}

export function megabytes(bytes: number): string {
  return bytes >= 1024 ** 3 ? `${(bytes / 1024 ** 3).toFixed(1)} GiB` : `${(bytes / 1024 ** 2).toFixed(1)} MiB`;
}
