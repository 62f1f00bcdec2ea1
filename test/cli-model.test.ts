// `folio model get | list | remove` and `--model REPO`, as a user runs them, against the stand-in Hub
// (tools/bench/hub-test-server.ts) serving the tiny fixture package as a repo: what is printed and
// where, the package installed and used, a dropped connection and a changed byte on the way, the
// errors, a full disk, an interrupted download finished by the next `get`.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cp, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { MOUNT_NAMESPACE, needsNow } from './environment.js';
import { pngPage } from './page-images.js';
import { repoRoot, runFolio } from './folio-process.js';
import { closedPort, startHubTestServer, type HubTestServer } from '../tools/bench/hub-test-server.js';

const TINY = path.join(repoRoot, 'tools/model/fixtures/tiny');
const REPO = 'acme/tiny-package';

let folder: string;
let hub: HubTestServer;
let page: string;
let checkpoint: string;

beforeAll(async () => {
  if (!existsSync(path.join(repoRoot, 'dist/electron/cli/main.js'))) throw new Error('The CLI is not built; run "npm run build" before these tests.');
  folder = await mkdtemp(path.join(os.tmpdir(), 'folio-cli-model-'));
  const repoDir = path.join(folder, 'repo');
  await cp(TINY, repoDir, { recursive: true });
  await writeFile(path.join(repoDir, 'README.md'), '---\nlicense: cc-by-nc-4.0\n---\n# tiny\n');
  page = path.join(folder, 'page.png');
  await writeFile(page, pngPage(300, 400));
  // a checkpoint with the real one's structure at toy sizes (tools/model, about 8 s), and one whose config Folio refuses
  checkpoint = path.join(folder, 'tiny-checkpoint');
  execFileSync('/usr/bin/python3', ['-m', 'folio_model', 'build-tiny', '--checkpoint-only', checkpoint], { cwd: path.join(repoRoot, 'tools/model'), stdio: 'ignore' });
  const refused = path.join(folder, 'refused-checkpoint');
  await cp(checkpoint, refused, { recursive: true });
  const config = JSON.parse(await readFile(path.join(refused, 'config.json'), 'utf8')) as { language_config: Record<string, unknown> };
  config.language_config.scoring_func = 'sigmoid';
  await writeFile(path.join(refused, 'config.json'), JSON.stringify(config));
  hub = await startHubTestServer({
    repos: [
      { id: REPO, dir: repoDir },
      { id: 'acme/gated', dir: repoDir, gated: 'auto' },
      { id: 'acme/tiny-checkpoint', dir: checkpoint },
      { id: 'acme/refused', dir: refused },
    ],
  });
});

afterAll(async () => {
  await hub?.close();
  if (folder) await rm(folder, { recursive: true, force: true });
});

afterEach(() => hub.reset());

/** A user's machine: its own app-data folder and Hugging Face cache, nothing of this one's. */
async function machine(): Promise<Record<string, string>> {
  const home = await mkdtemp(path.join(folder, 'home-'));
  return { HF_ENDPOINT: hub.url, HF_HOME: path.join(home, 'hf'), FOLIO_USER_DATA_DIR: path.join(home, 'folio'), HF_TOKEN: '', HF_HUB_CACHE: '' };
}

