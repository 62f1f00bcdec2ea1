/**
 * `npm run bench:model-get -- --checkpoint DIR [--precision int4|fp16|fp32] [--download-only]`: the
 * stand-in Hub serves a checkpoint folder (e.g. tools/model/random_checkpoint.py's real-width one) as
 * `acme/ocr-test`, drops the connection once at 60% of its largest shard and changes one byte of
 * another once, and `folio model get acme/ocr-test` runs on a PATH that holds only node (no Python
 * can start), into a fresh cache and app-data folder. Prints the bytes each shard cost beyond its
 * size, whether the cache's shards equal the Hub's, the time to the end of the download and to the
 * installed package, and the peak resident memory of the command and its exporter (GNU time).
 */

import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, rm, stat, symlink } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { fileSha256 } from '../../electron/core/model/package-files.js';
import { startHubTestServer } from './hub-test-server.js';

const { values } = parseArgs({ options: { checkpoint: { type: 'string' }, precision: { type: 'string' }, 'download-only': { type: 'boolean' } } });
if (!values.checkpoint) throw new Error('give --checkpoint DIR: a Hugging Face checkpoint folder (tools/model/random_checkpoint.py makes one)');
const checkpoint = path.resolve(values.checkpoint);
const precision = values.precision ?? 'int4';
const root = path.resolve(import.meta.dirname, '../../..');
const REPO = 'acme/ocr-test';

const shards = (await readdir(checkpoint)).filter((name) => name.endsWith('.safetensors')).sort();
const sizes = new Map(await Promise.all(shards.map(async (shard) => [shard, (await stat(path.join(checkpoint, shard))).size] as const)));
const bySize = [...shards].sort((a, b) => sizes.get(b)! - sizes.get(a)!);
const largest = bySize[0]!;
const changed = bySize[1];
const hub = await startHubTestServer({
  repos: [{ id: REPO, dir: checkpoint }],
  faults: {
    dropOnce: [{ path: largest, afterBytes: Math.floor(sizes.get(largest)! * 0.6) }],
    ...(changed && { corruptOnce: [{ path: changed, offset: Math.floor(sizes.get(changed)! / 2) }] }),
  },
});

const work = await mkdtemp(path.join(os.tmpdir(), 'folio-bench-model-get-'));
await mkdir(path.join(work, 'bin'));
await symlink(process.execPath, path.join(work, 'bin', 'node'));
const env = { PATH: path.join(work, 'bin'), HOME: path.join(work, 'home'), HF_ENDPOINT: hub.url, FOLIO_USER_DATA_DIR: path.join(work, 'data') };
const timed = existsSync('/usr/bin/time') ? ['/usr/bin/time', '-f', 'peak-rss-kb %M'] : [];
const command = [...timed, process.execPath, path.join(root, 'bin/folio.js'), 'model', 'get', REPO, '--precision', precision];
const started = performance.now();
let downloadedMs: number | undefined;
// its own process group: Ctrl-C (for --download-only) reaches node through GNU time, which ignores it
const child = spawn(command[0]!, command.slice(1), { env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
let stdout = '';
let stderr = '';
child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
  stderr += chunk;
  process.stderr.write(chunk);
  if (downloadedMs === undefined && /converting:|installing/.test(stderr)) {
    downloadedMs = performance.now() - started;
    if (values['download-only']) process.kill(-child.pid!, 'SIGINT');
  }
});
const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
const totalMs = performance.now() - started;

const lines = [`folio model get ${REPO} --precision ${precision}: exit ${code}`];
for (const shard of shards) {
  const sent = hub.bytesSent.get(`${REPO}/${shard}`) ?? 0;
  const cached = path.join(work, 'home/.cache/huggingface/hub/models--acme--ocr-test/snapshots', hub.commitOf(REPO), shard);
  const equal = existsSync(cached) && (await fileSha256(cached)) === hub.sha256Of(REPO, shard);
  const fault = shard === largest ? ' (dropped at 60%)' : shard === changed ? ' (one byte changed)' : '';
  lines.push(`  ${shard}${fault}: ${sizes.get(shard)!.toLocaleString('en-US')} bytes, sent ${sent.toLocaleString('en-US')} (${(sent - sizes.get(shard)!).toLocaleString('en-US')} beyond its size); cached copy equals the Hub's: ${equal}`);
}
lines.push(`  download done after ${((downloadedMs ?? totalMs) / 1000).toFixed(1)} s; ${values['download-only'] ? 'stopped there' : `installed after ${(totalMs / 1000).toFixed(1)} s`}`);
const peak = /peak-rss-kb (\d+)/.exec(stderr)?.[1];
if (peak) lines.push(`  peak resident memory of the command and its exporter: ${(Number(peak) / 1024 / 1024).toFixed(2)} GB`);
if (code === 0) lines.push(`  package: ${stdout.trim().split('\n').pop()}`);
console.log(lines.join('\n'));
await hub.close();
await rm(work, { recursive: true, force: true });
