/**
 * A model package's files as the loader reads them before any graph loads: the manifest, its
 * graphs and every listed file present (and, when asked, intact). Free of ONNX Runtime, so a folder
 * can be checked where ONNX Runtime must not load (Electron main, as the user picks the folder).
 */

import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import type { NamedDeviceRequest } from '../../../shared/device.js';
import { checkFile, fileKind, readBoundedFile, UnfitFileError } from '../bounded-file.js';
import { MANIFEST_FORMAT_VERSION, manifestSchema, type Manifest } from './manifest.js';
import { externalDataLocations, OnnxReadError } from './onnx-external-data.js';

/** A package that cannot be used, with a message naming the file, the fault and the remedy. */
export class ModelPackageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ModelPackageError';
  }
}

export const REMEDY = 'get the model again (Settings > Models in the app, or folio model get REPO), or export the package again with folio export-model';

/** A manifest is a few KiB of JSON; anything near this is not one. */
const MAX_MANIFEST_BYTES = 16 * 1024 * 1024;

export async function readManifest(dir: string): Promise<Manifest> {
  const file = path.join(dir, 'manifest.json');
  let text: string;
  try {
    text = (await readBoundedFile(file, MAX_MANIFEST_BYTES, 'manifest')).toString('utf8');
  } catch (error) {
    if (error instanceof UnfitFileError) throw new ModelPackageError(`${error.message.replace(/\.$/, '')}; ${REMEDY}`);
    throw new ModelPackageError(`${file}: no manifest.json here, so it is not a model package; choose one listed in Settings > Models, or get one there or with folio model get REPO`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new ModelPackageError(`${file}: not valid JSON (${(error as Error).message}); ${REMEDY}`);
  }
  const version = (json as { format_version?: unknown } | null)?.format_version;
  if (typeof version === 'number' && version !== MANIFEST_FORMAT_VERSION) {
    throw new ModelPackageError(
      `${file}: format version ${version}, but this Folio reads version ${MANIFEST_FORMAT_VERSION}; ` +
        (version > MANIFEST_FORMAT_VERSION ? 'update Folio' : REMEDY),
    );
  }
  const parsed = manifestSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue?.path.join('.') || '(top level)';
    throw new ModelPackageError(`${file}: ${where}: ${issue?.message ?? 'invalid'}; ${REMEDY}`);
  }
  return parsed.data;
}

/**
 * The bytes on disk of the files the manifest lists, which opening the package reads: what its time
 * limit to get ready scales with. 0 for a folder that is no package (its opening fails at once and says why).
 */
export async function packageBytes(dir: string): Promise<number> {
  try {
    const manifest = await readManifest(dir);
    let bytes = 0;
    for (const file of Object.keys(manifest.files)) bytes += (await packageFile(dir, file)).size;
    return bytes;
  } catch {
    return 0;
  }
}

