/**
 * A model package's files as the loader reads them before any graph loads: the manifest, its
 * graphs and every listed file present (and, when asked, intact). Free of ONNX Runtime, so a folder
 * can be checked where ONNX Runtime must not load (Electron main, as the user picks the folder).
 */

import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import type { NamedDeviceRequest } from '../../../shared/device.js';
import { MANIFEST_FORMAT_VERSION, manifestSchema, type Manifest } from './manifest.js';

/** A package that cannot be used, with a message naming the file, the fault and the remedy. */
export class ModelPackageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ModelPackageError';
  }
}

export const REMEDY = 'export the package again with tools/model (see tools/model/README.md)';

export async function readManifest(dir: string): Promise<Manifest> {
  const file = path.join(dir, 'manifest.json');
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch {
    throw new ModelPackageError(`${file}: no manifest.json here; choose a model package folder written by tools/model`);
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

export async function sha256(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

export async function checkFiles(dir: string, manifest: Manifest, hash: boolean): Promise<void> {
  const needed = new Set([...Object.values(manifest.graphs).map((graph) => graph.file), 'tokenizer.json']);
  for (const file of needed) {
    if (!(file in manifest.files)) throw new ModelPackageError(`${path.join(dir, 'manifest.json')}: no checksum listed for ${file}; ${REMEDY}`);
  }
  for (const [file, digest] of Object.entries(manifest.files)) {
    const full = path.join(dir, file);
    try {
      await stat(full);
    } catch {
      throw new ModelPackageError(`${full}: file missing from the model package; copy the whole package folder again`);
    }
    if (hash && (await sha256(full)) !== digest) {
      throw new ModelPackageError(`${full}: checksum mismatch (the file is damaged or was changed); copy the package again`);
    }
  }
}

/**
 * The decoder graph a provider runs, of those the package has: `decoder_contrib_moe` when asked for;
 * on the CPU `decoder_capacity` (its cache read in place at capacity: no copy of the past per layer
 * per step), which WebGPU's resident cache cannot feed (it appends rows) and CUDA does not take;
 * else `decoder`. Only the chosen one is opened: a second decoder session would hold its own weights.
 */
export function decoderGraph(graphs: readonly string[], provider: NamedDeviceRequest['kind'], preferContribMoe: boolean): string {
  if (preferContribMoe && graphs.includes('decoder_contrib_moe')) return 'decoder_contrib_moe';
  if (provider === 'cpu' && graphs.includes('decoder_capacity')) return 'decoder_capacity';
  return 'decoder';
}

export function requiredGraphs(manifest: Manifest, provider: NamedDeviceRequest['kind'], preferContribMoe: boolean): { names: string[]; decoder: string } {
  const graphs = Object.keys(manifest.graphs);
  for (const name of ['embedding', 'decoder']) {
    if (!graphs.includes(name)) throw new ModelPackageError(`manifest.json: the package has no ${name} graph; ${REMEDY}`);
  }
  const decoder = decoderGraph(graphs, provider, preferContribMoe);
  const names = graphs.filter((name) => name.startsWith('vision_') || name === 'embedding' || name === 'mtp' || name === decoder);
  return { names, decoder };
}

/**
 * What opening would refuse before any graph loads: the manifest, its graphs and every listed file
 * present. Cheap (no hashing, no ONNX Runtime sessions), for checking a folder as the user picks it.
 */
export async function checkModelPackage(dir: string): Promise<Manifest> {
  const manifest = await readManifest(dir);
  requiredGraphs(manifest, 'cpu', false);
  await checkFiles(dir, manifest, false);
  return manifest;
}
