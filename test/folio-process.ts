/** Runs the built `folio` command as a user would, collecting its output. */

import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

export const repoRoot = path.resolve(import.meta.dirname, '..');
const launcher = path.join(repoRoot, 'bin/folio.js');
// the CLI keeps what `--device auto` measured in the app-data folder: the tests' own, never the user's
const dataDir = mkdtempSync(path.join(tmpdir(), 'folio-test-data-'));

export interface FolioRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** `cwd`: the working directory the command runs in (the repository unless given). */
export function runFolio(args: readonly string[], env: Record<string, string> = {}, cwd = repoRoot): Promise<FolioRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [launcher, ...args], { cwd, stdio: ['ignore', 'pipe', 'pipe'], env: { FOLIO_USER_DATA_DIR: dataDir, ...process.env, ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** `folio export-model CHECKPOINT -o OUT ...options`: the TypeScript exporter as a user runs it; throws with its stderr when it fails. */
export async function exportModel(checkpoint: string, out: string, options: readonly string[]): Promise<void> {
  const result = await runFolio(['export-model', checkpoint, '-o', out, ...options]);
  if (result.code !== 0) throw new Error(`folio export-model ${checkpoint} exited with ${result.code}: ${result.stderr}`);
}
