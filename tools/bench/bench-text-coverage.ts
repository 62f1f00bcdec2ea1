/**
 * `npm run bench:text-coverage [-- [--write FILE] [--against FILE] [NAME.pdf ...]]`: over the PDF.js
 * corpus (`../shared/corpus` beside the clone, or FOLIO_CORPUS_ROOT), the files whose text `pdftotext` reads (at
 * least one word) but of which `--engine text` writes no word, listed by name. `--write` keeps
 * this run's per-file counts as JSON; `--against` an earlier such file prints its totals beside
 * this run's and the files that changed. Names restrict the run to those files.
 */

import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { forkHost } from '../../electron/core/engine-client/fork-host.js';
import { convertCorpus } from '../../test/corpus/convert-corpus.js';
import { readCorpusPasswords } from '../../test/corpus/corpus-selection.js';
import { formatCoverage, summariseCoverage, wordCount, type CoverageEntry } from '../../test/corpus/text-coverage.js';
import { CORPUS_DIR, REPO_ROOT } from './bench-set.js';

const run = promisify(execFile);
/** Where manifest.json (the passwords) is. */
const CORPUS_ROOT = path.dirname(CORPUS_DIR);
const HOST_MODULE = path.join(REPO_ROOT, 'dist/electron/engine/host.js');
const LIMITS = { pageTimeoutMs: 20_000, openTimeoutMs: 20_000, fileTimeoutMs: 60_000 };
/** pdftotext hangs on none of the corpus today; the limit keeps one that would from stopping the run. */
const PDFTOTEXT_TIMEOUT_MS = 60_000;

interface Options {
  write?: string;
  against?: string;
  names: string[];
}

function parseOptions(args: readonly string[]): Options {
  const options: Options = { names: [] };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--write' || arg === '--against') {
      const value = args[++i];
      if (!value) throw new Error(`${arg} needs a file name.`);
      options[arg === '--write' ? 'write' : 'against'] = value;
    } else if (arg.startsWith('--')) throw new Error(`unknown option ${arg}; bench:text-coverage takes --write FILE, --against FILE and file names.`);
    else options.names.push(path.basename(arg));
  }
  return options;
}

async function pdftotextWords(file: string, password: string | undefined): Promise<number | undefined> {
  const args = ['-q', ...(password === undefined ? [] : ['-upw', password]), file, '-'];
  try {
    const { stdout } = await run('pdftotext', args, { maxBuffer: 256 * 1024 * 1024, timeout: PDFTOTEXT_TIMEOUT_MS });
    return wordCount(stdout);
  } catch {
    return undefined;
  }
}

async function main(): Promise<void> {
  const options = parseOptions(process.argv.slice(2));
  if (!existsSync(CORPUS_DIR)) throw new Error(`no corpus at ${CORPUS_DIR}: put it beside this repository as ../shared/corpus or name it with FOLIO_CORPUS_ROOT.`);
  if (!existsSync(HOST_MODULE)) throw new Error(`${HOST_MODULE} is missing: run npm run build first.`);
  const all = (await readdir(CORPUS_DIR)).filter((n) => n.endsWith('.pdf')).sort();
  const unknown = options.names.filter((n) => !all.includes(n));
  if (unknown.length) throw new Error(`not in the corpus: ${unknown.join(', ')}.`);
  const files = options.names.length ? options.names : all;
  const passwords = await readCorpusPasswords(CORPUS_ROOT);

  const entries: CoverageEntry[] = [];
  for (const file of files) entries.push({ file, referenceWords: await pdftotextWords(path.join(CORPUS_DIR, file), passwords.get(file)), folioWords: undefined });
  const byFile = new Map(entries.map((e) => [e.file, e]));
  const read = entries.filter((e) => (e.referenceWords ?? 0) > 0).map((e) => e.file);
  console.log(`pdftotext reads text in ${read.length} of ${files.length} files; converting them with --engine text`);
  let done = 0;
  await convertCorpus(CORPUS_DIR, read, passwords, () => forkHost({ modulePath: HOST_MODULE }), LIMITS, (outcome) => {
    const entry = byFile.get(path.basename(outcome.file))!;
    entry.folioWords = outcome.pagesConverted > 0 ? outcome.words : undefined;
    if (++done % 100 === 0) console.log(`  ${done} of ${read.length}`);
  });

  const coverage = summariseCoverage(entries);
  if (options.against) {
    const earlier = JSON.parse(await readFile(options.against, 'utf8')) as CoverageEntry[];
    const before = summariseCoverage(earlier.filter((e) => byFile.has(e.file)));
    console.log(`before (${options.against}): ${formatCoverage(before)}`);
    console.log(`after:  ${formatCoverage(coverage)}`);
    const lostBefore = new Set(before.lost);
    const lostNow = new Set(coverage.lost);
    console.log(`now written (${before.lost.filter((f) => !lostNow.has(f)).length}): ${before.lost.filter((f) => !lostNow.has(f)).join(', ') || 'none'}`);
    console.log(`newly lost (${coverage.lost.filter((f) => !lostBefore.has(f)).length}): ${coverage.lost.filter((f) => !lostBefore.has(f)).join(', ') || 'none'}`);
  } else {
    console.log(formatCoverage(coverage));
  }
  console.log(`no text written (${coverage.lost.length}):`);
  for (const file of coverage.lost) {
    const e = byFile.get(file)!;
    console.log(`  ${file}: pdftotext ${e.referenceWords} words, Folio ${e.folioWords === undefined ? 'converted no page' : '0 words'}`);
  }
  if (options.write) await writeFile(options.write, `${JSON.stringify(entries, null, 1)}\n`);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : String(error));
  process.exitCode = 1;
});
