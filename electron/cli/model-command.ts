/**
 * `folio model get | list | remove`: packages from Hugging Face, installed in the app-data folder
 * where the app's model manager finds them too. `get` says what it fetches and under which licence,
 * shows the download's progress on stderr (bytes, rate, time left, then the conversion's steps) and
 * prints the package folder as the last line of stdout.
 */

import type { Writable } from 'node:stream';
import type { WriteStream } from 'node:tty';
import { hubSettings } from '../core/hub/hub-settings.js';
import { HubError } from '../core/hub/hub-error.js';
import { clearUnfinished, listInstalled, listUnfinished, modelsFolder, removeInstalled } from '../core/model/installed-models.js';
import { installModel } from '../core/model/model-install.js';
import { formatBytes, licenceTerms, transferText, type InstalledModel, type ModelProgress, type ModelSourceInfo } from '../../shared/model-library.js';
import { appDataFolder } from './app-data-folder.js';
import type { ModelRequest } from './cli-args.js';

export interface ModelCommandIo {
  stdout: Writable;
  stderr: Writable;
  signal: AbortSignal;
  env?: NodeJS.ProcessEnv;
}

export async function runModelCommand(request: ModelRequest, io: ModelCommandIo): Promise<number> {
  const env = io.env ?? process.env;
  const modelsDir = modelsFolder(appDataFolder(env));
  if (request.action === 'list') return list(modelsDir, request.json, io);
  if (request.action === 'remove') return remove(modelsDir, request.id, io, hubSettings(env).cacheDir);
  const progress = progressPrinter(io.stderr);
  try {
    const installed = await installModel({
      source: request.source,
      precision: request.precision,
      modelsDir,
      hub: hubSettings(env),
      signal: io.signal,
      onPlan: (info) => progress.above(planLine(info, request.precision)),
      onProgress: progress.update,
      onNote: (note) => progress.above(`note: ${note}`),
    });
    progress.above(`installed ${installed.id} (${installed.precision}, ${formatBytes(installed.sizeBytes)}) in ${installed.folder}; convert with --model ${installed.id}`);
    io.stdout.write(`${installed.folder}\n`);
    return 0;
  } catch (error) {
    if (error instanceof HubError && error.code === 'cancelled') {
      progress.above(`folio: interrupted; what was downloaded is kept in the Hugging Face cache, and "folio model get ${request.source}" resumes it.`);
      return 130;
    }
    progress.above(`folio: ${error instanceof Error ? error.message : String(error)}`);
    return 1;
  } finally {
    progress.stop();
  }
}

/** What is about to be fetched, under which licence. */
function planLine(info: ModelSourceInfo, precision: string): string {
  const terms = licenceTerms(info.license);
  const where = info.commit ? `${info.id}@${info.revision} (commit ${info.commit.slice(0, 10)})` : info.source;
  const what = info.kind === 'package' ? 'a Folio model package, fetched as it is' : `a checkpoint, converted to an ${precision} package`;
  const sizes = info.kind === 'package' ? `${formatBytes(info.downloadBytes)} to download` : `${formatBytes(info.downloadBytes)} to download, the package about ${formatBytes(info.packageBytes)}`;
  return `${where}: ${what}; licence ${terms.name} (${terms.summary})${info.gated ? ', gated' : ''}; ${sizes}`;
}

interface ProgressPrinter {
  update(progress: ModelProgress): void;
  /** A line printed above the progress line. */
  above(line: string): void;
  stop(): void;
}

/** On a terminal one line redrawn in place (at most 4 times a second); in a log a line every 10 s, per file and per step. */
function progressPrinter(stderr: Writable): ProgressPrinter {
  const tty = (stderr as Partial<WriteStream>).isTTY === true;
  const columns = () => ((stderr as Partial<WriteStream>).columns || 80) - 1;
  let shown = '';
  let drawnAt = 0;
  let lastKey = '';
  const clear = () => tty && shown && stderr.write('\r\x1b[K');
  const draw = (line: string) => {
    if (tty) {
      clear();
      shown = line.slice(0, columns());
      stderr.write(shown);
    } else stderr.write(`${line}\n`);
  };
  return {
    update: (progress) => {
      const line = progressLine(progress);
      if (!line) return;
      const key = `${progress.phase}:${progress.file ?? ''}:${progress.step?.name ?? ''}`;
      const now = Date.now();
      const due = key !== lastKey || now - drawnAt >= (tty ? 250 : 10_000) || (progress.phase === 'downloading' && progress.doneBytes === progress.totalBytes);
      if (!due) return;
      lastKey = key;
      drawnAt = now;
      draw(line);
    },
    above: (line) => {
      clear();
      stderr.write(`${line}\n`);
      if (tty && shown) stderr.write(shown);
    },
    stop: () => {
      clear();
      shown = '';
    },
  };
}

export function progressLine(progress: ModelProgress): string | undefined {
  if (progress.phase === 'downloading') return `downloading: ${transferText(progress)}${progress.file ? ` (${progress.file})` : ''}`;
  if (progress.phase === 'converting' && progress.step) return `converting: ${progress.step.name} ${progress.step.done}/${progress.step.total}`;
  if (progress.phase === 'installing') return 'installing the package';
  return undefined;
}

async function list(modelsDir: string, json: boolean, io: ModelCommandIo): Promise<number> {
  const installed = await listInstalled(modelsDir);
  const unfinished = await listUnfinished(modelsDir);
  if (json) {
    io.stdout.write(`${JSON.stringify({ installed, unfinished }, null, 2)}\n`);
    return 0;
  }
  if (installed.length === 0) io.stderr.write(`no models installed in ${modelsDir}; "folio model get jinaai/jina-ocr-v1" installs one\n`);
  for (const model of installed) io.stdout.write(`${modelLine(model)}\n`);
  for (const download of unfinished) {
    io.stderr.write(
      `unfinished: ${download.id} (${download.precision}), started ${download.startedAt.slice(0, 16).replace('T', ' ')}` +
        `${download.message ? `, stopped: ${download.message}` : ''}; "folio model get ${download.source} --precision ${download.precision}" resumes it\n`,
    );
  }
  return 0;
}

function modelLine(model: InstalledModel): string {
  const terms = licenceTerms(model.license);
  const source = model.source.kind === 'hub' ? `${model.source.revision}@${model.source.commit.slice(0, 10)}` : model.source.path;
  return [model.id, model.precision, source, formatBytes(model.sizeBytes), model.devices.join(','), `${terms.name} (${terms.summary})`, model.folder].join('\t');
}

async function remove(modelsDir: string, id: string, io: ModelCommandIo, cacheDir: string): Promise<number> {
  const removed = await removeInstalled(modelsDir, id);
  const [repo, precision] = id.split(':');
  for (const download of await listUnfinished(modelsDir)) {
    if (download.id === repo && (precision === undefined || download.precision === precision)) await clearUnfinished(modelsDir, download.id, download.precision);
  }
  if (removed.length === 0) {
    io.stderr.write(`folio: no model installed as ${id} in ${modelsDir}; "folio model list" shows what is\n`);
    return 1;
  }
  for (const model of removed) io.stderr.write(`removed ${model.id} (${model.precision}, ${formatBytes(model.sizeBytes)}) from ${model.folder}\n`);
  if (removed.some((model) => model.source.kind === 'hub')) {
    io.stderr.write(`its download stays in the Hugging Face cache (${cacheDir}), shared with other tools; "hf cache delete" frees it\n`);
  }
  return 0;
}
