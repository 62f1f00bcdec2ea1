import { cp, mkdtemp, readFile, rm, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { intraOpThreads, ONE_THREAD_STEP_GRAPH_BYTES, openModelPackage, type ModelPackage } from './model-package.js';

const tinyDir = path.resolve(import.meta.dirname, '../../../tools/model/fixtures/tiny');
const scratch: string[] = [];

async function copyOfTiny(): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'folio-package-'));
  scratch.push(dir);
  await cp(tinyDir, dir, { recursive: true, filter: (source) => !source.includes('parity') });
  return dir;
}

async function editManifest(dir: string, edit: (manifest: Record<string, unknown>) => void): Promise<void> {
  const file = path.join(dir, 'manifest.json');
  const manifest = JSON.parse(await readFile(file, 'utf8')) as Record<string, unknown>;
  edit(manifest);
  await writeFile(file, JSON.stringify(manifest));
}

afterEach(async () => {
  await Promise.all(scratch.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

describe('model package', () => {
  it('opens the tiny package with one session per graph it uses and says which device and why', async () => {
    const opened: ModelPackage = await openModelPackage(tinyDir, { threads: 1 });
    try {
      expect([...opened.sessions.keys()].sort()).toEqual(['decoder', 'embedding', 'mtp', 'vision_128', 'vision_256']);
      expect(opened.provider.device).toMatch(/^(cpu|cuda:\d+)$/);
      expect(opened.provider.reason.length).toBeGreaterThan(0);
    } finally {
      await opened.release();
    }
  });

  it('names the missing file', async () => {
    const dir = await copyOfTiny();
    await unlink(path.join(dir, 'mtp.onnx'));
    await expect(openModelPackage(dir)).rejects.toThrow(/mtp\.onnx: file missing/);
  });

  it('refuses a manifest of another format version', async () => {
    const dir = await copyOfTiny();
    await editManifest(dir, (manifest) => { manifest.format_version = 7; });
    await expect(openModelPackage(dir)).rejects.toThrow(/format version 7.*update Folio/);
  });

  it('asks for a new export of a package from before the MTP cache layout changed', async () => {
    const dir = await copyOfTiny();
    await editManifest(dir, (manifest) => { manifest.format_version = 1; });
    await expect(openModelPackage(dir)).rejects.toThrow(/format version 1, but this Folio reads version 2; export the package again/);
  });

  it('names the file whose checksum does not match', async () => {
    const dir = await copyOfTiny();
    const file = path.join(dir, 'embedding.onnx');
    const bytes = await readFile(file);
    bytes.writeUInt8(bytes.readUInt8(bytes.length - 1) ^ 0xff, bytes.length - 1);
    await writeFile(file, bytes);
    await expect(openModelPackage(dir)).rejects.toThrow(/embedding\.onnx: checksum mismatch/);
  });

  it('names a graph whose inputs differ from the manifest', async () => {
    const dir = await copyOfTiny();
    await editManifest(dir, (manifest) => {
      const graphs = manifest.graphs as Record<string, { inputs: { name: string }[] }>;
      const first = graphs.embedding?.inputs[0];
      if (first) first.name = 'token_ids';
    });
    await expect(openModelPackage(dir)).rejects.toThrow(/embedding\.onnx: graph inputs \[input_ids\] differ from the manifest's \[token_ids\]/);
  });

  it('explains a manifest field that is missing or wrong', async () => {
    const dir = await copyOfTiny();
    await editManifest(dir, (manifest) => { delete manifest.decoding; });
    await expect(openModelPackage(dir)).rejects.toThrow(/manifest\.json: decoding: /);
  });

  it('explains a folder that is not a package', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'folio-empty-'));
    scratch.push(dir);
    await expect(openModelPackage(dir)).rejects.toThrow(/no manifest\.json here/);
  });
});

describe('intra-op threads per graph', () => {
  const small = 8 * 1024 * 1024;
  it('gives small per-step graphs one thread on the CPU', () => {
    for (const graph of ['embedding', 'decoder', 'decoder_contrib_moe', 'mtp']) expect(intraOpThreads(graph, small, 'cpu'), graph).toBe(1);
  });

  it('leaves vision graphs, large graphs and CUDA sessions to ONNX Runtime, and obeys an explicit count', () => {
    expect(intraOpThreads('vision_512', small, 'cpu')).toBeUndefined();
    expect(intraOpThreads('decoder', ONE_THREAD_STEP_GRAPH_BYTES, 'cpu')).toBeUndefined();
    expect(intraOpThreads('decoder', small, 'cuda')).toBeUndefined();
    expect(intraOpThreads('vision_512', small, 'cpu', 2)).toBe(2);
  });
});
