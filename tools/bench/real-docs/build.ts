/**
 * Builds the real-document benchmark: olmOCR-Bench folders (`tune/` and `holdout/`, each with test
 * files by source and kind and a `pdfs/` folder) from the third-party documents in real-docs and
 * the ground truth their makers published. Every check is run on the ground truth it was read
 * from, rendered as Markdown, and kept only when it passes there. Nothing of real-docs is
 * committed: the folders are written beside the builder's other outputs (ignored by git).
 */

import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { copyFile, mkdir, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BuiltCheck } from './bench-check.js';
import { debianChecks } from './debian.js';
import { icdarChecks } from './icdar.js';
import { PageFinder, readPdfText } from './pdf-text.js';
import { sideOf, type BenchSide } from './split.js';
import { texliveChecks } from './texlive.js';
import { passesOn, testLine } from './truth-check.js';

const HERE = fileURLToPath(new URL('.', import.meta.url));
/** The repository root, from tools/bench/real-docs or from its compiled copy in dist/. */
const REPO_ROOT = path.resolve(HERE, path.basename(path.resolve(HERE, '../../..')) === 'dist' ? '../../../..' : '../../..');
/** `../shared/real-docs` beside the clone (where CI has it), or FOLIO_REAL_DOCS. */
export const REAL_DOCS_DIR = process.env.FOLIO_REAL_DOCS ?? path.resolve(REPO_ROOT, '../shared/real-docs');
export const REAL_BENCH_DIR = path.join(REPO_ROOT, 'test/real-docs/out');
export const BENCH_SIDES: readonly BenchSide[] = ['tune', 'holdout'];
const BUILDER_DIR = path.join(REPO_ROOT, 'tools/bench/real-docs');

export type Source = 'icdar' | 'texlive' | 'debian';

export interface RealDocument {
  source: Source;
  /** Path relative to real-docs, `/` separators. */
  path: string;
  /** The PDF's name in the benchmark's `pdfs/` folder: unique, and unique as a stem. */
  pdf: string;
  side: BenchSide;
}

/** The benchmark's documents: every ICDAR PDF, every TeX Live PDF built from a `.tex` beside it (figures aside), and Debian Reference. */
export async function realDocuments(root = REAL_DOCS_DIR): Promise<RealDocument[]> {
  const docs: RealDocument[] = [];
  const add = (source: Source, relative: string, pdf: string) => docs.push({ source, path: relative, pdf, side: sideOf(relative) });
  for (const part of ['competition-dataset-eu', 'competition-dataset-us']) {
    for (const name of (await readdir(path.join(root, 'icdar2013', part))).filter((n) => n.endsWith('.pdf')).sort()) {
      add('icdar', `icdar2013/${part}/${name}`, `icdar-${name}`);
    }
  }
  const texlive = path.join(root, 'texlive');
  const files = (await readdir(texlive, { recursive: true })).map((f) => f.split(path.sep).join('/')).sort();
  for (const file of files.filter((f) => f.endsWith('.pdf'))) {
    const tex = path.join(texlive, file.replace(/\.pdf$/, '.tex'));
    // a standalone class makes a figure to include, not a document
    if (!existsSync(tex) || /\\documentclass(?:\[[^\]]*\])?\{([^}]*)\}/.exec(await readFile(tex, 'utf8'))?.[1] === 'standalone') continue;
    const relative = `texlive/${file}`;
    add('texlive', relative, `texlive-${relative.split('/')[3]}-${path.basename(file)}`);
  }
  add('debian', 'debian-reference/debian-reference.en.pdf', 'debian-reference.pdf');
  return docs;
}

/** The checks of one document, each having passed on its ground truth; `dropped` counts those that did not. */
async function documentChecks(doc: RealDocument, root = REAL_DOCS_DIR): Promise<{ checks: BuiltCheck[]; dropped: number }> {
  const checks = await generatedChecks(doc, root);
  const kept = checks.filter((check) => passesOn(check.spec, check.truth));
  return { checks: kept, dropped: checks.length - kept.length };
}

/** The checks read from one document's ground truth, before they are run on it. */
export async function generatedChecks(doc: RealDocument, root = REAL_DOCS_DIR): Promise<BuiltCheck[]> {
  const file = path.join(root, doc.path);
  const pdfText = await readPdfText(file);
  const pages = new PageFinder(pdfText.pages);
  let checks: BuiltCheck[];
  if (doc.source === 'icdar') {
    const structure = file.replace(/\.pdf$/, '-str.xml');
    const alternative = structure.replace(/a-str\.xml$/, 'b-str.xml');
    checks = await icdarChecks(structure, structure.endsWith('a-str.xml') && existsSync(alternative) ? alternative : undefined, pages);
  } else if (doc.source === 'texlive') {
    checks = await texliveChecks(file.replace(/\.pdf$/, '.tex'), pdfText, pages);
  } else {
    checks = await debianChecks(path.dirname(file), pdfText, pages);
  }
  return checks;
}