describe('folio model get', { timeout: 300_000 }, () => {
  it('installs a package a repo holds, prints its folder last on stdout, and --model REPO converts with it', async () => {
    const env = await machine();
    const run = await runFolio(['model', 'get', REPO], env);
    expect(run.code, run.stderr).toBe(0);
    const folderLine = run.stdout.trim().split('\n').pop()!;
    expect(folderLine).toBe(path.join(env.FOLIO_USER_DATA_DIR!, 'models', 'acme--tiny-package--fp32'));
    expect(run.stderr).toContain(`${REPO}@main (commit ${hub.commitOf(REPO).slice(0, 10)}): a Folio model package, fetched as it is; licence CC BY-NC 4.0 (non-commercial use only)`);
    expect(run.stderr).toMatch(/downloading: .* of \d+\.\d MB/);
    expect(run.stderr).toContain(`installed ${REPO} (fp32,`);
    // the package's big files are the cache's blobs, linked, not copied
    const decoder = await stat(path.join(folderLine, 'decoder.onnx'));
    const blob = await stat(path.join(env.HF_HOME!, 'hub', 'models--acme--tiny-package', 'blobs', hub.sha256Of(REPO, 'decoder.onnx')));
    expect(decoder.ino).toBe(blob.ino);
    expect(JSON.parse(await readFile(path.join(folderLine, 'folio-model.json'), 'utf8'))).toMatchObject({
      id: REPO, precision: 'fp32', origin: 'package', license: 'cc-by-nc-4.0', source: { kind: 'hub', repo: REPO, revision: 'main', commit: hub.commitOf(REPO) },
    });

    const list = await runFolio(['model', 'list'], env);
    expect(list.code).toBe(0);
    expect(list.stdout.split('\t').slice(0, 2)).toEqual([REPO, 'fp32']);
    expect(list.stdout).toContain('cpu,cuda\tCC BY-NC 4.0 (non-commercial use only)');

    const convert = await runFolio(['convert', page, '-o', path.join(folder, 'out'), '--model', REPO, '--max-tokens', '8', '--json'], env);
    expect(convert.code, convert.stderr).toBe(0);
    expect(convert.stdout).toMatch(/"event":"page-done".*"engine":"vlm"/);

    // a second get fetches nothing and installs the same package again
    hub.bytesSent.clear();
    const again = await runFolio(['model', 'get', REPO], env);
    expect(again.code, again.stderr).toBe(0);
    expect([...hub.bytesSent.values()].reduce((sum, bytes) => sum + bytes, 0)).toBe(0);
  });

  it('resumes a dropped connection and fetches again a file with a changed byte, and the package is whole', async () => {
    const env = await machine();
    const decoderSize = (await stat(path.join(TINY, 'decoder.onnx'))).size;
    hub.faults.dropOnce = [{ path: 'decoder.onnx', afterBytes: 400_000 }];
    hub.faults.corruptOnce = [{ path: 'vision_256.onnx', offset: 300_000 }];
    const run = await runFolio(['model', 'get', REPO], env);
    expect(run.code, run.stderr).toBe(0);
    expect(hub.bytesSent.get(`${REPO}/decoder.onnx`)).toBe(decoderSize);
    expect(run.stderr).toContain("note: vision_256.onnx: the bytes received do not match the Hub's sha256");
    const installed = run.stdout.trim().split('\n').pop()!;
    for (const file of ['decoder.onnx', 'vision_256.onnx']) {
      expect((await readFile(path.join(installed, file))).equals(await readFile(path.join(TINY, file))), file).toBe(true);
    }
  });

  it('is interrupted by Ctrl-C keeping what arrived, lists the download as unfinished, and the next get finishes it', async () => {
    const env = await machine();
    hub.faults.bytesPerSecond = 400_000;
    const child = spawn(process.execPath, [path.join(repoRoot, 'bin/folio.js'), 'model', 'get', REPO], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
      if (/downloading: [1-9]/.test(stderr) && !child.killed) child.kill('SIGINT');
    });
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(code, stderr).toBe(130);
    expect(stderr).toContain(`what was downloaded is kept in the Hugging Face cache, and "folio model get ${REPO}" resumes it`);
    const sentBefore = [...hub.bytesSent.values()].reduce((sum, bytes) => sum + bytes, 0);
    expect(sentBefore).toBeGreaterThan(0);

    const list = await runFolio(['model', 'list'], env);
    expect(list.stderr).toContain(`unfinished: ${REPO} (int4)`);
    expect(list.stderr).toContain(`"folio model get ${REPO} --precision int4" resumes it`);

    hub.faults.bytesPerSecond = undefined;
    const resumed = await runFolio(['model', 'get', REPO], env);
    expect(resumed.code, resumed.stderr).toBe(0);
    const total = [...hub.bytesSent.values()].reduce((sum, bytes) => sum + bytes, 0);
    // everything sent, before and after the interruption, is the package's files once (README and manifest included), give or take what was in flight
    const sizes = await Promise.all(['decoder.onnx', 'decoder_capacity.onnx', 'embedding.onnx', 'mtp.onnx', 'tokenizer.json', 'vision_128.onnx', 'vision_256.onnx', 'manifest.json'].map(async (file) => (await stat(path.join(TINY, file))).size));
    const whole = sizes.reduce((sum, size) => sum + size, 0);
    expect(total).toBeGreaterThanOrEqual(whole);
    expect(total).toBeLessThan(whole + 300_000);
    expect((await runFolio(['model', 'list'], env)).stderr).not.toContain('unfinished');
  });
});

