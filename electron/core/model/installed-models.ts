/**
 * Where `folio model get` and the app's model manager install packages, and how they are found
 * again: `<app data>/models/<owner>--<name>--<precision>/`, each a model package with
 * `folio-model.json` beside its manifest (the repo, revision and commit, precision, licence, when).
 * A download under way or stopped is `models/.downloads/<folder>.json`, so the app offers to resume
 * it after a restart; a conversion is written in `models/.partial/` and renamed into place whole.
 */

import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { installFolderName, MODEL_PRECISIONS, parseRepoReference, type InstalledModel, type ModelPrecision, type UnfinishedDownload } from '../../../shared/model-library.js';

export const MODEL_RECORD = 'folio-model.json';

/** What a package's providers default to when its manifest names none (the exporter's PROVIDERS, electron/engine/model-export/precision.ts). */
const PRECISION_DEVICES: Readonly<Record<ModelPrecision, string[]>> = { fp32: ['cpu', 'cuda'], fp16: ['cuda'], int4: ['cpu', 'webgpu', 'cuda'] };

const recordSchema = z.object({
  id: z.string(),
  precision: z.enum(MODEL_PRECISIONS),
  source: z.discriminatedUnion('kind', [
    z.object({ kind: z.literal('hub'), repo: z.string(), revision: z.string(), commit: z.string() }),
    z.object({ kind: z.literal('folder'), path: z.string() }),
  ]),
  origin: z.enum(['converted', 'package']),
  license: z.string().optional(),
  installedAt: z.string(),
});
export type ModelRecord = z.infer<typeof recordSchema>;

const unfinishedSchema = z.object({
  id: z.string(),
  source: z.string(),
  precision: z.enum(MODEL_PRECISIONS),
  license: z.string().optional(),
  startedAt: z.string(),
  message: z.string().optional(),
});

export function modelsFolder(dataDir: string): string {
  return path.join(dataDir, 'models');
}

/** The installed packages, by id then precision; a folder without a readable record is not one. */
export async function listInstalled(modelsDir: string): Promise<InstalledModel[]> {
  const models: InstalledModel[] = [];
  for (const entry of await readdir(modelsDir, { withFileTypes: true }).catch(() => [])) {
    if (!entry.isDirectory() || entry.name.startsWith('.')) continue;
    const folder = path.join(modelsDir, entry.name);
    const record = await readRecord(folder);
    if (record) models.push(await describe(folder, record));
  }
  return models.sort((a, b) => a.id.localeCompare(b.id) || MODEL_PRECISIONS.indexOf(a.precision) - MODEL_PRECISIONS.indexOf(b.precision));
}

/**
 * The package `--model` names by id (`owner/name`, or `owner/name:fp16` for one precision of
 * several), read synchronously as the command line is parsed. Of several precisions, int4 first
 * (it runs everywhere), then fp16, then fp32. Undefined when the text is not an id or nothing is installed under it.
 */
export function findInstalled(modelsDir: string, text: string): { folder: string; precision: ModelPrecision } | undefined {
  const [idText, precisionText] = text.split(':');
  const reference = parseRepoReference(idText ?? '');
  if (!reference || reference.revision !== undefined) return undefined;
  const wanted = MODEL_PRECISIONS.find((precision) => precision === precisionText);
  if (precisionText !== undefined && !wanted) return undefined;
  for (const precision of wanted ? [wanted] : MODEL_PRECISIONS) {
    const folder = path.join(modelsDir, installFolderName(reference.repo, precision));
    if (!existsSync(path.join(folder, 'manifest.json'))) continue;
    try {
      const record = recordSchema.parse(JSON.parse(readFileSync(path.join(folder, MODEL_RECORD), 'utf8')));
      if (record.id === reference.repo) return { folder, precision };
    } catch {
      // not installed by Folio: a folder of that name is not taken for the model
    }
  }
  return undefined;
}

