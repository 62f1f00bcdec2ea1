/**
 * `npm run bench:real [-- --engines text,auto] [--no-baseline] [--rebuild] [--build-only] [--single-pages]`:
 * the real-document benchmark (third-party PDFs and their makers' ground truth, tools/bench/real-docs/)
 * built when its inputs changed, then each engine run over `tune/` and `holdout/` (with
 * --single-pages, over copies where each tested page is a PDF of its own) with `folio bench`, and
 * pdftotext's text scored side by side (`folio bench --outputs`). Prints pass rates by kind of
 * check; holdout's failures are never printed (score `tune/` with `folio bench` to read its own).
 */

import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { promisify } from 'node:util';
import { runBench } from '../../electron/cli/bench-command.js';
import { parseCommandLine, UsageError } from '../../electron/cli/cli-args.js';
import { BENCH_TEST_TYPES, type BenchTestType } from '../../shared/olmocr-bench/bench-test.js';
import { parseTestFile, rate, type BenchReport } from '../../shared/olmocr-bench/bench-score.js';
import { BENCH_SIDES, buildRealBench, REAL_BENCH_DIR } from './real-docs/build.js';
import { singlePageBench } from './real-docs/single-pages.js';

const run = promisify(execFile);

interface Options {
  engines: string[];
  baseline: boolean;
  rebuild: boolean;
  buildOnly: boolean;
  singlePages: boolean;
}

function parseOptions(args: readonly string[]): Options {
  const options: Options = { engines: ['text', 'auto'], baseline: true, rebuild: false, buildOnly: false, singlePages: false };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--engines') options.engines = (args[++i] ?? '').split(',').filter(Boolean);
    else if (arg === '--no-baseline') options.baseline = false;
    else if (arg === '--rebuild') options.rebuild = true;
    else if (arg === '--build-only') options.buildOnly = true;
    else if (arg === '--single-pages') options.singlePages = true;
    else throw new UsageError(`bench:real takes --engines E1,E2, --no-baseline, --rebuild, --build-only and --single-pages, not "${arg}"`);
  }
  return options;
}

/** `folio bench` with these arguments, its --json report read back. */
async function benchReport(args: string[]): Promise<BenchReport> {
  const command = await parseCommandLine(['bench', ...args, '--json']);
  if (command.kind !== 'bench') throw new UsageError('not a bench command');
  const stdout = new PassThrough();
  const chunks: Buffer[] = [];
  stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
  const code = await runBench(command.request, { stdout, stderr: new PassThrough(), signal: new AbortController().signal });
  if (code !== 0) throw new Error(`folio bench ${args.join(' ')} exited with ${code}`);
  return JSON.parse(Buffer.concat(chunks).toString('utf8')) as BenchReport;
}

/** pdftotext's text of every tested page (and every first page, which the default baseline tests), as `<stem>_pg<N>_repeat1.md` in a new folder. */
async function pdftotextOutputs(dir: string): Promise<string> {
  const pages = new Map<string, Set<number>>();
  for (const pdf of (await readdir(path.join(dir, 'pdfs'))).filter((n) => n.endsWith('.pdf'))) pages.set(pdf, new Set([1]));
  for (const name of (await readdir(dir)).filter((n) => n.endsWith('.jsonl'))) {
    for (const test of parseTestFile(name, await readFile(path.join(dir, name), 'utf8')).tests) {
      (pages.get(test.pdf) ?? pages.set(test.pdf, new Set()).get(test.pdf)!).add(test.page);
    }
  }
  const out = await mkdtemp(path.join(os.tmpdir(), 'folio-real-pdftotext-'));
  for (const [pdf, numbers] of pages) {
    for (const page of numbers) {
      const { stdout } = await run('pdftotext', ['-q', '-enc', 'UTF-8', '-f', String(page), '-l', String(page), path.join(dir, 'pdfs', pdf), '-'], { maxBuffer: 64 * 1024 * 1024 });
      await writeFile(path.join(out, `${pdf.replace(/\.pdf$/, '')}_pg${page}_repeat1.md`), stdout.replace(/\f$/, ''));
    }
  }
  return out;
}

const percent = (report: BenchReport, type?: BenchTestType) => {
  const tally = type ? report.types[type] : report.overall;
  return tally ? `${(100 * rate(tally)).toFixed(1)}%` : '-';
};

async function main(): Promise<void> {
  const options = parseOptions(process.argv.slice(2));
  const summary = await buildRealBench({ force: options.rebuild, progress: (line) => process.stderr.write(`  ${line}\n`) });
  if (options.buildOnly) {
    console.log(JSON.stringify({ dir: REAL_BENCH_DIR, ...summary }, null, 2));
    return;
  }
  const rows: { side: string; converter: string; report: BenchReport }[] = [];
  for (const side of BENCH_SIDES) {
    let dir = path.join(REAL_BENCH_DIR, side);
    if (options.singlePages) {
      process.stderr.write(`bench:real: ${side}, each tested page a PDF of its own\n`);
      await singlePageBench(dir, `${dir}-single-pages`);
      dir = `${dir}-single-pages`;
    }
    for (const engine of options.engines) {
      process.stderr.write(`bench:real: ${side}, engine ${engine}\n`);
      rows.push({ side, converter: `folio --engine ${engine}`, report: await benchReport([dir, '--engine', engine]) });
    }
    if (options.baseline) {
      process.stderr.write(`bench:real: ${side}, pdftotext\n`);
      const outputs = await pdftotextOutputs(dir);
      try {
        rows.push({ side, converter: 'pdftotext', report: await benchReport([dir, '--outputs', outputs]) });
      } finally {
        await rm(outputs, { recursive: true, force: true });
      }
    }
  }
  const types = BENCH_TEST_TYPES.filter((type) => rows.some((row) => row.report.types[type]));
  const counts = (side: string) => Object.values(summary.checks[side as 'tune']).reduce((a, b) => a + b, 0);
  if (options.singlePages) console.log('Each tested page converted as a PDF of its own (--single-pages): no neighbouring pages to tell running heads by.');
  console.log(`Real-document benchmark (${REAL_BENCH_DIR}): tune ${summary.documents.tune} documents, ${counts('tune')} checks; holdout ${summary.documents.holdout} documents, ${counts('holdout')} checks (and a baseline check per PDF)\n`);
  const header = ['part', 'converter', ...types, 'all', 'mean of files'];
  const table = rows.map(({ side, converter, report }) => [side, converter, ...types.map((t) => percent(report, t)), percent(report), `${(100 * report.fileAverage).toFixed(1)}%`]);
  const widths = header.map((h, i) => Math.max(h.length, ...table.map((r) => r[i]!.length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => (i < 2 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join(' | ')} |`;
  console.log(line(header));
  console.log(`|${widths.map((w, i) => (i < 2 ? '-'.repeat(w + 2) : `${'-'.repeat(w + 1)}:`)).join('|')}|`);
  for (const cells of table) console.log(line(cells));
  console.log('\nChecks by kind (tune / holdout):', types.map((t) => `${t} ${rows.find((r) => r.side === 'tune')?.report.types[t]?.total ?? 0}/${rows.find((r) => r.side === 'holdout')?.report.types[t]?.total ?? 0}`).join(', '));
  console.log('Failures of tune: node bin/folio.js bench test/real-docs/out/tune --engine text; holdout is totals only.');
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : String(error));
  process.exitCode = 1;
});