describe('folio model get, a checkpoint', { timeout: 300_000 }, () => {
  it('downloads a checkpoint, converts it in TypeScript with its steps on stderr, and --model REPO converts a page with it', async () => {
    const env = await machine();
    const run = await runFolio(['model', 'get', 'acme/tiny-checkpoint', '--precision', 'int4'], env);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toMatch(/acme\/tiny-checkpoint@main \(commit [0-9a-f]{10}\): a checkpoint, converted to an int4 package; licence MIT \(any use, commercial included\); 8\d\d kB to download, the package about/);
    expect(run.stderr).toMatch(/converting: decoder \d+\/\d+/);
    const installed = run.stdout.trim().split('\n').pop()!;
    expect(installed).toBe(path.join(env.FOLIO_USER_DATA_DIR!, 'models', 'acme--tiny-checkpoint--int4'));
    const manifest = JSON.parse(await readFile(path.join(installed, 'manifest.json'), 'utf8')) as { precision: string; name: string };
    expect(manifest).toMatchObject({ precision: 'int4', name: 'acme/tiny-checkpoint' });
    // the shards in the cache are the Hub's, byte for byte
    const snapshot = path.join(env.HF_HOME!, 'hub', 'models--acme--tiny-checkpoint', 'snapshots', hub.commitOf('acme/tiny-checkpoint'));
    for (const shard of ['model-00001-of-00002.safetensors', 'model-00002-of-00002.safetensors']) {
      expect((await readFile(path.join(snapshot, shard))).equals(await readFile(path.join(checkpoint, shard))), shard).toBe(true);
    }
    const convert = await runFolio(['convert', page, '-o', path.join(folder, 'out-checkpoint'), '--model', 'acme/tiny-checkpoint', '--max-tokens', '8', '--device', 'cpu', '--json'], env);
    expect(convert.code, convert.stderr).toBe(0);
    expect(convert.stdout).toMatch(/"event":"page-done".*"engine":"vlm"/);
    const list = await runFolio(['model', 'list', '--json'], env);
    expect(JSON.parse(list.stdout)).toMatchObject({ installed: [{ id: 'acme/tiny-checkpoint', precision: 'int4', origin: 'converted', devices: ['cpu', 'webgpu', 'cuda'], license: 'mit' }], unfinished: [] });
  });

  it('converts a checkpoint folder on disk as local/<folder>', async () => {
    const env = await machine();
    const run = await runFolio(['model', 'get', checkpoint, '--precision', 'fp32'], env);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout.trim().split('\n').pop()).toBe(path.join(env.FOLIO_USER_DATA_DIR!, 'models', 'local--tiny-checkpoint--fp32'));
    expect((await runFolio(['model', 'list'], env)).stdout).toMatch(/^local\/tiny-checkpoint\tfp32\t/);
  });

  it('names the config fields Folio refuses, after fetching the checkpoint, and keeps the download for another try', async () => {
    const env = await machine();
    const run = await runFolio(['model', 'get', 'acme/refused'], env);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("folio: acme/refused could not be converted: ");
    expect(run.stderr).toContain("language_config.scoring_func = 'sigmoid' is not supported");
    expect(run.stdout).toBe('');
    expect(existsSync(path.join(env.FOLIO_USER_DATA_DIR!, 'models', 'acme--refused--int4'))).toBe(false);
    expect(existsSync(path.join(env.HF_HOME!, 'hub', 'models--acme--refused', 'snapshots', hub.commitOf('acme/refused'), 'model-00001-of-00002.safetensors'))).toBe(true);
    expect((await runFolio(['model', 'list'], env)).stderr).toContain("unfinished: acme/refused (int4), started");
  });
});

