/** The passwords of the corpus's encrypted files, from its `manifest.json`. */

import { readFile } from 'node:fs/promises';
import path from 'node:path';

/** Passwords by file name, from the corpus's `manifest.json` if it has one. */
export async function readCorpusPasswords(corpusRoot: string): Promise<Map<string, string>> {
  const text = await readFile(path.join(corpusRoot, 'manifest.json'), 'utf8').catch(() => undefined);
  if (text === undefined) return new Map();
  const entries = JSON.parse(text) as unknown;
  const passwords = new Map<string, string>();
  if (!Array.isArray(entries)) return passwords;
  for (const entry of entries as { file?: unknown; password?: unknown }[]) {
    if (typeof entry.file === 'string' && typeof entry.password === 'string') passwords.set(entry.file, entry.password);
  }
  return passwords;
}
