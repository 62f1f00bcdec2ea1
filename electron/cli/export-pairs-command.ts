/**
 * `folio export-pairs`: the fine-tuning pairs of the desktop app's workspace (pages a person edited
 * or marked reviewed), read from the app's data folder without changing it, pages rendered by an
 * engine host. The app's Export > Training pairs writes the same folder.
 */

import { access } from 'node:fs/promises';
import path from 'node:path';
import type { Writable } from 'node:stream';
import type { WorkspaceDocument } from '../../shared/workspace.js';
import { forkHost } from '../core/engine-client/fork-host.js';
import { HostClient } from '../core/engine-client/host-client.js';
import type { SpawnHost } from '../core/engine-client/host-process.js';
import { exportTrainingPairs, HostPageRenderer, pairSettings, type PairSettings } from '../core/training-pairs-export.js';
import { readSavedWorkspace } from '../core/workspace-store.js';
import { appDataFolder } from './app-data-folder.js';
import type { ExportPairsRequest } from './cli-args.js';
import { terminalSafe } from './terminal-text.js';

export interface ExportPairsIo {
  stdout: Writable;
  stderr: Writable;
  signal?: AbortSignal;
  spawnHost?: SpawnHost;
}

/** Exit status 0 when the folder was written (pages left out are warned of), 1 when it was not. */
export async function runExportPairs(request: ExportPairsRequest, io: ExportPairsIo): Promise<number> {
  const fail = (message: string) => {
    io.stderr.write(`folio: ${terminalSafe(message)}\n`);
    return 1;
  };
  const workspaceDir = path.resolve(request.workspaceDir ?? appDataFolder());
  if (!(await access(path.join(workspaceDir, 'workspace.json')).then(() => true, () => false))) {
    return fail(`no Folio workspace in ${workspaceDir} (no workspace.json); open the documents in the Folio app, review them, or name the app's data folder with --workspace <dir>.`);
  }
  const { workspace, problems } = await readSavedWorkspace(workspaceDir);
  for (const problem of problems) io.stderr.write(`folio: ${terminalSafe(problem)}\n`);
  let documents: WorkspaceDocument[];
  try {
    documents = chosenDocuments(workspace.documents, request.documents);
  } catch (error) {
    return fail((error as Error).message);
  }
  let settings: PairSettings;
  try {
    settings = await pairSettings(request.modelDir, { format: request.format, imageSize: request.imageSize });
  } catch (error) {
    return fail((error as Error).message);
  }
  const client = new HostClient({ spawnHost: io.spawnHost ?? (() => forkHost()), pageTimeoutMs: request.pageTimeoutMs, openTimeoutMs: request.pageTimeoutMs });
  const renderer = new HostPageRenderer(client, () => request.password);
  try {
    const outcome = await exportTrainingPairs(
      documents,
      { ...settings, folder: request.outDir, validationShare: request.validationShare, overwrite: request.overwrite, signal: io.signal },
      renderer,
    );
    switch (outcome.kind) {
      case 'would-overwrite':
        return fail(`these files already exist; add --overwrite to replace them, or choose another -o:\n  ${outcome.files.join('\n  ')}`);
      case 'failed':
        return fail(outcome.message);
      case 'written':
        for (const warning of outcome.warnings ?? []) io.stderr.write(`folio: ${terminalSafe(warning)}\n`);
        io.stdout.write(
          `${outcome.counts.train} training and ${outcome.counts.validation} validation pairs (${settings.format}, images ${settings.imageSize} px) in ${outcome.folder}\n`,
        );
        return 0;
    }
  } finally {
    await renderer.close();
    client.dispose();
  }
}

/** Documents named by id, path or file name, in the workspace's order; every name must match one. */
function chosenDocuments(documents: readonly WorkspaceDocument[], names: readonly string[]): WorkspaceDocument[] {
  if (names.length === 0) return [...documents];
  const chosen = new Set<WorkspaceDocument>();
  for (const name of names) {
    const matches = documents.filter((document) => document.id === name || document.path === path.resolve(name) || document.name === name);
    if (matches.length === 0) throw new Error(`no document "${name}" in the workspace; name one by its id, its file's path or its file name.`);
    if (matches.length > 1) throw new Error(`"${name}" names ${matches.length} documents (${matches.map((document) => document.path).join(', ')}); give the file's path or the document's id.`);
    chosen.add(matches[0]!);
  }
  return documents.filter((document) => chosen.has(document));
}
