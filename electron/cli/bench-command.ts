/**
 * `folio bench DIR`: converts every page an olmOCR-Bench-format folder tests (`DIR/*.jsonl`, PDFs
 * under `DIR/pdfs/`) with the chosen engine, scores the pages with shared/olmocr-bench, and prints
 * pass rates by test file and by test type and the failures (or, with --json, one object). A page
 * that cannot be converted fails its tests and the run goes on. With `--outputs MDDIR` it converts
 * nothing and scores the Markdown another converter wrote (bench-outputs.ts).
 */

import { mkdir, readdir } from 'node:fs/promises';
import path from 'node:path';
import type { Writable } from 'node:stream';
import { documentMarkdown } from '../../shared/export/markdown.js';
import { BenchTestError } from '../../shared/olmocr-bench/bench-test.js';
import { checkUniqueIds, formatBenchReport, parseTestFile, rate, scoreTests, summarise, withDefaultBaselines, type PageOutput, type TestFile } from '../../shared/olmocr-bench/bench-score.js';
import { toFailure } from '../core/failure-error.js';
import { appDataFolder } from './app-data-folder.js';
import { inCliWords } from './remedy-words.js';
import { forkHost } from '../core/engine-client/fork-host.js';
import { HostClient } from '../core/engine-client/host-client.js';
import type { SpawnHost } from '../core/engine-client/host-process.js';
import { supervisorPageLimitMs } from '../core/page-time-limit.js';
import { writeFileAtomic } from '../core/output/atomic-write.js';
import { readPageOutputs } from './bench-outputs.js';
import type { BenchRequest } from './cli-args.js';
import { convertOptions } from '../core/conversion-request.js';
import { benchPdfPath } from './bench-pdf-path.js';
import { readBoundedFile, UnfitFileError } from '../core/bounded-file.js';
import { jsonLine, terminalSafe, terminalSafeLines } from './terminal-text.js';

export interface BenchIo {
  stdout: Writable;
  stderr: Writable;
  signal: AbortSignal;
  spawnHost?: SpawnHost;
}

/** Exit status 0 when the benchmark ran (whatever it scored), 2 when the folder is not a benchmark, 130 when interrupted. */
export async function runBench(request: BenchRequest, io: BenchIo): Promise<number> {
  let files: TestFile[];
  try {
    files = await readTestFiles(request.dir);
  } catch (error) {
    if (!(error instanceof BenchTestError)) throw error;
    io.stderr.write(`folio: ${terminalSafe(error.message)}\n`);
    return 2;
  }
  const pdfDir = path.join(request.dir, 'pdfs');
  const pagesByPdf = new Map<string, Set<number>>();
  for (const test of files.flatMap((f) => f.tests)) {
    const pages = pagesByPdf.get(test.pdf) ?? new Set<number>();
    pagesByPdf.set(test.pdf, pages.add(test.page));
  }
  const testCount = files.reduce((n, f) => n + f.tests.length, 0);
  const pageCount = [...pagesByPdf.values()].reduce((n, pages) => n + pages.size, 0);
  const source = request.outputsDir === undefined ? `engine ${request.engine}` : `outputs in ${request.outputsDir}`;
  io.stderr.write(`folio bench: ${testCount} tests in ${files.length} file(s) over ${pageCount} page(s) of ${pagesByPdf.size} PDF(s), ${source}\n`);

  const started = performance.now();
  let outputs: Map<string, PageOutput>;
  if (request.outputsDir !== undefined) {
    const read = await readOutputs(request.outputsDir, pagesByPdf, io);
    if (!read) return 2;
    outputs = read;
  } else {
    outputs = await convertPages(request, pdfDir, pagesByPdf, io);
    if (io.signal.aborted) return 130;
    if (request.outDir) await writePageOutputs(request.outDir, outputs);
  }
  const seconds = (performance.now() - started) / 1000;

  const report = summarise(scoreTests(files, (pdf, page) => outputs.get(pageKey(pdf, page)) ?? { failure: 'not converted' }));
  if (request.json) {
    const what = request.outputsDir === undefined ? { engine: request.engine } : { outputs: request.outputsDir };
    io.stdout.write(jsonLine({ dir: request.dir, ...what, pages: pageCount, seconds: Number(seconds.toFixed(2)), ...report }));
  } else {
    io.stdout.write(terminalSafeLines(formatBenchReport(report)));
    const passed = Number.isInteger(report.overall.passed) ? report.overall.passed : report.overall.passed.toFixed(1);
    io.stdout.write(`\n${passed}/${report.overall.total} tests passed (${(100 * rate(report.overall)).toFixed(1)}%), ${pageCount} page(s) in ${seconds.toFixed(1)} s, ${source}\n`);
  }
  return 0;
}

/** The pages' Markdown from `--outputs`, each PDF without any file named on stderr; undefined when the folder cannot be read. */
async function readOutputs(mdDir: string, pagesByPdf: ReadonlyMap<string, ReadonlySet<number>>, io: BenchIo): Promise<Map<string, PageOutput> | undefined> {
  try {
    const { outputs, pdfsWithoutFiles } = await readPageOutputs(mdDir, pagesByPdf, pageKey);
    for (const pdf of pdfsWithoutFiles) io.stderr.write(`folio bench: no Markdown for ${pdf} in ${mdDir}; its tests fail\n`);
    return outputs;
  } catch (error) {
    io.stderr.write(`folio: cannot read the outputs folder ${mdDir} (${(error as NodeJS.ErrnoException).code ?? String(error)}).\n`);
    return undefined;
  }
}

