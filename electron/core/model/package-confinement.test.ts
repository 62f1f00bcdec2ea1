/**
 * A model package is data from wherever it was downloaded: its manifest may name only regular files
 * inside the package, every file a graph loads must be listed (and so hashed), no file is read past
 * what it is (a device, a FIFO), and sizes the runtime allocates by are bounded, naming the field.
 */

import { execFileSync } from 'node:child_process';
import { cp, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { checkFiles, readManifest } from './package-files.js';
import { modelProto, tensorProto } from '../../engine/onnx/onnx-proto.js';

const NANO = path.resolve(import.meta.dirname, '../../../tools/model/fixtures/nano');
let dir: string;

beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'folio-package-'));
  for (const file of ['manifest.json', 'tokenizer.json', 'decoder.onnx', 'embedding.onnx', 'mtp.onnx', 'vision_512.onnx']) await cp(path.join(NANO, file), path.join(dir, file));
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function editManifest(edit: (manifest: Record<string, any>) => void): Promise<void> {
  const manifest = JSON.parse(await readFile(path.join(dir, 'manifest.json'), 'utf8')) as Record<string, any>;
  edit(manifest);
  await writeFile(path.join(dir, 'manifest.json'), JSON.stringify(manifest));
}

/** A ModelProto whose one initializer lives in external data at `location`. */
function graphWithExternalData(location: string): Uint8Array {
  const weight = tensorProto('w', { type: 'float32', dims: [], location, offset: 0, length: 4 });
  return modelProto({ graphName: 'g', nodes: [], initializers: [weight], inputs: [], outputs: [], opsets: [] });
}

describe('model package confinement', () => {
  it('accepts the nano package as written', async () => {
    await expect(checkFiles(dir, await readManifest(dir), true)).resolves.toBeUndefined();
  });

  it('refuses a manifest entry outside the package without reading it', async () => {
    await editManifest((manifest) => {
      manifest.files['../../../../../etc/passwd'] = '0'.repeat(64);
    });
    await expect(checkFiles(dir, await readManifest(dir), true)).rejects.toThrow(/lists "\.\.\/\.\.\/\.\.\/\.\.\/\.\.\/etc\/passwd", which is not a file inside the package/);
  });

  it('refuses a package file that is a link out of the package, or to a device', async () => {
    await rm(path.join(dir, 'mtp.onnx'));
    await symlink('/etc/hostname', path.join(dir, 'mtp.onnx'));
    await expect(checkFiles(dir, await readManifest(dir), true)).rejects.toThrow(/mtp\.onnx: a link to a file outside the model package/);
    await rm(path.join(dir, 'mtp.onnx'));
    await symlink('/dev/zero', path.join(dir, 'mtp.onnx'));
    await expect(checkFiles(dir, await readManifest(dir), true)).rejects.toThrow(/mtp\.onnx: (a link to a file outside|is a character device)/);
    await rm(path.join(dir, 'mtp.onnx'));
    execFileSync('mkfifo', [path.join(dir, 'mtp.onnx')]);
    await expect(checkFiles(dir, await readManifest(dir), true)).rejects.toThrow(/mtp\.onnx: is a named pipe \(FIFO\), not a file of the model package/);
  });

  it('refuses a manifest.json that is a device or a FIFO, at once and naming it', async () => {
    await rm(path.join(dir, 'manifest.json'));
    await symlink('/dev/zero', path.join(dir, 'manifest.json'));
    await expect(readManifest(dir)).rejects.toThrow(/manifest\.json: is a character device, not a manifest Folio can read/);
    await rm(path.join(dir, 'manifest.json'));
    execFileSync('mkfifo', [path.join(dir, 'manifest.json')]);
    await expect(readManifest(dir)).rejects.toThrow(/manifest\.json: is a named pipe \(FIFO\)/);
  });

  it('refuses a graph whose external data the manifest does not list, or that lies outside the package', async () => {
    await writeFile(path.join(dir, 'mtp.onnx'), graphWithExternalData('mtp.onnx.data'));
    await writeFile(path.join(dir, 'mtp.onnx.data'), Buffer.alloc(16));
    await expect(checkFiles(dir, await readManifest(dir), false)).rejects.toThrow(/mtp\.onnx: loads its weights from "mtp\.onnx\.data", which manifest\.json does not list/);
    await writeFile(path.join(dir, 'mtp.onnx'), graphWithExternalData('../../etc/passwd'));
    await expect(checkFiles(dir, await readManifest(dir), false)).rejects.toThrow(/loads its weights from "\.\.\/\.\.\/etc\/passwd"/);
    await writeFile(path.join(dir, 'mtp.onnx'), graphWithExternalData('mtp.onnx.data'));
    await editManifest((manifest) => {
      manifest.files['mtp.onnx.data'] = '0'.repeat(64);
    });
    await expect(checkFiles(dir, await readManifest(dir), false)).resolves.toBeUndefined();
  });

  it('bounds the sizes the runtime allocates by, naming the field', async () => {
    for (const [edit, field] of [
      [(m: Record<string, any>) => (m.architecture.language_config.vocab_size = 1e15), 'architecture.language_config.vocab_size'],
      [(m: Record<string, any>) => (m.architecture.language_config.num_hidden_layers = 1e9), 'architecture.language_config.num_hidden_layers'],
      [(m: Record<string, any>) => (m.vision.resolution_modes[0].base_size = 200000), 'vision.resolution_modes.0.base_size'],
    ] as const) {
      const original = await readFile(path.join(NANO, 'manifest.json'), 'utf8');
      await writeFile(path.join(dir, 'manifest.json'), original);
      await editManifest(edit);
      await expect(readManifest(dir)).rejects.toThrow(new RegExp(`${field.replace(/\./g, '\\.')}: Too big`));
    }
  });
});
