/** The "Open Recent" list: newest first, no repeats, a few entries, kept in the data folder. */

import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { writeFileAtomic } from '../core/output/atomic-write.js';

export const RECENT_LIMIT = 10;
const RECENT_FILE = 'recent-documents.json';

export function withRecent(list: readonly string[], file: string, limit = RECENT_LIMIT): string[] {
  return [file, ...list.filter((entry) => entry !== file)].slice(0, limit);
}

export async function loadRecent(dir: string): Promise<string[]> {
  try {
    const parsed: unknown = JSON.parse(await readFile(path.join(dir, RECENT_FILE), 'utf8'));
    return Array.isArray(parsed) ? parsed.filter((entry): entry is string => typeof entry === 'string').slice(0, RECENT_LIMIT) : [];
  } catch {
    // none yet, or damaged: an empty menu is all that is lost
    return [];
  }
}

export async function saveRecent(dir: string, list: readonly string[]): Promise<void> {
  await writeFileAtomic(path.join(dir, RECENT_FILE), JSON.stringify(list));
}