/** Every `*.jsonl` directly in `dir`, parsed and checked; throws BenchTestError saying what is wrong. */
async function readTestFiles(dir: string): Promise<TestFile[]> {
  let names: string[];
  try {
    names = (await readdir(dir)).filter((name) => name.endsWith('.jsonl')).sort();
  } catch (error) {
    throw new BenchTestError(`cannot read the benchmark folder ${dir} (${(error as NodeJS.ErrnoException).code ?? String(error)}).`);
  }
  if (names.length === 0) throw new BenchTestError(`${dir} holds no *.jsonl test files; a benchmark folder has test files and a pdfs/ folder.`);
  const files = await Promise.all(names.map(async (name) => parseTestFile(name, await readTests(path.join(dir, name)))));
  checkUniqueIds(files);
  return withDefaultBaselines(files, await pdfsIn(path.join(dir, 'pdfs')));
}

/** A test file: a regular file of at most 256 MiB (olmOCR-Bench's largest is under 2 MiB). */
async function readTests(file: string): Promise<string> {
  try {
    return (await readBoundedFile(file, 256 * 1024 * 1024, 'test file')).toString('utf8');
  } catch (error) {
    if (error instanceof UnfitFileError) throw new BenchTestError(error.message);
    throw error;
  }
}

/** The `*.pdf` files under `dir` (at any depth, as olmOCR globs them), relative to it with `/` separators; none when it cannot be read. */
async function pdfsIn(dir: string): Promise<string[]> {
  const names = await readdir(dir, { recursive: true }).catch(() => [] as string[]);
  return names.filter((name) => name.endsWith('.pdf')).map((name) => name.split(path.sep).join('/'));
}

function pageKey(pdf: string, page: number): string {
  return `${pdf}#${page}`;
}

/** Each tested page's Markdown as the Markdown export writes a page, or why it has none. */
async function convertPages(request: BenchRequest, pdfDir: string, pagesByPdf: ReadonlyMap<string, ReadonlySet<number>>, io: BenchIo): Promise<Map<string, PageOutput>> {
  const outputs = new Map<string, PageOutput>();
  const client = new HostClient({
    spawnHost: io.spawnHost ?? (() => forkHost()),
    pageTimeoutMs: supervisorPageLimitMs(request, request.pageTimeoutMs),
    openTimeoutMs: request.pageTimeoutMs,
  });
  const options = await convertOptions(request, false, appDataFolder());
  const failAll = (pdf: string, pages: Iterable<number>, why: string) => {
    for (const page of pages) outputs.set(pageKey(pdf, page), { failure: why });
    io.stderr.write(`folio bench: ${terminalSafe(`${pdf}: ${why}`)}\n`);
  };
  try {
    for (const [pdf, pageSet] of [...pagesByPdf].sort(([a], [b]) => a.localeCompare(b))) {
      if (io.signal.aborted) break;
      const found = await benchPdfPath(pdfDir, pdf);
      if ('refused' in found) {
        failAll(pdf, pageSet, found.refused);
        continue;
      }
      const file = found.file;
      let doc;
      try {
        doc = await client.open(file, request.password, io.signal);
      } catch (error) {
        if (!io.signal.aborted) failAll(pdf, pageSet, inCliWords(toFailure(error)).message);
        continue;
      }
      try {
        const pages = [...pageSet].sort((a, b) => a - b);
        const beyond = pages.filter((page) => page > doc.info.pageCount);
        if (beyond.length) failAll(pdf, beyond, `page ${beyond.join(', ')} asked for, but the file has ${doc.info.pageCount} page(s)`);
        await client.convert(
          doc,
          pages.filter((page) => page <= doc.info.pageCount),
          options,
          {
            pageDone: (result) => outputs.set(pageKey(pdf, result.page), { markdown: documentMarkdown([result], { resolveImage: () => undefined }) }),
            pageFailed: (page, failure) => {
              const { message } = inCliWords(failure);
              outputs.set(pageKey(pdf, page), { failure: message });
              io.stderr.write(`folio bench: ${terminalSafe(`${pdf} page ${page}: ${message}`)}\n`);
            },
          },
          io.signal,
        );
      } catch (error) {
        failAll(pdf, pageSet, inCliWords(toFailure(error)).message);
      } finally {
        client.close(doc);
      }
    }
  } finally {
    client.dispose();
  }
  return outputs;
}

/** `<pdf name>_pg<N>_repeat1.md` for each converted page, the names olmOCR's runbench looks for. */
async function writePageOutputs(outDir: string, outputs: ReadonlyMap<string, PageOutput>): Promise<void> {
  await mkdir(outDir, { recursive: true });
  for (const [key, output] of outputs) {
    if (!('markdown' in output)) continue;
    const [pdf, page] = [key.slice(0, key.lastIndexOf('#')), key.slice(key.lastIndexOf('#') + 1)];
    await writeFileAtomic(path.join(outDir, `${path.basename(pdf, path.extname(pdf))}_pg${page}_repeat1.md`), output.markdown);
  }
}
