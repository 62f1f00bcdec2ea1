/**
 * `npm run bench:text`: Folio's text engine against `pdftotext -layout` on the same documents in
 * one run: in this process first (the engine's own cost, no start-up; pdftotext one process per
 * document), then as commands end to end, which is what a user waits for and what the target
 * judges (Folio within 3x of pdftotext per page); peak memory, then memory over a 2,000-page
 * document. A benchmark prints; it asserts nothing.
 */

import path from 'node:path';
import { EngineRouter } from '../../electron/engine/router.js';
import { fixturePdfs, GENERATED_KIND, resolveBenchSet } from './bench-set.js';
import { folioCommand, pdftotextLoop, type CommandTime } from './cli-run.js';
import { convertWithFolio, type RunTotals } from './folio-run.js';
import { runLongDocument } from './memory-run.js';
import { convertWithPdftotext, pdftotextAvailable, pdftotextCpuMs } from './pdftotext-run.js';

/** Timed passes over the set after one untimed warm-up pass (JIT, font data, file cache). */
const ROUNDS = 3;
const LONG_DOCUMENT_PAGES = 2000;
const TARGET_RATIO = 3;

async function main(): Promise<void> {
  if (!(await pdftotextAvailable())) throw new Error('pdftotext not found: install poppler-utils (apt-get install poppler-utils).');
  const set = await resolveBenchSet();
  for (const missing of set.missing) console.log(`skipped (missing): ${missing}`);
  if (set.files.length === 0) throw new Error('Nothing to convert: neither the corpus nor the fixture PDFs were found.');
  const kinds = [...new Set(set.kinds.values())];
  const realWorld = set.files.filter((f) => set.kinds.get(f) !== GENERATED_KIND).length;
  console.log(`Mixed set: ${set.files.length} documents, ${realWorld} real-world (${kinds.filter((k) => k !== GENERATED_KIND).join(', ') || 'none'}) and ${set.files.length - realWorld} generated; ${ROUNDS} timed rounds after a warm-up\n`);

  const router = new EngineRouter();
  const folio = await timeRounds(set.files, (file) => convertWithFolio(router, file));
  const poppler = await timeRounds(set.files, convertWithPdftotext);
  for (let round = 0; round < ROUNDS; round++) {
    for (const file of set.files) {
      const cpuMs = await pdftotextCpuMs(file);
      poppler.cpuMs += cpuMs;
      poppler.cpuByFile.set(file, (poppler.cpuByFile.get(file) ?? 0) + cpuMs);
    }
  }
  const slowest = set.files
    .map((file) => ({ file, folioMs: folio.byFile.get(file)!, popplerMs: poppler.byFile.get(file)! }))
    .sort((a, b) => b.folioMs / b.popplerMs - a.folioMs / a.popplerMs)
    .slice(0, 5);
  const folioMsPerPage = folio.ms / folio.pages;
  const popplerMsPerPage = poppler.ms / poppler.pages;
  const ratio = folioMsPerPage / popplerMsPerPage;

  console.log(row('engine', 'pages', 'time (s)', 'pages/s', 'ms/page', 'CPU ms/page'));
  console.log(row('folio text', String(folio.pages), (folio.ms / 1000).toFixed(2), (folio.pages / (folio.ms / 1000)).toFixed(1), folioMsPerPage.toFixed(2), (folio.cpuMs / folio.pages).toFixed(2)));
  console.log(row('pdftotext -layout', String(poppler.pages), (poppler.ms / 1000).toFixed(2), (poppler.pages / (poppler.ms / 1000)).toFixed(1), popplerMsPerPage.toFixed(2), (poppler.cpuMs / poppler.pages).toFixed(2)));
  if (folio.failedPages) console.log(`folio failed pages: ${folio.failedPages}`);
  const cpuRatio = folio.cpuMs / folio.pages / (poppler.cpuMs / poppler.pages);
  console.log(`\nratio in process (folio / pdftotext per page; not judged: no start-up counted): time ${ratio.toFixed(2)}x, CPU ${cpuRatio.toFixed(2)}x`);
  console.log('\nby document kind (ms per page; ratio = folio / pdftotext):');
  console.log(row('kind', 'docs', 'pages', 'folio', 'pdftotext', 'ratio', 'folio CPU', 'pdftotext', 'CPU ratio'));
  const perPage = (totals: RoundTotals, files: readonly string[], what: 'byFile' | 'cpuByFile') =>
    files.reduce((n, f) => n + totals[what].get(f)!, 0) / files.reduce((n, f) => n + totals.pagesByFile.get(f)!, 0);
  const kindRow = (kind: string, files: readonly string[]) => {
    const [time, popplerTime] = [perPage(folio, files, 'byFile'), perPage(poppler, files, 'byFile')];
    const [cpu, popplerCpu] = [perPage(folio, files, 'cpuByFile'), perPage(poppler, files, 'cpuByFile')];
    const pages = files.reduce((n, f) => n + folio.pagesByFile.get(f)!, 0) / ROUNDS;
    return row(kind, String(files.length), String(pages), time.toFixed(2), popplerTime.toFixed(2), `${(time / popplerTime).toFixed(2)}x`, cpu.toFixed(2), popplerCpu.toFixed(2), `${(cpu / popplerCpu).toFixed(2)}x`);
  };
  for (const kind of kinds) console.log(kindRow(kind, set.files.filter((f) => set.kinds.get(f) === kind)));
  const real = set.files.filter((f) => set.kinds.get(f) !== GENERATED_KIND);
  if (real.length) console.log(kindRow('real-world, all', real));
  console.log(`furthest behind: ${slowest.map((d) => `${path.basename(d.file)} ${(d.folioMs / d.popplerMs).toFixed(1)}x`).join(', ')}`);
  console.log(`peak RSS so far: ${peakRssMiB().toFixed(0)} MiB\n`);
  if (real.length) await commandLine(real, set.files.filter((f) => set.kinds.get(f) === 'paper'), (f) => folio.pagesByFile.get(f)! / ROUNDS);

  const pagePdfs = await fixturePdfs();
  if (pagePdfs.length === 0) {
    console.log('long document skipped: no fixture PDFs (run npm test once to print them)');
    return;
  }
  const long = await runLongDocument(router, pagePdfs, LONG_DOCUMENT_PAGES);
  console.log(`${LONG_DOCUMENT_PAGES}-page document (fixture pages repeated): ${long.pages} pages in ${(long.ms / 1000).toFixed(1)} s, ${(long.pages / (long.ms / 1000)).toFixed(1)} pages/s`);
  console.log(row('pages', 'RSS (MiB)', 'heap (MiB)'));
  for (const s of long.samples) console.log(row(String(s.pages), s.rssMiB.toFixed(0), s.heapMiB.toFixed(0)));
  const span = `page ${long.samples[1]?.pages ?? '-'} to ${long.samples.at(-1)?.pages ?? '-'}`;
  console.log(`growth from ${span}: heap ${long.heapGrowthMiB.toFixed(0)} MiB, RSS ${long.rssGrowthMiB.toFixed(0)} MiB -> memory ${long.flat ? 'flat' : 'GROWS with page count'}`);
  console.log(`peak RSS: ${peakRssMiB().toFixed(0)} MiB`);
}

