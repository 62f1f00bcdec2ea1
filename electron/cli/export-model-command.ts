/**
 * `folio export-model <checkpoint> -o <dir>`: a model package from a Hugging Face checkpoint folder
 * on this machine, made by the TypeScript exporter in its own process. Progress goes to stderr, a
 * line a step (and a layer); the last line on stdout is the package folder.
 */

import path from 'node:path';
import type { Writable } from 'node:stream';
import type { PackageExportOptions, PackageExportProgress } from '../../shared/model-export.js';
import { runPackageExport } from '../core/model/package-export.js';

export interface ExportModelIo {
  stdout: Writable;
  stderr: Writable;
  signal?: AbortSignal;
}

function progressLine(progress: PackageExportProgress, seconds: number): string {
  const counted = progress.total > 1 ? ` ${progress.done}/${progress.total}` : '';
  return `export: ${progress.step}${counted} (${seconds.toFixed(0)} s)\n`;
}

/** Exit status 0 when the package was written, 1 when it was not, 130 when interrupted. */
export async function runExportModel(request: PackageExportOptions, io: ExportModelIo): Promise<number> {
  const started = Date.now();
  let last = '';
  try {
    const { manifestPath } = await runPackageExport(request, {
      signal: io.signal,
      onProgress: (progress) => {
        const step = `${progress.step} ${progress.done}/${progress.total}`;
        // one line a step's start and a line per unit of work that takes a while (a decoder layer)
        if (step === last || (progress.done > 0 && progress.total <= 1) || progress.step === 'manifest' && progress.done < progress.total) return;
        last = step;
        io.stderr.write(progressLine(progress, (Date.now() - started) / 1000));
      },
      onWarning: (message) => io.stderr.write(`export: warning: ${message}\n`),
    });
    io.stderr.write(`export: wrote ${manifestPath} in ${((Date.now() - started) / 1000).toFixed(0)} s\n`);
    io.stdout.write(`${path.dirname(manifestPath)}\n`);
    return 0;
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') {
      io.stderr.write('export: cancelled; the files it had written are removed\n');
      return 130;
    }
    io.stderr.write(`export: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  }
}
