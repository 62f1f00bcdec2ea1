/**
 * Which corpus files a run converts. CI takes a fixed, documented part: every 8th file by sorted
 * name, plus files known to be hostile (hangs, crashes, huge or broken structures in pdf.js's own
 * bug reports), so the costly cases are always covered. `FOLIO_CORPUS=all` takes all of them.
 */

import { readFile } from 'node:fs/promises';
import path from 'node:path';

export const CI_STRIDE = 8;

/**
 * Always in the CI part: files that hang, loop or break pdf.js, chosen from the full-corpus run
 * (the slowest, every one that failed or timed out) and from fuzzed files in pdf.js's bug reports.
 */
export const KNOWN_HOSTILE: readonly string[] = [
  'operator_list_cycle.pdf', // hangs the page: cut off by the page time limit
  'issue17065.pdf', // slowest pages
  'issue12810.pdf',
  'issue16473.pdf',
  'Pages-tree-refs.pdf', // circular page tree
  'issue21436.pdf', // page tree kids not an array
  'poppler-742-0-fuzzed.pdf',
  'poppler-937-0-fuzzed.pdf',
  'poppler-395-0-fuzzed.pdf',
  'REDHAT-1531897-0.pdf',
  'bug1020226.pdf',
  'GHOSTSCRIPT-698804-1-fuzzed.pdf',
  'PDFBOX-3148-2-fuzzed.pdf',
  'ContentStreamCycleType3insideType3.pdf',
  'bug1606566.pdf', // not a PDF
  'pr6531_1.pdf', // encrypted, no password known
  'issue21579.pdf', // encrypted, manifest password refused
  'bug1782186.pdf', // encrypted, opens with the manifest password
];

export type CorpusMode = 'ci' | 'all';

export function corpusMode(env: NodeJS.ProcessEnv): CorpusMode {
  return env.FOLIO_CORPUS === 'all' ? 'all' : 'ci';
}

/** The files of one run, in sorted order; hostile files not in the corpus are ignored. */
export function selectCorpusFiles(names: readonly string[], mode: CorpusMode): string[] {
  const sorted = [...names].sort();
  if (mode === 'all') return sorted;
  const hostile = new Set(KNOWN_HOSTILE);
  return sorted.filter((name, index) => index % CI_STRIDE === 0 || hostile.has(name));
}

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
