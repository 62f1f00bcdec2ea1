/**
 * Makes a Folio model package from a Hugging Face checkpoint folder, in TypeScript: the exporter runs
 * in a process of its own (electron/engine/model-export/export-worker.ts), so neither the CLI nor the
 * app's main process holds a weight, and a cancel ends it at once. Progress comes back as the
 * exporter's steps; a failure says which field, tensor or file was at fault.
 */

import { fork } from 'node:child_process';
import { existsSync, readdirSync, rmdirSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { PackageExportMessage, PackageExportOptions, PackageExportProgress } from '../../../shared/model-export.js';
import { exitReport } from '../engine-client/host-process.js';

/** The built exporter entry. */
export const EXPORT_WORKER = fileURLToPath(new URL('../../engine/model-export/export-worker.js', import.meta.url));

/** The exporter's heap: it holds one decoder layer's experts (about 0.2 GB at the real width) and the graphs' protobufs; weights live outside the heap. */
const EXPORT_HEAP_MB = 2048;

export interface PackageExportRequest {
  checkpointDir: string;
  outDir: string;
  precision: 'int4' | 'fp16' | 'fp32';
  signal?: AbortSignal;
  onProgress?: (progress: { step: string; done: number; total: number }) => void;
}

export interface PackageExportHooks {
  signal?: AbortSignal;
  onProgress?: (progress: PackageExportProgress) => void;
  /** Something the user should know that does not stop the export (an id the tokenizer lacks, an ignored config field). */
  onWarning?: (message: string) => void;
  /** Tests: another script to fork. */
  modulePath?: string;
}

/** The package in `outDir`, made from the checkpoint in `checkpointDir`, with the exporter's defaults for everything but the precision. */
export function exportPackage(request: PackageExportRequest): Promise<{ manifestPath: string }> {
  const { signal, onProgress, ...options } = request;
  return runPackageExport(options, { signal, onProgress });
}

/** `exportPackage` with every exporter option (the CLI's). */
export function runPackageExport(options: PackageExportOptions, hooks: PackageExportHooks = {}): Promise<{ manifestPath: string }> {
  const { signal } = hooks;
  if (signal?.aborted) return Promise.reject(new DOMException('the export was cancelled', 'AbortError'));
  const folderExisted = existsSync(options.outDir);
  const written = new Set<string>();
  return new Promise((resolve, reject) => {
    const child = fork(hooks.modulePath ?? EXPORT_WORKER, [], {
      serialization: 'advanced',
      execArgv: [`--max-old-space-size=${EXPORT_HEAP_MB}`],
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
    });
    const report = exitReport(child.stderr);
    let outcome: { manifestPath: string } | Error | undefined;
    const cleanUp = () => {
      for (const file of written) rmSync(file, { force: true });
      if (!folderExisted && existsSync(options.outDir) && readdirSync(options.outDir).length === 0) rmdirSync(options.outDir);
    };
    const cancel = () => {
      outcome ??= new DOMException('the export was cancelled', 'AbortError');
      child.kill('SIGKILL');
    };
    signal?.addEventListener('abort', cancel, { once: true });
    const killOnExit = () => child.kill('SIGKILL');
    process.once('exit', killOnExit);
    child.on('message', (message: PackageExportMessage) => {
      if (message.kind === 'progress') hooks.onProgress?.(message.progress);
      else if (message.kind === 'warning') hooks.onWarning?.(message.message);
      else if (message.kind === 'file') written.add(message.file);
      else if (message.kind === 'done') outcome ??= { manifestPath: message.manifestPath };
      else outcome ??= new Error(message.message);
    });
    child.on('error', (error) => report.failed(`could not run the exporter (${hooks.modulePath ?? EXPORT_WORKER}): ${error.message}`));
    child.once('close', (code, signalName) => report.exited(signalName ? `signal ${signalName}` : `exit code ${code ?? 'unknown'}`));
    report.onExit((how) => {
      signal?.removeEventListener('abort', cancel);
      process.removeListener('exit', killOnExit);
      const result = outcome ?? new Error(`the exporter stopped before it finished (${how})`);
      if (result instanceof Error) {
        cleanUp();
        reject(result);
      } else {
        resolve(result);
      }
    });
    child.send(options);
  });
}
