import { existsSync } from 'node:fs';
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { PAIR_PROMPTS, splitOf, type PairsManifest } from '../../shared/export/training-pairs.js';
import type { WorkspaceDocument, WorkspaceEvent } from '../../shared/workspace.js';
import { runFolio } from '../../test/folio-process.js';
import { forkHost } from './engine-client/fork-host.js';
import { AppService } from '../main/app-service.js';
import { exportTrainingPairs, type PageRenderer } from './training-pairs-export.js';

const root = path.resolve(import.meta.dirname, '../..');
const builtHost = path.join(root, 'dist/electron/engine/host.js');
const fourPages = path.join(root, 'test/fixtures/out/running-headers.pdf');
const nanoPackage = path.join(root, 'tools/model/fixtures/nano');

const folders: string[] = [];
const services: AppService[] = [];

beforeAll(() => {
  if (!existsSync(builtHost)) throw new Error(`${builtHost} is missing; run "npm run build" before these tests.`);
  if (!existsSync(fourPages)) throw new Error(`${fourPages} is missing; the vitest global setup prints it.`);
});

afterEach(async () => {
  await Promise.all(services.splice(0).map((service) => service.close()));
  await Promise.all(folders.splice(0).map((folder) => rm(folder, { recursive: true, force: true })));
});

async function tempFolder(): Promise<string> {
  const folder = await mkdtemp(path.join(os.tmpdir(), 'folio-pairs-'));
  folders.push(folder);
  return folder;
}

function converted(service: AppService): Promise<void> {
  return new Promise((resolve) => {
    const unsubscribe = service.onWorkspaceEvent((event: WorkspaceEvent) => {
      if (event.type !== 'convert-done') return;
      unsubscribe();
      resolve();
    });
  });
}

/** Width and height from a PNG's IHDR chunk. */
function pngSize(bytes: Uint8Array): { width: number; height: number } {
  expect([...bytes.subarray(1, 4)]).toEqual([0x50, 0x4e, 0x47]);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return { width: view.getUint32(16), height: view.getUint32(20) };
}

function jsonlLines(text: string): { messages: { role: string; content: unknown; images?: string[] }[] }[] {
  return text
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as { messages: { role: string; content: unknown; images?: string[] }[] });
}

