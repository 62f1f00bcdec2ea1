/**
 * Writes a set of files so that either all of them appear or none does: every file goes to a temp
 * name beside its target first (written and fsynced), and only when all are down are they renamed
 * into place. A full disk or a read-only folder fails the first phase, which removes its temps. A
 * rename that fails (a folder where a file should go) takes back the files it had added; the ones
 * that replaced an older file cannot be taken back, and the error names them.
 */

import { randomBytes } from 'node:crypto';
import { lstat, mkdir, open, rename, rm } from 'node:fs/promises';
import path from 'node:path';

export interface PlannedFile {
  /** Absolute path. */
  path: string;
  data: string | Uint8Array;
}

/** Writes and syncs one file; tests pass one that fails the way a full disk does. */
export type WriteDurably = (file: string, data: string | Uint8Array) => Promise<void>;

export const writeDurably: WriteDurably = async (file, data) => {
  const handle = await open(file, 'wx');
  try {
    await handle.writeFile(data);
    await handle.sync();
  } finally {
    await handle.close();
  }
};

export class WriteError extends Error {
  constructor(
    readonly file: string,
    readonly code: string,
    /** Files that were replaced with their new contents before the failure; empty when nothing changed. */
    readonly kept: readonly string[] = [],
  ) {
    super(`cannot write ${file} (${code})`);
    this.name = 'WriteError';
  }
}

/** What a failed write left, as the end of a sentence: "nothing was written", or which files were already replaced. */
export function keptAfter(error: WriteError): string {
  if (error.kept.length === 0) return 'nothing was written';
  return `nothing else was written, but ${error.kept.join(', ')} had already been replaced with the new version`;
}

/** Whether a folder takes new files: writes and removes a probe, so a read-only one is found before any work. */
export async function checkWritable(folder: string, write: WriteDurably = writeDurably): Promise<void> {
  const probe = path.join(folder, `.folio-write-check.${randomBytes(6).toString('hex')}.tmp`);
  try {
    await write(probe, '');
  } catch (error) {
    throw new WriteError(folder, errorCode(error));
  } finally {
    await rm(probe, { force: true }).catch(() => undefined);
  }
}

/** Throws a WriteError naming the file that could not be written; nothing is left behind then. */
export async function writeAllOrNothing(files: readonly PlannedFile[], write: WriteDurably = writeDurably): Promise<void> {
  const temps: { temp: string; target: string }[] = [];
  const createdFolders: string[] = [];
  try {
    for (const file of files) {
      const folder = path.dirname(file.path);
      const created = await mkdir(folder, { recursive: true }).catch((error: unknown) => {
        throw new WriteError(folder, errorCode(error));
      });
      if (created) createdFolders.push(created);
      const temp = path.join(folder, `.${path.basename(file.path)}.${randomBytes(6).toString('hex')}.tmp`);
      temps.push({ temp, target: file.path });
      await write(temp, file.data).catch((error: unknown) => {
        throw new WriteError(file.path, errorCode(error));
      });
    }
  } catch (error) {
    await Promise.all(temps.map(({ temp }) => rm(temp, { force: true }).catch(() => undefined)));
    for (const folder of createdFolders.reverse()) await rm(folder, { recursive: true, force: true }).catch(() => undefined);
    throw error;
  }
  const added: string[] = [];
  const replaced: string[] = [];
  for (const [index, { temp, target }] of temps.entries()) {
    try {
      const existed = await lstat(target).then(() => true, () => false);
      await rename(temp, target);
      (existed ? replaced : added).push(target);
    } catch (error) {
      await Promise.all(temps.slice(index).map((left) => rm(left.temp, { force: true }).catch(() => undefined)));
      await Promise.all(added.map((file) => rm(file, { force: true }).catch(() => undefined)));
      for (const folder of createdFolders.reverse()) await rm(folder, { recursive: true, force: true }).catch(() => undefined);
      throw new WriteError(target, errorCode(error), replaced);
    }
  }
}

function errorCode(error: unknown): string {
  const { code, message } = error as NodeJS.ErrnoException;
  return code ?? message ?? String(error);
}