/**
 * What a user waits for: `folio convert` as a command (Node and the engine host starting, the
 * parsers loading) against pdftotext's processes, over the real-world set in one call and over the
 * papers one call each.
 */
async function commandLine(real: readonly string[], papers: readonly string[], pagesOf: (file: string) => number): Promise<void> {
  console.log('command line, end to end (least of 3; ms per page, CPU of the processes and their children):');
  console.log(row('run', 'docs', 'pages', 'folio', 'pdftotext', 'ratio', 'folio CPU', 'pdftotext', 'CPU ratio'));
  /** Prints the run's row; returns its wall-time ratio. */
  const line = (name: string, files: readonly string[], folio: CommandTime, poppler: CommandTime): number => {
    const pages = files.reduce((n, f) => n + pagesOf(f), 0);
    const cells = [folio.wallMs, poppler.wallMs, folio.cpuMs, poppler.cpuMs].map((ms) => ms / pages);
    console.log(row(name, String(files.length), String(pages), cells[0]!.toFixed(2), cells[1]!.toFixed(2), `${(cells[0]! / cells[1]!).toFixed(2)}x`, cells[2]!.toFixed(2), cells[3]!.toFixed(2), `${(cells[2]! / cells[3]!).toFixed(2)}x`));
    return cells[0]! / cells[1]!;
  };
  const judged = line('one call, real-world', real, await folioCommand(real, ROUNDS), await pdftotextLoop(real, ROUNDS));
  console.log(`target: folio convert within ${TARGET_RATIO}x of pdftotext per page, both as commands over the same files: ${judged <= TARGET_RATIO ? 'met' : 'NOT met'} (${judged.toFixed(2)}x)`);
  if (papers.length === 0) return;
  const sum = (times: CommandTime[]): CommandTime => ({ wallMs: times.reduce((n, t) => n + t.wallMs, 0), cpuMs: times.reduce((n, t) => n + t.cpuMs, 0) });
  const folio: CommandTime[] = [];
  const poppler: CommandTime[] = [];
  for (const paper of papers) {
    folio.push(await folioCommand([paper], ROUNDS));
    poppler.push(await pdftotextLoop([paper], ROUNDS));
  }
  line('one call per paper', papers, sum(folio), sum(poppler));
  console.log('');
}

interface RoundTotals extends RunTotals {
  /** Time per document over all rounds. */
  byFile: Map<string, number>;
  /** CPU time per document over all rounds. */
  cpuByFile: Map<string, number>;
  /** Pages per document over all rounds. */
  pagesByFile: Map<string, number>;
}

async function timeRounds(files: readonly string[], convert: (file: string) => Promise<RunTotals>): Promise<RoundTotals> {
  const named = (file: string) =>
    convert(file).catch((error: unknown) => {
      throw new Error(`${path.basename(file)}: ${error instanceof Error ? error.message : String(error)}`);
    });
  for (const file of files) await named(file);
  const sum: RoundTotals = { pages: 0, failedPages: 0, chars: 0, ms: 0, cpuMs: 0, byFile: new Map(), cpuByFile: new Map(), pagesByFile: new Map() };
  for (let round = 0; round < ROUNDS; round++) {
    for (const file of files) {
      const t = await named(file);
      sum.pages += t.pages;
      sum.failedPages += t.failedPages;
      sum.chars += t.chars;
      sum.ms += t.ms;
      sum.cpuMs += t.cpuMs;
      sum.byFile.set(file, (sum.byFile.get(file) ?? 0) + t.ms);
      sum.cpuByFile.set(file, (sum.cpuByFile.get(file) ?? 0) + t.cpuMs);
      sum.pagesByFile.set(file, (sum.pagesByFile.get(file) ?? 0) + t.pages);
    }
  }
  return sum;
}

function peakRssMiB(): number {
  // resourceUsage reports kibibytes on Linux.
  return process.resourceUsage().maxRSS / 1024;
}

function row(...cells: string[]): string {
  return cells.map((c, i) => (i === 0 ? c.padEnd(34) : c.padStart(10))).join(' ');
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : String(error));
  process.exitCode = 1;
});
