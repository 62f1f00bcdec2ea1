// The Hub client against the stand-in Hub (tools/bench/hub-test-server.ts): the shared cache's
// layout, resume after a dropped connection, digests checked, retries, and each error in words.
import { randomBytes } from 'node:crypto';
import { lstat, mkdir, mkdtemp, readFile, readlink, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { fetchFiles, openSnapshot, type RepoSnapshot } from '../electron/core/hub/hub-snapshot.js';
import { HubError } from '../electron/core/hub/hub-error.js';
import { hubSettings, type HubSettings } from '../electron/core/hub/hub-settings.js';
import type { RetryPolicy } from '../electron/core/hub/hub-fetch.js';
import { closedPort, startHubTestServer, type HubTestServer } from '../tools/bench/hub-test-server.js';

const FAST: RetryPolicy = { retries: 3, baseDelayMs: 5, maxDelayMs: 20 };
const DEBUG = (p: unknown) => console.log(Date.now() % 100000, JSON.stringify(p));
const TOKEN = 'hf_stand_in_token_7d1c';
const MB = 1024 * 1024;

let folder: string;
let repoDir: string;
let hub: HubTestServer;
let cacheDir: string;

beforeAll(async () => {
  folder = await mkdtemp(path.join(os.tmpdir(), 'folio-hub-'));
  repoDir = path.join(folder, 'repo');
  await mkdir(path.join(repoDir, 'sub'), { recursive: true });
  await writeFile(path.join(repoDir, 'config.json'), JSON.stringify({ model_type: 'deepseek_vl_v2' }));
  await writeFile(path.join(repoDir, 'README.md'), '---\nlicense: cc-by-nc-4.0\n---\n# a stand-in\n');
  await writeFile(path.join(repoDir, 'model-00001-of-00002.safetensors'), randomBytes(5 * MB));
  await writeFile(path.join(repoDir, 'model-00002-of-00002.safetensors'), randomBytes(3 * MB));
  await writeFile(path.join(repoDir, 'sub', 'notes.txt'), 'nested file\n');
  hub = await startHubTestServer({
    repos: [
      { id: 'acme/ocr-test', dir: repoDir },
      { id: 'acme/gated', dir: repoDir, gated: 'manual' },
      { id: 'acme/private', dir: repoDir, private: true },
    ],
    tokens: { [TOKEN]: ['acme/private'], hf_granted: ['acme/gated'] },
    treePageSize: 2,
  });
});

afterAll(async () => {
  await hub?.close();
  if (folder) await rm(folder, { recursive: true, force: true });
});

afterEach(() => hub.reset());

async function freshCache(env: Record<string, string> = {}): Promise<HubSettings> {
  cacheDir = await mkdtemp(path.join(folder, 'cache-'));
  return hubSettings({ HF_ENDPOINT: hub.url, HF_HUB_CACHE: cacheDir, HF_HOME: path.join(folder, 'no-home'), ...env });
}

async function fetchAll(settings: HubSettings, repo = 'acme/ocr-test', options: Parameters<typeof fetchFiles>[2] = {}): Promise<RepoSnapshot> {
  const snapshot = await openSnapshot({ settings, repo, retry: FAST });
  await fetchFiles(snapshot, snapshot.files, { retry: FAST, ...options });
  return snapshot;
}

/** Buffers compared whole: vitest's toEqual walks 5 MB byte by byte for a minute. */
async function sameBytes(first: string | Buffer, second: string | Buffer): Promise<boolean> {
  const read = (file: string | Buffer) => (typeof file === 'string' ? readFile(file) : file);
  return (await read(first)).equals(await read(second));
}

async function failure(promise: Promise<unknown>): Promise<HubError> {
  const error = await promise.then(() => undefined, (caught: unknown) => caught);
  expect(error).toBeInstanceOf(HubError);
  return error as HubError;
}

describe('the shared cache', () => {
  it('is laid out as huggingface_hub lays it out: blobs by sha256 or git blob id, relative snapshot links, refs/main', async () => {
    const settings = await freshCache();
    const snapshot = await fetchAll(settings);
    const commit = hub.commitOf('acme/ocr-test');
    const repoCache = path.join(cacheDir, 'models--acme--ocr-test');
    expect(snapshot.commit).toBe(commit);
    expect(snapshot.license).toBe('cc-by-nc-4.0');
    expect(snapshot.dir).toBe(path.join(repoCache, 'snapshots', commit));
    expect(await readFile(path.join(repoCache, 'refs', 'main'), 'utf8')).toBe(commit);
    expect(snapshot.files.map((file) => file.path).sort()).toEqual(['README.md', 'config.json', 'model-00001-of-00002.safetensors', 'model-00002-of-00002.safetensors', 'sub/notes.txt']);
    const shard = hub.sha256Of('acme/ocr-test', 'model-00001-of-00002.safetensors');
    expect(await readlink(path.join(snapshot.dir, 'model-00001-of-00002.safetensors'))).toBe(`../../blobs/${shard}`);
    expect(await readlink(path.join(snapshot.dir, 'sub', 'notes.txt'))).toMatch(/^\.\.\/\.\.\/\.\.\/blobs\/[0-9a-f]{40}$/);
    for (const file of snapshot.files) {
      expect(await sameBytes(path.join(snapshot.dir, file.path), path.join(repoDir, file.path)), file.path).toBe(true);
    }
    // the token never went to the CDN, and no token was sent at all without one
    expect(hub.requests.some((request) => request.authorized)).toBe(false);
  });

  it('links blobs another tool left in the cache instead of fetching them, and resumes its .incomplete files', async () => {
    const settings = await freshCache();
    const blobs = path.join(cacheDir, 'models--acme--ocr-test', 'blobs');
    await mkdir(blobs, { recursive: true });
    const big = 'model-00001-of-00002.safetensors';
    const small = 'model-00002-of-00002.safetensors';
    await writeFile(path.join(blobs, hub.sha256Of('acme/ocr-test', small)), await readFile(path.join(repoDir, small)));
    const bytes = await readFile(path.join(repoDir, big));
    await writeFile(path.join(blobs, `${hub.sha256Of('acme/ocr-test', big)}.incomplete`), bytes.subarray(0, 2 * MB));
    const snapshot = await fetchAll(settings);
    expect(hub.bytesSent.get(`acme/ocr-test/${small}`)).toBeUndefined();
    expect(hub.bytesSent.get(`acme/ocr-test/${big}`)).toBe(3 * MB);
    expect(await sameBytes(path.join(snapshot.dir, big), bytes)).toBe(true);
  });
});

describe('resume and digests', () => {
  it('resumes a dropped connection with Range, fetching little more than the file', async () => {
    const settings = await freshCache();
    const file = 'model-00001-of-00002.safetensors';
    hub.faults.dropOnce = [{ path: file, afterBytes: 3 * MB + 12_345 }];
    const snapshot = await fetchAll(settings);
    expect(await sameBytes(path.join(snapshot.dir, file), path.join(repoDir, file))).toBe(true);
    expect(hub.faults.dropOnce).toEqual([]);
    const ranged = hub.requests.filter((request) => request.range !== undefined);
    expect(ranged.map((request) => request.range)).toContain(`bytes=${3 * MB + 12_345}-`);
    expect(hub.bytesSent.get(`acme/ocr-test/${file}`)).toBe(5 * MB);
  });

  it('fetches a file again once when a byte changed in transit, and names the file when it changes twice', async () => {
    const settings = await freshCache();
    const file = 'model-00002-of-00002.safetensors';
    hub.faults.corruptOnce = [{ path: file, offset: 1_000_000 }];
    const notes: string[] = [];
    const snapshot = await fetchAll(settings, 'acme/ocr-test', { onNote: (note) => notes.push(note) });
    expect(await sameBytes(path.join(snapshot.dir, file), path.join(repoDir, file))).toBe(true);
    expect(notes).toEqual([expect.stringMatching(/^model-00002-of-00002\.safetensors: the bytes received do not match the Hub's sha256 .*fetching it again$/)]);
    expect(hub.bytesSent.get(`acme/ocr-test/${file}`)).toBe(6 * MB);

    const again = await freshCache();
    hub.faults.corruptOnce = [{ path: file, offset: 10 }, { path: file, offset: 20 }];
    const error = await failure(fetchAll(again));
    expect(error.code).toBe('integrity');
    expect(error.message).toContain('model-00002-of-00002.safetensors of acme/ocr-test: downloaded twice');
    const blob = path.join(cacheDir, 'models--acme--ocr-test', 'blobs', hub.sha256Of('acme/ocr-test', file));
    await expect(lstat(blob)).rejects.toThrow();
    await expect(lstat(`${blob}.incomplete`)).rejects.toThrow();
  });

  it('retries 5xx answers with backoff', async () => {
    const settings = await freshCache();
    hub.faults.failNext = { count: 2, status: 503 };
    await fetchAll(settings);
    expect(hub.requests.slice(0, 3).map((request) => request.status)).toEqual([503, 503, 200]);
  });

  it('stops when cancelled, keeps what arrived, and the next fetch finishes it', async () => {
    const settings = await freshCache();
    const file = 'model-00001-of-00002.safetensors';
    hub.faults.bytesPerSecond = 4 * MB;
    const controller = new AbortController();
    const error = await failure(
      fetchAll(settings, 'acme/ocr-test', {
        signal: controller.signal,
        onProgress: (progress) => {
          if (progress.file === file && progress.doneBytes > 2 * MB) controller.abort();
        },
      }),
    );
    hub.faults.bytesPerSecond = undefined;
    expect(error.code).toBe('cancelled');
    const blob = path.join(cacheDir, 'models--acme--ocr-test', 'blobs', hub.sha256Of('acme/ocr-test', file));
    const kept = (await lstat(`${blob}.incomplete`)).size;
    expect(kept).toBeGreaterThan(MB);
    const snapshot = await fetchAll(settings);
    expect(await sameBytes(path.join(snapshot.dir, file), path.join(repoDir, file))).toBe(true);
    expect(hub.bytesSent.get(`acme/ocr-test/${file}`)! - 5 * MB).toBeLessThan(2 * MB);
  });

  it('says the disk is full when a write fails with ENOSPC, and keeps the files already fetched', async () => {
    const settings = await freshCache();
    const file = 'model-00001-of-00002.safetensors';
    const blobs = path.join(cacheDir, 'models--acme--ocr-test', 'blobs');
    await mkdir(blobs, { recursive: true });
    // /dev/full: the kernel answers every write with ENOSPC, as a full disk does
    await symlink('/dev/full', path.join(blobs, `${hub.sha256Of('acme/ocr-test', file)}.incomplete`));
    const error = await failure(fetchAll(settings));
    expect(error.code).toBe('disk-full');
    expect(error.message).toMatch(/^the disk holding .*models--acme--ocr-test is full \(no space left while writing model-00001-of-00002\.safetensors\)/);
    // the small files before it were fetched and kept
    expect((await lstat(path.join(cacheDir, 'models--acme--ocr-test', 'snapshots', hub.commitOf('acme/ocr-test'), 'config.json'))).isSymbolicLink()).toBe(true);
  });
});

describe('errors in the user’s words', () => {
  it('asks for a token and the licence for a gated repo, and fetches it with a granted one', async () => {
    const error = await failure(fetchAll(await freshCache(), 'acme/gated'));
    expect(error.code).toBe('gated');
    expect(error.message).toContain(`acme/gated is gated: its authors ask each user to accept their conditions before downloading. Accept them at ${hub.url}/acme/gated`);
    expect(error.message).toContain('set HF_TOKEN');

    const notGranted = await failure(fetchAll(await freshCache({ HF_TOKEN: TOKEN }), 'acme/gated'));
    expect(notGranted.message).toContain('the account of the token from HF_TOKEN has not been granted access yet');
    expect(notGranted.message).not.toContain(TOKEN);

    const tokenFile = path.join(folder, 'hf-home', 'token');
    await mkdir(path.dirname(tokenFile), { recursive: true });
    await writeFile(tokenFile, 'hf_granted\n');
    const granted = await fetchAll(hubSettings({ HF_ENDPOINT: hub.url, HF_HUB_CACHE: await mkdtemp(path.join(folder, 'cache-')), HF_HOME: path.join(folder, 'hf-home') }), 'acme/gated');
    expect(granted.files.length).toBe(5);
    // the token went to the Hub, and not to the CDN the files were redirected to
    const cdn = hub.requests.filter((request) => request.path.startsWith('/cdn/'));
    expect(cdn.length).toBeGreaterThan(0);
    expect(cdn.some((request) => request.authorized)).toBe(false);
    expect(hub.requests.some((request) => request.authorized)).toBe(true);
  });

  it('tells an unknown or private repo, an unknown revision and a refused token apart', async () => {
    const unknown = await failure(openSnapshot({ settings: await freshCache(), repo: 'acme/nothing', retry: FAST }));
    expect(unknown.message).toBe(`no model acme/nothing on ${hub.url}, or it is private: check the name (owner/name, as in the model's address); for a private model, set HF_TOKEN to an access token (${hub.url}/settings/tokens), or log in with "hf auth login", which writes ${path.join(folder, 'no-home', 'token')} for Folio to read`);
    const privateRepo = await failure(openSnapshot({ settings: await freshCache(), repo: 'acme/private', retry: FAST }));
    expect(privateRepo.code).toBe('repo-not-found');
    expect((await openSnapshot({ settings: await freshCache({ HF_TOKEN: TOKEN }), repo: 'acme/private', retry: FAST })).files.length).toBe(5);

    const revision = await failure(openSnapshot({ settings: await freshCache(), repo: 'acme/ocr-test', revision: 'v9', retry: FAST }));
    expect(revision.message).toBe(`acme/ocr-test has no revision "v9" (a branch, tag or commit); its branches and tags are listed at ${hub.url}/acme/ocr-test/tree/main`);

    const refused = await failure(openSnapshot({ settings: await freshCache({ HF_TOKEN: 'hf_wrong_one' }), repo: 'acme/ocr-test', retry: FAST }));
    expect(refused.code).toBe('token-refused');
    expect(refused.message).toContain('the Hub refused the access token from HF_TOKEN');
    expect(refused.message).not.toContain('hf_wrong_one');
  });

  it('says the Hub cannot be reached, and offline uses the snapshot the cache holds', async () => {
    const settings = await freshCache();
    await fetchAll(settings);
    const closed = { ...settings, endpoint: `http://127.0.0.1:${await closedPort()}` };
    const offline = await openSnapshot({ settings: closed, repo: 'acme/ocr-test', retry: FAST });
    expect(offline.offline).toBe(true);
    expect(offline.commit).toBe(hub.commitOf('acme/ocr-test'));
    await fetchFiles(offline, offline.files);
    const error = await failure(openSnapshot({ settings: closed, repo: 'acme/other', retry: FAST }));
    expect(error.code).toBe('no-network');
    expect(error.message).toBe(`could not reach ${closed.endpoint} (ECONNREFUSED): check the internet connection, a proxy, or HF_ENDPOINT; models already installed still work`);
  });
});
