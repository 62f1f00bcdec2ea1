/**
 * `folio model get` and the app's "Get a model": a Hub repo (or a checkpoint folder) becomes an
 * installed package. A repo holding a Folio package (manifest.json of format folio-model-package)
 * is fetched as it is and its files linked into the models folder; a checkpoint is fetched (small
 * files first, then the shards its index names) and converted. Free space is checked before the
 * shards, and a download that stops is recorded so that the next `get` (or the app's Resume)
 * finishes it from the cache.
 */

import { copyFile, link, mkdir, readFile, realpath, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { estimatePackageBytes, checkFreeSpace, freeSpace as measureFreeSpace, type FreeSpace, type SpaceNeed } from './disk-space.js';
import { clearUnfinished, listInstalled, markUnfinished, writeRecord, type ModelRecord } from './installed-models.js';
import { MANIFEST_FORMAT } from './manifest.js';
import { fileSha256 } from './package-files.js';
import { cancelledError, HubError } from '../hub/hub-error.js';
import type { RetryPolicy } from '../hub/hub-fetch.js';
import type { HubSettings } from '../hub/hub-settings.js';
import { bytesToFetch, fetchFiles, openSnapshot, type HubFile, type RepoSnapshot } from '../hub/hub-snapshot.js';
import type { TransferProgress } from '../hub/transfer-meter.js';
import type { PackageExportProgress } from '../../../shared/model-export.js';
import { installFolderName, parseRepoReference, type InstalledModel, type ModelPrecision, type ModelProgress, type ModelSourceInfo } from '../../../shared/model-library.js';

export interface InstallRequest {
  /** `owner/name[@revision]`, or a checkpoint folder. */
  source: string;
  precision: ModelPrecision;
  /** `<app data>/models`. */
  modelsDir: string;
  hub: HubSettings;
  signal?: AbortSignal;
  retry?: RetryPolicy;
  onProgress?(progress: ModelProgress): void;
  /** What is about to be fetched and installed, once the repo has been looked at and before the large files. */
  onPlan?(info: ModelSourceInfo): void;
  /** Something worth telling the user on the way (a file fetched again, the cache used offline). */
  onNote?(note: string): void;
  /** How free space is measured; tests pass their own. */
  freeSpace?: FreeSpace;
}

/** Files of a checkpoint repo worth fetching besides the shards: configs, tokenizer, template, model card, licence. */
const CHECKPOINT_FILE = /^(?:[^/]+\.json|[^/]+\.jinja|README\.md|LICEN[CS]E[^/]*|[^/]+\.model|[^/]+\.txt)$/i;
const SHARD_INDEX = 'model.safetensors.index.json';

/** A source looked at, before anything large is fetched. */
interface Prepared {
  info: ModelSourceInfo;
  /** Absent for a checkpoint folder on disk. */
  snapshot?: RepoSnapshot;
  /** What still has to come from the Hub. */
  large: HubFile[];
  /** The checkpoint or package folder, once fetched. */
  dir: string;
  needs: SpaceNeed[];
}

/** What the user is shown before accepting: the kind of repo, its licence, the download and package sizes. Fetches only small files. */
export async function inspectSource(request: InstallRequest): Promise<ModelSourceInfo> {
  return (await prepare(request)).info;
}

/** Fetches, converts when needed and installs; resolves with the installed package. */
export async function installModel(request: InstallRequest): Promise<InstalledModel> {
  const prepared = await prepare(request);
  const { info, snapshot } = prepared;
  request.onPlan?.(info);
  await checkFreeSpace(prepared.needs, request.freeSpace ?? measureFreeSpace);
  const unfinished = { id: info.id, source: info.source, precision: request.precision, ...(info.license !== undefined && { license: info.license }), startedAt: new Date().toISOString() };
  await markUnfinished(request.modelsDir, unfinished);
  try {
    if (snapshot) {
      await fetchFiles(snapshot, prepared.large, {
        signal: request.signal,
        retry: request.retry,
        onNote: request.onNote,
        onProgress: (progress) => request.onProgress?.(downloading(progress)),
      });
    }
    const precision = info.kind === 'package' ? await packagePrecision(prepared.dir, request.precision) : request.precision;
    const folder = path.join(request.modelsDir, installFolderName(info.id, precision));
    const partial = path.join(request.modelsDir, '.partial', path.basename(folder));
    await rm(partial, { recursive: true, force: true });
    await mkdir(partial, { recursive: true });
    if (info.kind === 'checkpoint') await convertCheckpoint(prepared, partial, request);
    request.onProgress?.(phase('installing'));
    if (info.kind === 'package') await linkPackage(prepared, partial);
    const record: ModelRecord = {
      id: info.id,
      precision,
      source: snapshot ? { kind: 'hub', repo: snapshot.repo, revision: snapshot.revision, commit: snapshot.commit } : { kind: 'folder', path: prepared.dir },
      origin: info.kind === 'package' ? 'package' : 'converted',
      ...(info.license !== undefined && { license: info.license }),
      installedAt: new Date().toISOString(),
    };
    await writeRecord(partial, record);
    await replaceFolder(partial, folder);
    await clearUnfinished(request.modelsDir, info.id, request.precision);
    const installed = (await listInstalled(request.modelsDir)).find((model) => model.folder === folder);
    if (!installed) throw new Error(`${folder} was installed but cannot be read back`);
    return installed;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    await markUnfinished(request.modelsDir, { ...unfinished, message }).catch(() => undefined);
    throw error;
  }
}

async function prepare(request: InstallRequest): Promise<Prepared> {
  request.onProgress?.(phase('listing'));
  const reference = parseRepoReference(request.source);
  const folder = path.resolve(request.source);
  if (await isFolder(folder)) return prepareFolder(folder, request);
  if (!reference) {
    throw new HubError('repo-not-found', `${request.source} is neither a folder nor a Hugging Face repo id (owner/name, as in https://huggingface.co/owner/name)`);
  }
  const snapshot = await openSnapshot({ settings: request.hub, repo: reference.repo, revision: reference.revision, signal: request.signal, retry: request.retry });
  if (snapshot.offline) request.onNote?.(`the Hub cannot be reached; using ${snapshot.repo}@${snapshot.revision} as the cache holds it (${snapshot.dir})`);
  const fetchSmall = (files: HubFile[]) => fetchFiles(snapshot, files, { signal: request.signal, retry: request.retry, onNote: request.onNote });
  const byPath = new Map(snapshot.files.map((file) => [file.path, file]));
  const manifestFile = byPath.get('manifest.json');
  const base = { id: reference.repo, source: request.source, revision: snapshot.revision, commit: snapshot.commit, license: snapshot.license, gated: snapshot.gated };
  if (manifestFile) {
    await fetchSmall([manifestFile]);
    const manifest = await readJson(path.join(snapshot.dir, 'manifest.json'));
    if (manifest?.format === MANIFEST_FORMAT) {
      const listed = Object.keys((manifest.files ?? {}) as Record<string, string>);
      const missing = listed.filter((file) => !byPath.has(file));
      if (missing.length > 0) throw new HubError('file-not-found', `${snapshot.repo}@${snapshot.revision} holds a Folio model package whose manifest lists files the repo lacks: ${missing.join(', ')}`);
      const extras = snapshot.files.filter((file) => /^(README\.md|LICEN[CS]E[^/]*)$/i.test(file.path));
      const large = [...listed.map((file) => byPath.get(file)!), ...extras];
      const downloadBytes = await bytesToFetch(snapshot, large);
      const packageBytes = large.reduce((sum, file) => sum + file.size, 0) + manifestFile.size;
      const linked = await sameDisk(snapshot.repoDir, request.modelsDir);
      return {
        info: { ...base, kind: 'package', license: snapshot.license ?? stringField(manifest.weights_licence), downloadBytes, packageBytes },
        snapshot,
        large,
        dir: snapshot.dir,
        needs: [
          { dir: snapshot.repoDir, bytes: downloadBytes, what: 'the download' },
          { dir: request.modelsDir, bytes: linked ? 0 : packageBytes, what: 'the package' },
        ],
      };
    }
  }
  const small = snapshot.files.filter((file) => CHECKPOINT_FILE.test(file.path));
  await fetchSmall(small);
  if (!byPath.has('config.json')) {
    throw new HubError('file-not-found', `${snapshot.repo}@${snapshot.revision} holds neither a Folio model package (manifest.json) nor a checkpoint (config.json and *.safetensors)`);
  }
  const shards = await shardFiles(snapshot, byPath);
  const checkpointBytes = shards.reduce((sum, file) => sum + file.size, 0);
  const downloadBytes = await bytesToFetch(snapshot, shards);
  const packageBytes = estimatePackageBytes(checkpointBytes, request.precision, await bytesPerWeight(snapshot.dir));
  return {
    info: { ...base, kind: 'checkpoint', downloadBytes, packageBytes },
    snapshot,
    large: shards,
    dir: snapshot.dir,
    needs: [
      { dir: snapshot.repoDir, bytes: downloadBytes, what: 'the download' },
      { dir: request.modelsDir, bytes: packageBytes, what: 'the package' },
    ],
  };
}

/** The shards the index names, or every top-level `*.safetensors` when there is no index. */
async function shardFiles(snapshot: RepoSnapshot, byPath: Map<string, HubFile>): Promise<HubFile[]> {
  const where = `${snapshot.repo}@${snapshot.revision}`;
  if (byPath.has(SHARD_INDEX)) {
    const index = await readJson(path.join(snapshot.dir, SHARD_INDEX));
    const names = [...new Set(Object.values((index?.weight_map ?? {}) as Record<string, string>))].sort();
    const missing = names.filter((name) => !byPath.has(name));
    if (names.length === 0 || missing.length > 0) {
      throw new HubError('file-not-found', `${where}: ${SHARD_INDEX} names shards the repo lacks (${missing.join(', ') || 'none named'})`);
    }
    return names.map((name) => byPath.get(name)!);
  }
  const shards = snapshot.files.filter((file) => /^[^/]+\.safetensors$/.test(file.path));
  if (shards.length === 0) {
    const other = snapshot.files.find((file) => /\.(bin|pt|pth|ckpt|gguf)$/.test(file.path));
    throw new HubError('file-not-found', `${where} has no *.safetensors weights${other ? ` (only ${other.path}, which Folio does not read)` : ''}: Folio converts safetensors checkpoints`);
  }
  return shards;
}

async function prepareFolder(folder: string, request: InstallRequest): Promise<Prepared> {
  const manifest = await readJson(path.join(folder, 'manifest.json'));
  if (manifest?.format === MANIFEST_FORMAT) {
    throw new HubError('file-not-found', `${folder} is already a Folio model package: use it as it is (--model ${folder}, or Settings' model folder)`);
  }
  if (!(await isFile(path.join(folder, 'config.json')))) {
    throw new HubError('file-not-found', `${folder} is not a checkpoint folder: it has no config.json (a Hugging Face checkpoint has config.json, *.safetensors and tokenizer.json)`);
  }
  const index = await readJson(path.join(folder, SHARD_INDEX));
  const shards = index ? [...new Set(Object.values((index.weight_map ?? {}) as Record<string, string>))] : ['model.safetensors'];
  let checkpointBytes = 0;
  for (const shard of shards) checkpointBytes += (await stat(path.join(folder, shard)).catch(() => ({ size: 0 }))).size;
  const readme = await readFile(path.join(folder, 'README.md'), 'utf8').catch(() => '');
  const license = /^---\n[\s\S]*?^license:\s*(\S+)[\s\S]*?\n---/m.exec(readme)?.[1];
  const packageBytes = estimatePackageBytes(checkpointBytes, request.precision, await bytesPerWeight(folder));
  return {
    info: { id: `local/${path.basename(folder)}`, source: folder, kind: 'checkpoint', license, gated: false, downloadBytes: 0, packageBytes },
    large: [],
    dir: folder,
    needs: [{ dir: request.modelsDir, bytes: packageBytes, what: 'the package' }],
  };
}

/**
 * The package's files into the models folder: hard links to the cache's blobs where both are on
 * one disk (no second copy), copies elsewhere. Each file listed in the manifest is checked against
 * its sha256 there, from the Hub's own digest where it has one (no second read of the weights).
 */
async function linkPackage(prepared: Prepared, partial: string): Promise<void> {
  const manifestText = await readFile(path.join(prepared.dir, 'manifest.json'), 'utf8');
  const digests = ((JSON.parse(manifestText) as { files?: Record<string, string> }).files ?? {});
  const byPath = new Map(prepared.large.map((file) => [file.path, file]));
  for (const file of ['manifest.json', ...prepared.large.map((entry) => entry.path)]) {
    const expected = digests[file];
    const hubFile = byPath.get(file);
    if (expected !== undefined) {
      const actual = hubFile?.digest.kind === 'sha256' ? hubFile.digest.value : await fileSha256(path.join(prepared.dir, file));
      if (actual !== expected) {
        throw new HubError('integrity', `${prepared.info.id}: ${file}'s sha256 is not the one its manifest.json lists (${actual} against ${expected}); the package on the Hub is inconsistent: tell its authors`);
      }
    }
    const target = path.join(partial, ...file.split('/'));
    await mkdir(path.dirname(target), { recursive: true });
    await linkOrCopy(path.join(prepared.dir, file), target);
  }
}

/**
 * The checkpoint converted by the TypeScript exporter (package-export.ts, its own process) into
 * `partial`; its steps come back as progress, its warnings (a config field it ignores) as notes.
 */
async function convertCheckpoint(prepared: Prepared, partial: string, request: InstallRequest): Promise<void> {
  const { runPackageExport } = await import('./package-export.js');
  const converting = (step: PackageExportProgress): ModelProgress => ({ ...phase('converting'), step: { name: step.step, done: step.done, total: step.total } });
  try {
    await runPackageExport(
      { checkpointDir: prepared.dir, outDir: partial, precision: request.precision, name: prepared.info.id, ...(prepared.info.license && { licence: prepared.info.license }) },
      { signal: request.signal, onProgress: (step) => request.onProgress?.(converting(step)), onWarning: request.onNote },
    );
  } catch (error) {
    if (request.signal?.aborted) throw cancelledError();
    throw new HubError('refused', `${prepared.info.id} could not be converted: ${error instanceof Error ? error.message : String(error)}`);
  }
}

async function linkOrCopy(source: string, target: string): Promise<void> {
  const real = await realpath(source);
  await rm(target, { force: true });
  try {
    await link(real, target);
  } catch {
    await copyFile(real, target);
  }
}

/** Puts a finished package in place, replacing an older install of the same id and precision. */
async function replaceFolder(partial: string, folder: string): Promise<void> {
  const old = `${partial}.old`;
  await rm(old, { recursive: true, force: true });
  await rename(folder, old).catch((error: NodeJS.ErrnoException) => {
    if (error.code !== 'ENOENT') throw error;
  });
  await rename(partial, folder);
  await rm(old, { recursive: true, force: true });
}

async function packagePrecision(dir: string, asked: ModelPrecision): Promise<ModelPrecision> {
  const manifest = await readJson(path.join(dir, 'manifest.json'));
  const precision = manifest?.precision ?? (manifest?.dtype === 'float16' ? 'fp16' : manifest?.dtype === 'float32' ? 'fp32' : undefined);
  return precision === 'int4' || precision === 'fp16' || precision === 'fp32' ? precision : asked;
}

/** 4 for a checkpoint config.json says is float32, else 2 (bf16, as published). */
async function bytesPerWeight(dir: string): Promise<number> {
  const config = await readJson(path.join(dir, 'config.json'));
  const dtype = config?.torch_dtype ?? config?.dtype;
  return dtype === 'float32' ? 4 : 2;
}

function downloading(progress: TransferProgress): ModelProgress {
  return { phase: 'downloading', ...progress };
}

function phase(name: ModelProgress['phase']): ModelProgress {
  return { phase: name, doneBytes: 0, totalBytes: 0, bytesPerSecond: 0, secondsLeft: undefined };
}

async function readJson(file: string): Promise<Record<string, unknown> | undefined> {
  try {
    const value = JSON.parse(await readFile(file, 'utf8')) as unknown;
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

function stringField(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

async function isFolder(dir: string): Promise<boolean> {
  return (await stat(dir).catch(() => undefined))?.isDirectory() ?? false;
}

async function isFile(file: string): Promise<boolean> {
  return (await stat(file).catch(() => undefined))?.isFile() ?? false;
}

async function sameDisk(first: string, second: string): Promise<boolean> {
  const device = async (dir: string) => {
    for (let current = path.resolve(dir); ; current = path.dirname(current)) {
      const info = await stat(current).catch(() => undefined);
      if (info) return info.dev;
      if (path.dirname(current) === current) return -1;
    }
  };
  return (await device(first)) === (await device(second));
}