interface BuildSummary {
  documents: Record<BenchSide, number>;
  /** Checks by side, then by test file. */
  checks: Record<BenchSide, Record<string, number>>;
  /** Checks that failed on their own ground truth and were left out. */
  dropped: number;
}

/** A fingerprint of what the benchmark is built from: the builder's sources and each document's size and time. */
async function inputsFingerprint(docs: readonly RealDocument[], root: string): Promise<string> {
  const hash = createHash('sha256');
  for (const dir of [BUILDER_DIR, path.join(REPO_ROOT, 'shared/olmocr-bench'), path.join(REPO_ROOT, 'shared/text-match')]) {
    for (const name of (await readdir(dir)).filter((n) => n.endsWith('.ts') && !n.endsWith('.test.ts')).sort()) hash.update(name).update(await readFile(path.join(dir, name)));
  }
  for (const doc of docs) {
    const info = await stat(path.join(root, doc.path));
    hash.update(`${doc.path}:${info.size}:${info.mtimeMs}`);
  }
  return hash.digest('hex');
}

/**
 * Writes `out/tune` and `out/holdout` unless they were built from the same inputs already
 * (`force` rebuilds). `progress` hears each document as it is done.
 */
export async function buildRealBench(options: { root?: string; out?: string; force?: boolean; progress?: (line: string) => void } = {}): Promise<BuildSummary> {
  const root = options.root ?? REAL_DOCS_DIR;
  const out = options.out ?? REAL_BENCH_DIR;
  if (!existsSync(root)) throw new Error(`${root} does not exist: the benchmark is built from real-docs (../shared/real-docs beside the repository, or FOLIO_REAL_DOCS).`);
  const docs = await realDocuments(root);
  const fingerprint = await inputsFingerprint(docs, root);
  const manifestFile = path.join(out, 'manifest.json');
  if (!options.force && existsSync(manifestFile)) {
    const manifest = JSON.parse(await readFile(manifestFile, 'utf8')) as { fingerprint: string; summary: BuildSummary };
    if (manifest.fingerprint === fingerprint) return manifest.summary;
  }

  const lines: Record<BenchSide, Map<string, string[]>> = { tune: new Map(), holdout: new Map() };
  const summary: BuildSummary = { documents: { tune: 0, holdout: 0 }, checks: { tune: {}, holdout: {} }, dropped: 0 };
  const results = await mapLimited(docs, 2, async (doc) => {
    const result = await documentChecks(doc, root);
    options.progress?.(`${doc.side.padEnd(7)} ${doc.path}: ${result.checks.length} checks${result.dropped ? ` (${result.dropped} failed on their ground truth, left out)` : ''}`);
    return result;
  });
  docs.forEach((doc, index) => {
    const { checks, dropped } = results[index]!;
    summary.dropped += dropped;
    summary.documents[doc.side]++;
    const counters = new Map<string, number>();
    for (const check of checks) {
      const file = `${doc.source}_${check.spec.type}.jsonl`;
      const n = (counters.get(check.spec.type) ?? 0) + 1;
      counters.set(check.spec.type, n);
      const id = `${doc.pdf.replace(/\.pdf$/, '')}_${check.spec.type}_${String(n).padStart(3, '0')}`;
      (lines[doc.side].get(file) ?? lines[doc.side].set(file, []).get(file)!).push(JSON.stringify(testLine(check.spec, id, doc.pdf, check.page)));
      summary.checks[doc.side][file] = (summary.checks[doc.side][file] ?? 0) + 1;
    }
  });

  await rm(out, { recursive: true, force: true });
  for (const side of BENCH_SIDES) {
    const dir = path.join(out, side);
    await mkdir(path.join(dir, 'pdfs'), { recursive: true });
    for (const [file, testLines] of [...lines[side]].sort(([a], [b]) => a.localeCompare(b))) await writeFile(path.join(dir, file), `${testLines.join('\n')}\n`);
    for (const doc of docs.filter((d) => d.side === side)) await copyFile(path.join(root, doc.path), path.join(dir, 'pdfs', doc.pdf));
  }
  const documents = docs.map(({ pdf, path: source, side }) => ({ pdf, source, side }));
  await writeFile(manifestFile, `${JSON.stringify({ fingerprint, summary, documents }, null, 2)}\n`);
  return summary;
}

/** `work` over `items`, at most `limit` at a time, results in order. */
async function mapLimited<T, R>(items: readonly T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) {
        const index = next++;
        results[index] = await work(items[index]!);
      }
    }),
  );
  return results;
}