/** The file's first `size` bytes hashed: the size stat gave for a regular file, so nothing reads on past it. */
async function sha256(file: string, size: number): Promise<string> {
  const hash = createHash('sha256');
  if (size > 0) for await (const chunk of createReadStream(file, { start: 0, end: size - 1 })) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** A regular file's sha256 (after links); a device, FIFO or folder is refused by name instead of read forever. */
export async function fileSha256(file: string): Promise<string> {
  return sha256(file, (await checkFile(file, Number.MAX_SAFE_INTEGER)).size);
}

/**
 * A manifest entry as a file of the package: a relative name with no `..`, that (links followed)
 * is a regular file inside the package folder. Anything else is refused before it is read or
 * hashed, so a manifest cannot ask about files elsewhere (`../../etc/passwd`) or read a device.
 */
async function packageFile(dir: string, name: string): Promise<{ full: string; size: number }> {
  const manifestFile = path.join(dir, 'manifest.json');
  if (name === '' || path.isAbsolute(name) || path.win32.isAbsolute(name) || name.split(/[\\/]/).includes('..')) {
    throw new ModelPackageError(`${manifestFile}: lists "${name}", which is not a file inside the package; ${REMEDY}`);
  }
  const full = path.join(dir, name);
  let real: string;
  try {
    real = await realpath(full);
  } catch {
    throw new ModelPackageError(`${full}: file missing from the model package; copy the whole package folder again`);
  }
  const root = await realpath(dir);
  if (real !== root && !real.startsWith(root + path.sep)) throw new ModelPackageError(`${full}: a link to a file outside the model package; copy the package's own files into its folder`);
  const stats = await stat(real);
  if (!stats.isFile()) throw new ModelPackageError(`${full}: is ${fileKind(stats)}, not a file of the model package; copy the package again`);
  return { full, size: stats.size };
}

/** Every file a graph loads (its external data) must be listed, and so checked, in the manifest. */
async function checkExternalData(manifest: Manifest, graphFile: string, full: string): Promise<void> {
  let locations: Set<string>;
  try {
    locations = await externalDataLocations(full);
  } catch (error) {
    if (error instanceof OnnxReadError) throw new ModelPackageError(`${full}: not an ONNX graph (${error.message}); ${REMEDY}`);
    throw error;
  }
  for (const location of locations) {
    const name = path.posix.join(path.posix.dirname(graphFile), location.replace(/\\/g, '/'));
    if (!(name in manifest.files)) {
      throw new ModelPackageError(`${full}: loads its weights from "${location}", which manifest.json does not list (so it could not be checked); ${REMEDY}`);
    }
  }
}

export async function checkFiles(dir: string, manifest: Manifest, hash: boolean): Promise<void> {
  const needed = new Set([...Object.values(manifest.graphs).map((graph) => graph.file), 'tokenizer.json']);
  for (const file of needed) {
    if (!(file in manifest.files)) throw new ModelPackageError(`${path.join(dir, 'manifest.json')}: no checksum listed for ${file}; ${REMEDY}`);
  }
  const files = new Map<string, { full: string; size: number }>();
  for (const file of Object.keys(manifest.files)) files.set(file, await packageFile(dir, file));
  for (const graph of Object.values(manifest.graphs)) await checkExternalData(manifest, graph.file, files.get(graph.file)!.full);
  if (!hash) return;
  for (const [file, digest] of Object.entries(manifest.files)) {
    const { full, size } = files.get(file)!;
    if ((await sha256(full, size)) !== digest) {
      throw new ModelPackageError(`${full}: checksum mismatch (the file is damaged or was changed); copy the package again`);
    }
  }
}

/**
 * The decoder graph a provider runs, of those the package has: on the CPU `decoder_capacity` (its cache read in place at capacity: no copy of the past per layer
 * per step), which WebGPU's resident cache cannot feed (it appends rows) and CUDA does not take;
 * else `decoder`. Only the chosen one is opened: a second decoder session would hold its own weights.
 */
export function decoderGraph(graphs: readonly string[], provider: NamedDeviceRequest['kind']): string {
  if (provider === 'cpu' && graphs.includes('decoder_capacity')) return 'decoder_capacity';
  return 'decoder';
}

export function requiredGraphs(manifest: Manifest, provider: NamedDeviceRequest['kind']): { names: string[]; decoder: string } {
  const graphs = Object.keys(manifest.graphs);
  for (const name of ['embedding', 'decoder']) {
    if (!graphs.includes(name)) throw new ModelPackageError(`manifest.json: the package has no ${name} graph; ${REMEDY}`);
  }
  const decoder = decoderGraph(graphs, provider);
  const names = graphs.filter((name) => name.startsWith('vision_') || name === 'embedding' || name === 'mtp' || name === decoder);
  return { names, decoder };
}

/**
 * What opening would refuse before any graph loads: the manifest, its graphs and every listed file
 * present. Cheap (no hashing, no ONNX Runtime sessions), for checking a folder as the user picks it.
 */
export async function checkModelPackage(dir: string): Promise<Manifest> {
  const manifest = await readManifest(dir);
  requiredGraphs(manifest, 'cpu');
  await checkFiles(dir, manifest, false);
  return manifest;
}