describe('training pairs from the workspace', () => {
  it('writes exactly the edited and the reviewed page, with their final text and images at the model size; the CLI reads the same workspace', async () => {
    const dataDir = await tempFolder();
    const service = await AppService.start({
      dataDir,
      version: '0.0.0-test',
      pageTimeoutMs: 20_000,
      spawnHost: (env) => forkHost({ modulePath: builtHost, env: { ...process.env, ...env } }),
      probeDevice: async () => ({ device: 'cpu', reason: 'test' }),
    });
    services.push(service);
    const [docId] = await service.openDocuments([fourPages]);
    const done = converted(service);
    await service.convert({ docId: docId!, pages: [1, 2, 3], engine: 'text' });
    await done;
    const edit = '# Quarterly report\n\nThe figures, <b>corrected</b> by hand: 12 $\\alpha$ units.';
    await service.setEdit(docId!, 1, edit);
    await service.setReviewed(docId!, 2, true);
    const pages = (await service.getWorkspace()).documents[0]!.pages;
    expect(pages[2]!.engineMarkdown.trim()).not.toBe(''); // converted, never looked at
    const reviewedText = pages[1]!.engineMarkdown.trim();

    const out = await tempFolder();
    const outcome = await service.exportTrainingPairs({ folder: out, validationShare: 0, overwrite: false });
    expect(outcome).toMatchObject({ kind: 'written', counts: { train: 2, validation: 0 } });

    const manifest = JSON.parse(await readFile(path.join(out, 'manifest.json'), 'utf8')) as PairsManifest;
    expect(manifest).toMatchObject({ format: 'folio-training-pairs', chatFormat: 'deepseek-ocr', prompt: PAIR_PROMPTS['deepseek-ocr'], imageSize: 1024 });
    expect(manifest.pairs.map((pair) => [pair.page, pair.edited, pair.reviewed, pair.engine, pair.split])).toEqual([
      [1, true, false, 'text', 'train'],
      [2, false, true, 'text', 'train'],
    ]);
    expect(manifest.pairs.every((pair) => pair.document.id === docId && pair.document.path === fourPages)).toBe(true);

    const lines = jsonlLines(await readFile(path.join(out, 'train.jsonl'), 'utf8'));
    expect(await readFile(path.join(out, 'validation.jsonl'), 'utf8')).toBe('');
    expect(lines.map((line) => line.messages.map((message) => message.role))).toEqual([
      ['<|User|>', '<|Assistant|>'],
      ['<|User|>', '<|Assistant|>'],
    ]);
    expect(lines.map((line) => line.messages[1]!.content)).toEqual([edit, reviewedText]);
    expect(lines[0]!.messages[0]!.content).toBe('<image>\n<|grounding|>Convert the document to markdown.');
    for (const [index, line] of lines.entries()) {
      const image = line.messages[0]!.images![0]!;
      expect(image).toBe(manifest.pairs[index]!.image);
      expect(path.isAbsolute(image)).toBe(false);
      const size = pngSize(await readFile(path.join(out, image)));
      expect(Math.max(size.width, size.height)).toBe(1024);
      expect(size).toEqual({ width: manifest.pairs[index]!.width, height: manifest.pairs[index]!.height });
    }
    expect((await readdir(path.join(out, 'images'))).sort()).toEqual(manifest.pairs.map((pair) => path.basename(pair.image)).sort());
    expect((await readdir(out)).filter((name) => name.startsWith('.'))).toEqual([]);

    // an export into the same folder replaces nothing unless asked
    expect(await service.exportTrainingPairs({ folder: out, validationShare: 0, overwrite: false })).toMatchObject({ kind: 'would-overwrite' });

    // the CLI reads the saved workspace while the app holds it, with the nano package's prompt and view size
    await service.close();
    const cliOut = path.join(await tempFolder(), 'pairs');
    const run = await runFolio(['export-pairs', '--workspace', dataDir, '--model', nanoPackage, '--format', 'jina-ocr-v1', '--split', '0', '-o', cliOut]);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('2 training and 0 validation pairs (jina-ocr-v1, images 512 px)');
    const cliLines = jsonlLines(await readFile(path.join(cliOut, 'train.jsonl'), 'utf8'));
    expect(cliLines[0]!.messages).toEqual([
      { role: 'user', content: [{ type: 'image', image: expect.stringMatching(/^images\/running-headers-\w{8}-p1\.png$/) }, { type: 'text', text: PAIR_PROMPTS['jina-ocr-v1'] }] },
      { role: 'assistant', content: [{ type: 'text', text: edit }] },
    ]);
    const cliManifest = JSON.parse(await readFile(path.join(cliOut, 'manifest.json'), 'utf8')) as PairsManifest;
    for (const pair of cliManifest.pairs) expect(Math.max(...Object.values(pngSize(await readFile(path.join(cliOut, pair.image)))))).toBe(512);
  }, 120_000);

  it('keeps every document whole on one side of the split, the side fixed by its id', async () => {
    const documents = Array.from({ length: 12 }, (_, index) => vouchedDocument(`doc-${index}`));
    const share = 0.4;
    const sides = documents.map((document) => splitOf(document.id, share));
    expect(new Set(sides)).toEqual(new Set(['train', 'validation']));
    const out = await tempFolder();
    const outcome = await exportTrainingPairs(documents, { folder: out, format: 'deepseek-ocr', prompt: PAIR_PROMPTS['deepseek-ocr'], imageSize: 64, validationShare: share, overwrite: false }, blankRenderer);
    expect(outcome.kind).toBe('written');
    const documentsIn = async (file: string) => {
      const lines = jsonlLines(await readFile(path.join(out, file), 'utf8'));
      return lines.map((line) => /-(doc\d+)-p\d+\.png$/.exec(line.messages[0]!.images![0]!)![1]!.replace('doc', 'doc-'));
    };
    const train = await documentsIn('train.jsonl');
    const validation = await documentsIn('validation.jsonl');
    expect(train.length + validation.length).toBe(24);
    expect(train.filter((id) => validation.includes(id))).toEqual([]);
    expect(new Set(validation)).toEqual(new Set(documents.filter((_, index) => sides[index] === 'validation').map((document) => document.id)));
    // both pages of each document travel together
    for (const id of new Set(validation)) expect(validation.filter((candidate) => candidate === id)).toHaveLength(2);
  });
});

function vouchedDocument(id: string): WorkspaceDocument {
  return {
    id,
    path: `/docs/${id}.pdf`,
    name: `${id}.pdf`,
    kind: 'pdf',
    addedAt: '2026-01-01T00:00:00.000Z',
    converting: false,
    pages: [
      { page: 1, state: 'done', engineMarkdown: `Page one of ${id}`, reviewed: true },
      { page: 2, state: 'done', engineMarkdown: 'engine text', editedMarkdown: `Page two of ${id}`, reviewed: false },
    ],
  };
}

/** A 1x1 PNG stands in for the page: the split is what is under test. */
const blankRenderer: PageRenderer = {
  render: async () => ({
    width: 1,
    height: 1,
    png: Uint8Array.from(Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4//8/AAX+Av4N70a4AAAAAElFTkSuQmCC', 'base64')),
  }),
};
