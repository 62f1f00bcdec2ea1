import { cp, mkdtemp, readFile, rm, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { graphBytes, intraOpThreads, ONE_THREAD_STEP_GRAPH_BYTES, openModelPackage, type ModelPackage } from './model-package.js';
import { ModelRunner } from './model-runner.js';
import { resolutionMode } from './page-input.js';
import { prepareViews } from './views.js';

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
      // the CPU runs the decoder with its cache at capacity, a GPU the rows layout
      expect([...opened.sessions.keys()].sort()).toEqual([opened.decoderGraph, 'embedding', 'mtp', 'vision_128', 'vision_256'].sort());
      expect(opened.decoderGraph).toBe(opened.provider.provider === 'cpu' ? 'decoder_capacity' : 'decoder');
      expect(opened.provider.device).toMatch(/^(cpu|cuda:\d+)$/);
      expect(opened.provider.reason.length).toBeGreaterThan(0);
    } finally {
      await opened.release();
    }
  });

  it('opens a large vision graph for each pass and releases it after, with the same features as a kept session', async () => {
    const kept = await openModelPackage(tinyDir, { threads: 1, device: { kind: 'cpu' } });
    const perPass = await openModelPackage(tinyDir, { threads: 1, device: { kind: 'cpu' }, perPassVisionBytes: 0 });
    try {
      expect([...perPass.perPass].sort()).toEqual(['vision_128', 'vision_256']);
      expect([...perPass.sessions.keys()].sort()).toEqual(['decoder_capacity', 'embedding', 'mtp']);
      const image = { width: 300, height: 200, data: new Uint8Array(300 * 200 * 3).map((_, i) => (i * 7) % 256) };
      const mode = resolutionMode(kept.manifest, kept.manifest.vision.resolution_modes[0]?.name ?? '');
      const views = prepareViews(image, mode, kept.manifest.vision);
      const [expected, actual] = await Promise.all([new ModelRunner(kept).vision(views), new ModelRunner(perPass).vision(views)]);
      expect(actual.global).toEqual(expected.global);
      expect(actual.newline).toEqual(expected.newline);
      // not kept between passes: the next pass opens it again
      expect(perPass.sessions.has(`vision_${views.baseSize}`)).toBe(false);
      expect((await new ModelRunner(perPass).vision(views)).global).toEqual(expected.global);
    } finally {
      await Promise.all([kept.release(), perPass.release()]);
    }
  });

  it('runs the vision graphs on its session thread, kept or opened per pass, with the features they have on this one', async () => {
    const kept = await openModelPackage(tinyDir, { threads: 1, device: { kind: 'cpu' } });
    const perPass = await openModelPackage(tinyDir, { threads: 1, device: { kind: 'cpu' }, perPassVisionBytes: 0 });
    try {
      const image = { width: 300, height: 200, data: new Uint8Array(300 * 200 * 3).map((_, i) => (i * 11) % 256) };
      const mode = resolutionMode(kept.manifest, kept.manifest.vision.resolution_modes[0]?.name ?? '');
      const views = prepareViews(image, mode, kept.manifest.vision);
      expect(views.tiles).not.toBeNull();
      /** The vision features, and the time the runner's sessions on this thread ran for them. */
      const encode = async (runner: ModelRunner) => {
        const encoded = await runner.encode(views);
        return { ...encoded, runMs: runner.runMs };
      };
      const here = await encode(new ModelRunner(kept));
      expect(here.onThread).toBe(false);
      expect(here.runMs).toBeGreaterThan(0);
      const threaded = new ModelRunner(kept);
      threaded.visionOnThread(() => 1);
      const perPassThreaded = new ModelRunner(perPass);
      perPassThreaded.visionOnThread(() => 1);
      for (const runner of [threaded, perPassThreaded]) {
        const there = await encode(runner);
        expect(there.onThread).toBe(true);
        expect(there.features.global).toEqual(here.features.global);
        expect(there.features.tiles).toEqual(here.features.tiles);
        expect(there.features.separator).toEqual(here.features.separator);
        // no session of this thread ran: ONNX Runtime's run, which holds the thread calling it, held the other one
        expect(there.runMs).toBe(0);
      }
      // the pixels were copied across, not taken
      expect(views.global.length).toBe(3 * views.baseSize * views.baseSize);
      expect(perPass.sessions.has(`vision_${views.baseSize}`)).toBe(false);
    } finally {
      await Promise.all([kept.release(), perPass.release()]);
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
    await expect(openModelPackage(dir)).rejects.toThrow(/format version 1, but this Folio reads version 2; get the model again/);
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
    for (const graph of ['embedding', 'decoder', 'decoder_capacity', 'mtp']) expect(intraOpThreads(graph, small, 'cpu'), graph).toBe(1);
  });

  it('weighs the capacity decoder with the weights file it shares with the rows decoder', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'folio-weights-'));
    scratch.push(dir);
    await writeFile(path.join(dir, 'decoder.onnx'), new Uint8Array(10));
    await writeFile(path.join(dir, 'decoder.onnx.data'), new Uint8Array(1000));
    await writeFile(path.join(dir, 'decoder_capacity.onnx'), new Uint8Array(20));
    expect(await graphBytes(path.join(dir, 'decoder.onnx'))).toBe(1010);
    expect(await graphBytes(path.join(dir, 'decoder_capacity.onnx'))).toBe(1020);
  });

  it('leaves vision graphs, large graphs and CUDA sessions to ONNX Runtime, and obeys an explicit count', () => {
    expect(intraOpThreads('vision_512', small, 'cpu')).toBeUndefined();
    expect(intraOpThreads('decoder', ONE_THREAD_STEP_GRAPH_BYTES, 'cpu')).toBeUndefined();
    expect(intraOpThreads('decoder', small, 'cuda')).toBeUndefined();
    expect(intraOpThreads('vision_512', small, 'cpu', 2)).toBe(2);
  });
});