/** The installed ids, for a message that lists what `--model` could have named. */
export function installedIds(modelsDir: string): string[] {
  try {
    return readdirSync(modelsDir)
      .filter((name) => !name.startsWith('.') && existsSync(path.join(modelsDir, name, MODEL_RECORD)))
      .map((name) => {
        const record = recordSchema.safeParse(JSON.parse(readFileSync(path.join(modelsDir, name, MODEL_RECORD), 'utf8')));
        return record.success ? `${record.data.id}:${record.data.precision}` : undefined;
      })
      .filter((id): id is string => id !== undefined);
  } catch {
    return [];
  }
}

/** Removes the packages installed as `text` (every precision, or the one named); resolves with what was removed. */
export async function removeInstalled(modelsDir: string, text: string): Promise<InstalledModel[]> {
  const [id, precision] = text.split(':');
  const removed = (await listInstalled(modelsDir)).filter((model) => model.id === id && (precision === undefined || model.precision === precision));
  for (const model of removed) {
    // renamed away first, so a half-removed package is never found as installed
    const doomed = path.join(modelsDir, '.partial', `removing-${path.basename(model.folder)}-${process.pid}`);
    await mkdir(path.dirname(doomed), { recursive: true });
    await rename(model.folder, doomed);
    await rm(doomed, { recursive: true, force: true });
  }
  return removed;
}

export async function readRecord(folder: string): Promise<ModelRecord | undefined> {
  try {
    const parsed = recordSchema.safeParse(JSON.parse(await readFile(path.join(folder, MODEL_RECORD), 'utf8')));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

export async function writeRecord(folder: string, record: ModelRecord): Promise<void> {
  await writeFile(path.join(folder, MODEL_RECORD), `${JSON.stringify(record, null, 2)}\n`);
}

async function describe(folder: string, record: ModelRecord): Promise<InstalledModel> {
  let devices = PRECISION_DEVICES[record.precision];
  let license = record.license;
  try {
    const manifest = JSON.parse(await readFile(path.join(folder, 'manifest.json'), 'utf8')) as { providers?: unknown; weights_licence?: unknown };
    if (Array.isArray(manifest.providers) && manifest.providers.every((provider) => typeof provider === 'string')) devices = manifest.providers as string[];
    if (license === undefined && typeof manifest.weights_licence === 'string') license = manifest.weights_licence;
  } catch {
    // a package whose manifest went missing is still listed, so it can be removed
  }
  return { ...record, license, folder, sizeBytes: await sizeOnDisk(folder), devices };
}

async function sizeOnDisk(folder: string): Promise<number> {
  let total = 0;
  for (const entry of await readdir(folder, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) total += (await stat(path.join(entry.parentPath, entry.name))).size;
  }
  return total;
}

function unfinishedFile(modelsDir: string, id: string, precision: ModelPrecision): string {
  return path.join(modelsDir, '.downloads', `${installFolderName(id, precision)}.json`);
}

/** Recorded as a download starts, cleared when it is installed or discarded: what the app offers to resume. */
export async function markUnfinished(modelsDir: string, download: UnfinishedDownload): Promise<void> {
  const file = unfinishedFile(modelsDir, download.id, download.precision);
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, `${JSON.stringify(download, null, 2)}\n`);
}

export async function clearUnfinished(modelsDir: string, id: string, precision: ModelPrecision): Promise<void> {
  await rm(unfinishedFile(modelsDir, id, precision), { force: true });
}

export async function listUnfinished(modelsDir: string): Promise<UnfinishedDownload[]> {
  const folder = path.join(modelsDir, '.downloads');
  const downloads: UnfinishedDownload[] = [];
  for (const name of await readdir(folder).catch(() => [])) {
    try {
      const parsed = unfinishedSchema.safeParse(JSON.parse(await readFile(path.join(folder, name), 'utf8')));
      if (parsed.success) downloads.push(parsed.data);
    } catch {
      // a record half-written when the app was killed is left for the next download to replace
    }
  }
  return downloads.sort((a, b) => a.startedAt.localeCompare(b.startedAt));
}
