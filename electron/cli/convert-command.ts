/**
 * `folio convert`: every file through one supervised engine host, in order. A file that fails (not a
 * PDF, encrypted, damaged, a page that hangs) is reported and the batch goes on; a document's outputs
 * are written all or none, and only for documents that finished. With the remote engine the next documents start
 * while the current one's last pages are in flight, so the server never idles between documents;
 * they are still reported and written in input order.
 */

import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { Writable } from 'node:stream';
import type { WriteStream } from 'node:tty';
import type { FailureCode, PageFailure } from '../../shared/failure.js';
import type { PageResult } from '../../shared/page.js';
import { allPages, pageCountText, pageListText, pagesWithin } from '../../shared/page-range.js';
import type { ConvertOptions } from '../../shared/protocol.js';
import { loadMathCss } from '../core/output/math-css.js';
import { toFailure } from '../core/failure-error.js';
import { appDataFolder } from './app-data-folder.js';
import { inCliWords } from './remedy-words.js';
import { forkHost, withoutTlsSetup } from '../core/engine-client/fork-host.js';
import { HostClient, type OpenedDocument } from '../core/engine-client/host-client.js';
import { pagesInFlightFor } from '../core/remote-server/pages-in-flight.js';
import { supervisorPageLimitMs } from '../core/page-time-limit.js';
import type { SpawnHost } from '../core/engine-client/host-process.js';
import { WriteError, checkWritable, keptAfter, writeAllOrNothing, writeDurably, type WriteDurably } from '../core/output/all-or-nothing-write.js';
import { allOf, type BatchReporter, type DocumentWarning, type FileFailure } from './batch-reporter.js';
import type { ConvertRequest } from './cli-args.js';
import { DocumentPipeline, reporterAfter, type DocumentSlot } from './document-pipeline.js';
import { inputFailure } from './input-check.js';
import { jsonEvents } from './json-events.js';
import { logLines } from './log-lines.js';
import { outputFiles, outputNames, type ConvertedDocument, type OutputPlan } from '../core/output/output-files.js';
import { OutputNames } from '../core/output/output-names.js';
import { ttyProgress } from './tty-progress.js';
import { convertOptions } from '../core/conversion-request.js';
import { terminalSafe } from './terminal-text.js';

export interface ConvertIo {
  stdout: Writable;
  stderr: Writable | WriteStream;
  signal: AbortSignal;
  spawnHost?: SpawnHost;
  /** Writes one output file durably; tests pass one that fails as a full or read-only disk does. */
  write?: WriteDurably;
}

/** Exit status 0 when every file and page converted, 1 when any failed, 130 when interrupted. */
export async function runConvert(request: ConvertRequest, io: ConvertIo): Promise<number> {
  // said before any page, so a demo model's poor reading of a real page is not taken for Folio's
  if (request.vlm?.demo) io.stderr.write(`folio: ${request.vlm.demo.label}.\n`);
  const reporter = chooseReporter(request, io);
  const write = io.write ?? writeDurably;
  try {
    await mkdir(request.outDir, { recursive: true });
  } catch (error) {
    const code = errorCode(error);
    io.stderr.write(`folio: cannot create the output folder ${terminalSafe(request.outDir)} (${code}${causeOf(code)}); choose another with -o.\n`);
    return 1;
  }
  try {
    // found now rather than after the whole batch has converted
    await checkWritable(request.outDir, write);
  } catch (error) {
    if (!(error instanceof WriteError)) throw error;
    io.stderr.write(`folio: cannot write to the output folder ${terminalSafe(request.outDir)} (${error.code}${causeOf(error.code)}); choose another with -o.\n`);
    return 1;
  }
  const client = new HostClient({
    // the text engine reads local files only: its host needs no certificates
    spawnHost: io.spawnHost ?? (() => forkHost(request.engine === 'text' && !request.remote ? { env: withoutTlsSetup(process.env) } : {})),
    pageTimeoutMs: supervisorPageLimitMs(request, request.pageTimeoutMs),
    openTimeoutMs: request.pageTimeoutMs,
  });
  const options = await convertOptions(request, request.images, appDataFolder());
  const batch = new Batch(request, options, client, reporter, io.signal, write);
  const started = performance.now();
  try {
    // --server routes every page to the remote engine (auto included), the one engine serving many pages at once
    if (request.remote) await batch.convertPipelined(pagesInFlightFor(request.remote.concurrency));
    else await batch.convertInTurn();
  } finally {
    client.dispose();
  }
  const cancelled = io.signal.aborted;
  reporter.summary({ ...batch.counts, files: request.files.length, elapsedMs: performance.now() - started, pagesMs: batch.pagesMs, cancelled });
  if (cancelled) return 130;
  return batch.counts.filesFailed > 0 || batch.counts.pagesFailed > 0 ? 1 : 0;
}

