/**
 * Whether a file holds the same bytes as one already open: the same document dropped from another
 * folder, or uploaded twice in browser mode (each upload gets a folder of its own). Sizes are
 * compared first, so a file is hashed only when another has exactly its size.
 */

import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';

/** The first of `candidates` with the same bytes as `file`; undefined when none (or `file` cannot be read). */
export async function findSameContent(file: string, candidates: readonly string[]): Promise<string | undefined> {
  const size = await fileSize(file);
  if (size === undefined) return undefined;
  let digest: string | undefined;
  for (const candidate of candidates) {
    if (candidate === file || (await fileSize(candidate)) !== size) continue;
    digest ??= await sha256(file);
    // a candidate moved or deleted since it was opened is no match
    if ((await sha256(candidate).catch(() => undefined)) === digest) return candidate;
  }
  return undefined;
}

async function fileSize(file: string): Promise<number | undefined> {
  try {
    const info = await stat(file);
    return info.isFile() ? info.size : undefined;
  } catch {
    return undefined;
  }
}

async function sha256(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}
