// A real-width random checkpoint (tools/model/random_checkpoint.py: 2 decoder layers, SAM and CLIP 2
// blocks, the MTP head; 1.37 GB in two shards, about 30-100 s to make) served by the stand-in Hub,
// which drops the connection once inside the largest shard and changes one byte of the other: the
// download must resume the first for at most 32 MB more than its size, fetch the second again, and
// leave in the cache shards equal to the Hub's.
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { hubSettings } from '../electron/core/hub/hub-settings.js';
import { fetchFiles, openSnapshot } from '../electron/core/hub/hub-snapshot.js';
import { startHubTestServer, type HubTestServer } from '../tools/bench/hub-test-server.js';

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, '..');
const SHARDS = ['model-00001-of-00002.safetensors', 'model-00002-of-00002.safetensors'];
const MB = 1024 * 1024;

let folder: string;
let checkpoint: string;
let hub: HubTestServer;

beforeAll(async () => {
  folder = await mkdtemp(path.join(os.tmpdir(), 'folio-hub-real-width-'));
  checkpoint = path.join(folder, 'checkpoint');
  await run('/usr/bin/python3', ['random_checkpoint.py', '--config', 'tests/data/jina-ocr-v1.config.json', '--layers', '2', '--mtp',
    '--sam-layers', '2', '--clip-layers', '2', '--shard-size', '1GB', '--out', checkpoint], { cwd: path.join(root, 'tools/model') });
  hub = await startHubTestServer({ repos: [{ id: 'acme/ocr-test', dir: checkpoint }] });
}, 600_000);

afterAll(async () => {
  await hub?.close();
  if (folder) await rm(folder, { recursive: true, force: true });
});

async function sha256(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

it('resumes a shard dropped mid-way for at most 32 MB more, fetches again one with a changed byte, and caches the Hub’s bytes', async () => {
  const sizes = await Promise.all(SHARDS.map(async (shard) => (await stat(path.join(checkpoint, shard))).size));
  const [largest, other] = sizes[0]! >= sizes[1]! ? [0, 1] : [1, 0];
  hub.faults.dropOnce = [{ path: SHARDS[largest]!, afterBytes: Math.floor(sizes[largest]! * 0.6) }];
  hub.faults.corruptOnce = [{ path: SHARDS[other]!, offset: Math.floor(sizes[other]! / 2) }];
  const settings = hubSettings({ HF_ENDPOINT: hub.url, HF_HOME: path.join(folder, 'hf') });
  const snapshot = await openSnapshot({ settings, repo: 'acme/ocr-test' });
  const notes: string[] = [];
  await fetchFiles(snapshot, snapshot.files, { onNote: (note) => notes.push(note) });

  expect(hub.faults.dropOnce).toEqual([]);
  expect(hub.faults.corruptOnce).toEqual([]);
  const dropped = hub.bytesSent.get(`acme/ocr-test/${SHARDS[largest]}`)! - sizes[largest]!;
  expect(dropped).toBeGreaterThanOrEqual(0);
  expect(dropped).toBeLessThanOrEqual(32 * MB);
  expect(hub.bytesSent.get(`acme/ocr-test/${SHARDS[other]}`)).toBe(2 * sizes[other]!);
  expect(notes).toHaveLength(2);
  expect(notes).toEqual(expect.arrayContaining([
    expect.stringMatching(new RegExp(`^${SHARDS[largest]}: the connection dropped after [\\d,]+ bytes .*; resuming from there$`)),
    expect.stringMatching(new RegExp(`^${SHARDS[other]}: the bytes received do not match the Hub's sha256`)),
  ]));
  for (const shard of SHARDS) {
    expect(await sha256(path.join(snapshot.dir, shard)), shard).toBe(hub.sha256Of('acme/ocr-test', shard));
  }
}, 600_000);