function chooseReporter(request: ConvertRequest, io: ConvertIo): BatchReporter {
  if (request.json) return allOf([jsonEvents(io.stdout), logLines(io.stderr, false)]);
  if ('isTTY' in io.stderr && io.stderr.isTTY) return ttyProgress(io.stderr);
  return logLines(io.stderr, true);
}

class Batch {
  readonly counts = { filesFailed: 0, pagesDone: 0, pagesFailed: 0, tokens: 0 };
  private readonly names = new OutputNames();
  /** When the first page started and the last one ended: the pages' wall time, a model's opening not counted. */
  private firstPageAt: number | undefined;
  private lastPageAt = 0;
  private readonly plan: OutputPlan;

  constructor(
    private readonly request: ConvertRequest,
    private readonly options: ConvertOptions,
    private readonly client: HostClient,
    private readonly reporter: BatchReporter,
    private readonly signal: AbortSignal,
    private readonly writeFile: WriteDurably,
  ) {
    this.plan = { formats: request.formats, splitPages: request.splitPages, images: request.images };
    // An input in the output folder whose name matches an output (`x.json` with --format json) must survive.
    const outDir = path.resolve(request.outDir);
    for (const file of request.files) {
      if (path.dirname(path.resolve(file)) === outDir) this.names.reserve(path.basename(file));
    }
  }

  /** One document after another, each converted, reported and written before the next opens. */
  /** From the first page's start to the last page's end (0 before any page ended). */
  get pagesMs(): number {
    return this.firstPageAt === undefined ? 0 : Math.max(0, this.lastPageAt - this.firstPageAt);
  }

  async convertInTurn(): Promise<void> {
    for (const [index, file] of this.request.files.entries()) {
      if (this.signal.aborted) break;
      await this.convertFile(file, index, { reporter: this.reporter, turn: Promise.resolve() });
    }
  }

  /** Documents overlapping while fewer than `pagesAhead` pages are unfinished; each reported and written in input order. */
  async convertPipelined(pagesAhead: number): Promise<void> {
    const pipeline = new DocumentPipeline(pagesAhead);
    const converting: Promise<void>[] = [];
    let turn = Promise.resolve();
    for (const [index, file] of this.request.files.entries()) {
      const slot = await pipeline.enter();
      if (this.signal.aborted) break;
      const previous = turn;
      const converted = this.convertFile(file, index, { reporter: reporterAfter(previous, this.reporter), turn: previous, slot })
        // a document finished early (one that could not be opened) still reports after every earlier one
        .then(() => previous)
        .finally(() => slot.leave());
      converting.push(converted);
      // a document that threw still hands the turn on; the error comes out of Promise.all below
      turn = converted.catch(() => undefined);
    }
    await Promise.all(converting);
  }

  private async convertFile(file: string, index: number, place: DocumentPlace): Promise<void> {
    // checked here, not in the host: a batch of missing files never starts one
    const unopenable = await inputFailure(file);
    if (unopenable) {
      place.slot?.converted();
      return this.fileFailed(place.reporter, file, unopenable);
    }
    let doc: OpenedDocument;
    try {
      doc = await this.client.open(file, this.request.password, this.signal);
    } catch (error) {
      place.slot?.converted();
      if (!this.signal.aborted) this.fileFailed(place.reporter, file, toFailure(error));
      return;
    }
    try {
      await this.convertOpened(doc, index, place);
    } finally {
      this.client.close(doc);
    }
  }