describe('folio model get, refused', { timeout: 300_000 }, () => {
  it('says a gated repo wants a token and its conditions accepted, an unknown one to check the name, no network to check the connection', async () => {
    const env = await machine();
    const gated = await runFolio(['model', 'get', 'acme/gated'], env);
    expect(gated.code).toBe(1);
    expect(gated.stderr).toContain(`folio: acme/gated is gated: its authors ask each user to accept their conditions before downloading. Accept them at ${hub.url}/acme/gated (logged in), then set HF_TOKEN`);
    const unknown = await runFolio(['model', 'get', 'acme/nothing'], env);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain(`folio: no model acme/nothing on ${hub.url}, or it is private: check the name`);
    const revision = await runFolio(['model', 'get', `${REPO}@v2`], env);
    expect(revision.stderr).toContain(`folio: ${REPO} has no revision "v2"`);
    const closed = `http://127.0.0.1:${await closedPort()}`;
    const offline = await runFolio(['model', 'get', REPO], { ...env, HF_ENDPOINT: closed });
    expect(offline.code).toBe(1);
    expect(offline.stderr).toContain(`folio: could not reach ${closed} (ECONNREFUSED): check the internet connection`);
  });

  it('checks the disk before downloading: a cache on a 1 MB file system is refused with what is needed and free', async (context) => {
    const env = await machine();
    const cache = path.join(folder, `small-disk-${Date.now()}`);
    await writeFile(path.join(folder, 'mount-and-run.sh'), 'mkdir -p "$1" && mount -t tmpfs -o size=1m tmpfs "$1" && shift && exec "$@"\n');
    const script = path.join(folder, 'mount-and-run.sh');
    try {
      execFileSync('unshare', ['--mount', '--map-root-user', 'sh', '-c', 'mount -t tmpfs -o size=1m tmpfs /mnt'], { stdio: 'ignore' });
    } catch {
      needsNow(context, MOUNT_NAMESPACE, 'unshare --mount --map-root-user could not mount a small tmpfs here, so the full-disk check cannot run');
    }
    const run = await new Promise<{ code: number | null; stderr: string; stdout: string }>((resolve) => {
      const child = spawn('unshare', ['--mount', '--map-root-user', 'sh', script, cache, process.execPath, path.join(repoRoot, 'bin/folio.js'), 'model', 'get', REPO], {
        env: { ...process.env, ...env, HF_HUB_CACHE: cache },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stderr = '';
      let stdout = '';
      child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
      child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
      child.on('close', (code) => resolve({ code, stderr, stdout }));
    });
    expect(run.code, run.stderr).toBe(1);
    expect(run.stderr).toMatch(/folio: not enough free space: the download \d+\.\d MB in .*small-disk-\d+\/models--acme--tiny-package need \d+ MB with a margin, and the disk has 1\.0 MB free; free some space/);
    expect(run.stdout).toBe('');
  });
});

describe('folio model list, remove and --model', { timeout: 300_000 }, () => {
  it('removes an installed package, leaving the cache, and --model then says how to get it', async () => {
    const env = await machine();
    expect((await runFolio(['model', 'get', REPO], env)).code).toBe(0);
    const removed = await runFolio(['model', 'remove', REPO], env);
    expect(removed.code, removed.stderr).toBe(0);
    expect(removed.stderr).toContain(`removed ${REPO} (fp32,`);
    expect(removed.stderr).toContain(`its download stays in the Hugging Face cache (${path.join(env.HF_HOME!, 'hub')})`);
    expect(existsSync(path.join(env.FOLIO_USER_DATA_DIR!, 'models', 'acme--tiny-package--fp32'))).toBe(false);
    expect(existsSync(path.join(env.HF_HOME!, 'hub', 'models--acme--tiny-package', 'blobs', hub.sha256Of(REPO, 'decoder.onnx')))).toBe(true);

    const again = await runFolio(['model', 'remove', REPO], env);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain(`folio: no model installed as ${REPO}`);
    const convert = await runFolio(['convert', page, '-o', path.join(folder, 'none'), '--model', REPO], env);
    expect(convert.code).toBe(2);
    expect(convert.stderr).toContain(`folio: --model ${REPO}: no such folder, and no model installed as ${REPO} (none installed in ${path.join(env.FOLIO_USER_DATA_DIR!, 'models')}); "folio model get ${REPO}" installs it.`);
  });

  it('refuses a bad precision and an id that is not one, in usage errors', async () => {
    const precision = await runFolio(['model', 'get', REPO, '--precision', 'int8']);
    expect(precision.code).toBe(2);
    expect(precision.stderr).toBe('folio: --precision "int8" is not one of int4, fp16, fp32.\n');
    const remove = await runFolio(['model', 'remove', 'not-a-repo']);
    expect(remove.code).toBe(2);
  });
});
