/** The documents the text benchmark converts: real papers, reports and forms, plus the fixtures. */

import { existsSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root, from `dist/tools/bench/` where this runs once built. */
export const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));
export const CORPUS_DIR = path.resolve(REPO_ROOT, '../shared/corpus/pdfjs/pdfs');
export const FIXTURE_PDF_DIR = path.join(REPO_ROOT, 'test/fixtures/out');

/** Corpus files with real text layers, by kind; the corpus is otherwise mostly tiny reduced test cases. */
export const CORPUS_SET: readonly { file: string; kind: string }[] = [
  { file: 'tracemonkey_a11y.pdf', kind: 'paper' },
  { file: 'issue14438.pdf', kind: 'paper' },
  { file: 'issue7014.pdf', kind: 'paper' },
  { file: 'bug886717.pdf', kind: 'report (contents)' },
  { file: 'file_pdfjs_test.pdf', kind: 'report' },
  { file: 'pdfjs_wikipedia.pdf', kind: 'article' },
  { file: 'standard_fonts.pdf', kind: 'report' },
  { file: 'issue840.pdf', kind: 'timetable' },
  { file: 'issue1350.pdf', kind: 'form' },
  { file: 'annotation-text-widget.pdf', kind: 'form' },
  { file: 'file_pdfjs_form.pdf', kind: 'form' },
];

export interface BenchSet {
  files: string[];
  missing: string[];
}

export async function resolveBenchSet(): Promise<BenchSet> {
  const set: BenchSet = { files: [], missing: [] };
  for (const { file } of CORPUS_SET) {
    const full = path.join(CORPUS_DIR, file);
    (existsSync(full) ? set.files : set.missing).push(full);
  }
  const fixtures = await fixturePdfs();
  if (fixtures.length === 0) set.missing.push(`${FIXTURE_PDF_DIR}/*.pdf (run npm test once to print the fixtures)`);
  set.files.push(...fixtures);
  return set;
}

export async function fixturePdfs(): Promise<string[]> {
  const names = await readdir(FIXTURE_PDF_DIR).catch(() => [] as string[]);
  return names.filter((n) => n.endsWith('.pdf')).sort().map((n) => path.join(FIXTURE_PDF_DIR, n));
}