  private async convertOpened(doc: OpenedDocument, index: number, place: DocumentPlace): Promise<void> {
    const { reporter, slot } = place;
    const { file, info } = doc;
    const { pages, pastEnd } = this.request.pages ? pagesWithin(this.request.pages, info.pageCount) : { pages: allPages(info.pageCount) };
    if (pages.length === 0) {
      slot?.converted();
      return this.fileFailed(reporter, file, {
        code: 'page-range',
        message: `has ${pageCountText(info.pageCount)}, so --pages ${pastEnd} selects none of them; nothing was written.`,
      });
    }
    // pages past the end of a shorter document in the batch are left out, and said so once it is written
    const notes: DocumentWarning[] = pastEnd
      ? [{ message: `has ${pageCountText(info.pageCount)}, so --pages ${pastEnd} went past its end; converted pages ${pageListText(pages)}.` }]
      : [];
    slot?.pages(pages.length);
    reporter.documentOpened(file, info, pages, index, this.request.files.length);
    const results: PageResult[] = [];
    const failures: PageFailure[] = [];
    try {
      const { cancelled } = await this.client.convert(
        doc,
        pages,
        this.options,
        {
          enginePreparing: (page, detail, bytes) => reporter.enginePreparing(file, page, detail, bytes),
          engineReady: (page) => reporter.engineReady(file, page),
          pageStarted: (page) => {
            this.firstPageAt ??= performance.now();
            reporter.pageStarted(file, page);
          },
          pageDelta: (page, text) => reporter.pageDelta(file, page, text),
          pageDone: (result) => {
            results.push(result);
            this.counts.pagesDone++;
            this.counts.tokens += result.stats.decode?.newTokens ?? 0;
            this.lastPageAt = performance.now();
            slot?.pageFinished();
            reporter.pageDone(file, result);
          },
          pageFailed: (page, engineFailure) => {
            const failure = inCliWords(engineFailure);
            failures.push({ page, failure });
            this.counts.pagesFailed++;
            this.lastPageAt = performance.now();
            slot?.pageFinished();
            reporter.pageFailed(file, page, failure);
          },
        },
        this.signal,
      );
      // An interrupted document is not written at all: a partial file would look complete.
      if (cancelled) return;
    } catch (error) {
      return this.fileFailed(reporter, file, toFailure(error));
    } finally {
      slot?.converted();
    }
    if (results.length === 0) return this.fileFailed(reporter, file, { code: sharedCode(failures), message: 'no page could be converted, so nothing was written.' });
    // a document that came out empty is a problem to report, not a conversion to count, unless
    // every page was looked at and judged blank (then the empty file is the true result)
    const empty = results.every((result) => result.markdown.trim() === '' && result.images.length === 0);
    if (empty && !results.every((result) => result.stats.flags?.includes('blank'))) {
      const which = pages.length === 1 ? `page ${pages[0]}` : `any of the ${pages.length} pages read`;
      return this.fileFailed(reporter, file, {
        code: 'no-text-layer',
        message: `no text came out of ${which}, so nothing was written; ${this.request.engine === 'text' ? 'if it is a scan, read it with --engine lite or vlm' : 'check that it is not blank'}.`,
      });
    }
    // output names are claimed in input order, as one document at a time would claim them
    await place.turn;
    await this.write(reporter, { file, info, pages: results, failures }, pages, notes);
  }

  private async write(reporter: BatchReporter, doc: ConvertedDocument, pages: readonly number[], notes: readonly DocumentWarning[]): Promise<void> {
    const stem = this.names.claim(doc.file, (candidate) => outputNames(candidate, pages, this.plan));
    const mathCss = this.plan.formats.includes('html') ? await loadMathCss() : '';
    const { files: outputs, warnings } = await outputFiles(stem, doc, this.plan, mathCss);
    const files = outputs.map((output) => ({ path: path.join(this.request.outDir, output.name), data: output.data }));
    try {
      // a document's outputs appear together or not at all: a .md without its .html would pass for a finished run
      await writeAllOrNothing(files, this.writeFile);
    } catch (error) {
      if (!(error instanceof WriteError)) throw error;
      return this.fileFailed(reporter, doc.file, {
        code: 'io',
        message: `cannot write ${error.file} (${error.code}${causeOf(error.code)}); ${keptAfter(error)}. ${writeRemedy(error.code)}`,
      });
    }
    reporter.documentDone(doc.file, files.map((file) => file.path), [...notes, ...warnings]);
  }

  private fileFailed(reporter: BatchReporter, file: string, failure: FileFailure): void {
    this.counts.filesFailed++;
    reporter.documentFailed(file, inCliWords(failure));
  }
}

/** Where a document stands in the batch: whom it reports to, when its turn to be written comes, and its place in the pipeline. */
interface DocumentPlace {
  reporter: BatchReporter;
  turn: Promise<void>;
  slot?: DocumentSlot;
}

/** The failure code every failed page shares; `damaged` when they differ. */
function sharedCode(failures: readonly PageFailure[]): FailureCode {
  const codes = new Set(failures.map(({ failure }) => failure.code));
  return codes.size === 1 ? [...codes][0]! : 'damaged';
}

/** What an error code means for an output folder, in words (`: the file system is read-only`); empty when it speaks for itself. */
function causeOf(code: string): string {
  switch (code) {
    case 'EROFS':
      return ': the file system is read-only';
    case 'EACCES':
    case 'EPERM':
      return ': no permission to write there';
    case 'ENOSPC':
      return ': the disk is full';
    case 'ENOTDIR':
      return ': part of the path is a file, not a folder';
    default:
      return '';
  }
}

function writeRemedy(code: string): string {
  return code === 'ENOSPC' ? 'Free some space or choose another -o.' : 'Choose another -o.';
}

function errorCode(error: unknown): string {
  const { code, message } = error as NodeJS.ErrnoException;
  return code ?? message ?? String(error);
}
