/**
 * A stand-in for the Hugging Face Hub, on 127.0.0.1, for the model download's tests: the endpoints
 * the Hub's own clients call (model info, tree, paths-info, resolve), answered as the Hub answers
 * them (JSON shapes, `X-Error-Code` headers, 401 for an unknown repo asked without a token, gated
 * repos whose files need a granted token), with LFS files redirected to a CDN on a second port that
 * serves byte ranges. Faults on request: a connection dropped inside a file, a byte changed in
 * transit, 5xx answers, a slow link. It counts the bytes it sent of each file, so a test can say
 * what a drop cost.
 *
 * Run alone (after `npm run build`): `node dist/tools/bench/hub-test-server.js --repo acme/ocr-test=DIR [--port N]`
 * prints the HF_ENDPOINT to use.
 */

import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { fileSha256 as sha256File } from '../../electron/core/model/package-files.js';

export interface HubTestRepo {
  /** `owner/name`. */
  id: string;
  /** The folder whose files are the repository's (at every revision). */
  dir: string;
  /** Files need a token the server grants this repo to (`grants`); model info and tree stay public, as on the Hub. */
  gated?: false | 'auto' | 'manual';
  /** Nothing answers without a token granted this repo; an unknown repo looks the same. */
  private?: boolean;
  /** The model card's `license:`; default: read from README.md's front matter. */
  license?: string;
  /** Branch and tag names besides `main`, all at the one commit. */
  revisions?: string[];
}

export interface HubTestFaults {
  /** Each closes the connection once, after this many bytes of the file (from its start) have gone out. */
  dropOnce?: { path: string; afterBytes: number }[];
  /** Each sends the byte at `offset` of the file changed, once. */
  corruptOnce?: { path: string; offset: number }[];
  /** Files go out at about this many bytes a second; undefined: as fast as the socket takes them. */
  bytesPerSecond?: number;
  /** The next `count` requests of any kind are answered with `status` (e.g. 503); counts down. */
  failNext?: { count: number; status: number };
}

export interface HubTestServerConfig {
  repos: HubTestRepo[];
  /** Tokens the server knows, each with the repo ids it may read (private ones, gated ones it was granted). */
  tokens?: Record<string, string[]>;
  faults?: HubTestFaults;
  /** Tree entries per page (the Hub pages with a `Link: <...>; rel="next"` header); default 1000. */
  treePageSize?: number;
  port?: number;
}

export interface HubTestRequest {
  method: string;
  path: string;
  range: string | undefined;
  /** Whether an Authorization header came (its value is never kept). */
  authorized: boolean;
  status: number;
}

export interface HubTestServer {
  /** HF_ENDPOINT. */
  url: string;
  /** The CDN's origin (another port: another host to a client). */
  cdnUrl: string;
  /** Faults in force; change them between runs. */
  faults: HubTestFaults;
  /** Body bytes sent of each file, by `repo/path`, over every request. */
  bytesSent: Map<string, number>;
  requests: HubTestRequest[];
  /** The commit every revision of the repo resolves to. */
  commitOf(repo: string): string;
  /** The file's sha256 (its LFS oid). */
  sha256Of(repo: string, file: string): string;
  /** No faults, no bytes or requests counted: between tests. */
  reset(): void;
  close(): Promise<void>;
}

interface RepoFile {
  path: string;
  size: number;
  /** git's blob id of the file (or of its LFS pointer). */
  oid: string;
  lfs?: { oid: string; size: number; pointerSize: number };
  sha256: string;
  full: string;
}

interface ServedRepo {
  config: HubTestRepo;
  files: RepoFile[];
  commit: string;
  license: string | undefined;
}

/** Files the Hub keeps in LFS by the usual .gitattributes, and anything over 10 MB. */
const LFS_EXTENSIONS = new Set(['.safetensors', '.onnx', '.data', '.bin', '.pt', '.msgpack']);
const LFS_SIZE = 10 * 1024 * 1024;
const CHUNK = 64 * 1024;

export async function startHubTestServer(config: HubTestServerConfig): Promise<HubTestServer> {
  const repos = new Map<string, ServedRepo>();
  for (const repo of config.repos) repos.set(repo.id, await serveRepo(repo));
  const tokens = config.tokens ?? {};
  const faults: HubTestFaults = config.faults ?? {};
  const bytesSent = new Map<string, number>();
  const requests: HubTestRequest[] = [];
  const pageSize = config.treePageSize ?? 1000;
  const sockets = new Set<Socket>();

  const api = createServer();
  const cdn = createServer();
  await Promise.all([listen(api, config.port ?? 0), listen(cdn, 0)]);
  const url = `http://127.0.0.1:${(api.address() as AddressInfo).port}`;
  const cdnUrl = `http://127.0.0.1:${(cdn.address() as AddressInfo).port}`;
  for (const server of [api, cdn]) {
    server.on('connection', (socket) => {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
    });
  }

  const record = (request: IncomingMessage, response: ServerResponse) => {
    const entry: HubTestRequest = { method: request.method ?? 'GET', path: request.url ?? '/', range: request.headers.range, authorized: request.headers.authorization !== undefined, status: 0 };
    requests.push(entry);
    response.on('finish', () => (entry.status = response.statusCode));
    response.on('close', () => (entry.status ||= response.statusCode));
    if (faults.failNext && faults.failNext.count > 0) {
      faults.failNext.count--;
      json(response, faults.failNext.status, { error: 'Service temporarily unavailable (stand-in fault)' });
      return false;
    }
    return true;
  };

  api.on('request', (request, response) => {
    if (!record(request, response)) return;
    handleApi(request, response).catch((error: unknown) => {
      if (!response.headersSent) json(response, 500, { error: String(error) });
      else response.destroy();
    });
  });
  cdn.on('request', (request, response) => {
    if (!record(request, response)) return;
    handleCdn(request, response).catch(() => response.destroy());
  });

  /** Who asks: no token, a token the server knows, or one it does not. */
  function caller(request: IncomingMessage): { kind: 'anonymous' } | { kind: 'user'; repos: string[] } | { kind: 'invalid' } {
    const header = request.headers.authorization;
    if (!header) return { kind: 'anonymous' };
    const token = /^Bearer (.+)$/.exec(header)?.[1];
    const repos = token === undefined ? undefined : tokens[token];
    return repos ? { kind: 'user', repos } : { kind: 'invalid' };
  }

  /** The repo, or the Hub's answer when this caller may not see it. */
  function visibleRepo(request: IncomingMessage, response: ServerResponse, id: string): ServedRepo | undefined {
    const who = caller(request);
    if (who.kind === 'invalid') {
      hubError(response, 401, undefined, 'Invalid credentials in Authorization header');
      return undefined;
    }
    const repo = repos.get(id);
    const visible = repo && (!repo.config.private || (who.kind === 'user' && who.repos.includes(id)));
    if (!visible) {
      // the Hub does not tell an anonymous caller whether a repo exists: unknown and private look alike
      hubError(response, who.kind === 'anonymous' ? 401 : 404, 'RepoNotFound', 'Repository not found');
      return undefined;
    }
    return repo;
  }

  function knownRevision(response: ServerResponse, repo: ServedRepo, revision: string): boolean {
    if (revision === repo.commit || revision === 'HEAD' || revision === 'main' || repo.config.revisions?.includes(revision)) return true;
    hubError(response, 404, 'RevisionNotFound', `Invalid rev id: ${revision}`);
    return false;
  }

  async function handleApi(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? '/', 'http://hub');
    const parts = url.pathname.split('/').filter(Boolean).map(decodeURIComponent);
    if (parts[0] === 'api' && parts[1] === 'models' && parts.length >= 4) {
      const repo = visibleRepo(request, response, `${parts[2]}/${parts[3]}`);
      if (!repo) return;
      const [action, revision = 'main', ...rest] = parts.slice(4);
      if (action === undefined) return json(response, 200, modelInfo(repo));
      if (!knownRevision(response, repo, revision)) return;
      if (action === 'revision') return json(response, 200, modelInfo(repo));
      if (action === 'tree') return tree(response, url, repo, rest.join('/'));
      if (action === 'paths-info' && request.method === 'POST') return pathsInfo(request, response, repo);
      return hubError(response, 404, undefined, 'Not found');
    }
    const resolveAt = parts.indexOf('resolve');
    if (resolveAt === 2 && parts.length > 4) {
      const repo = visibleRepo(request, response, `${parts[0]}/${parts[1]}`);
      if (!repo) return;
      const revision = parts[3]!;
      if (!knownRevision(response, repo, revision)) return;
      const file = repo.files.find((candidate) => candidate.path === parts.slice(4).join('/'));
      if (!file) return hubError(response, 404, 'EntryNotFound', `${parts.slice(4).join('/')} does not exist on "${revision}"`);
      if (repo.config.gated) {
        const who = caller(request);
        if (who.kind === 'anonymous') {
          return hubError(response, 401, 'GatedRepo', `Access to model ${repo.config.id} is restricted. You must have access to it and be authenticated to access it. Please log in.`);
        }
        if (who.kind === 'user' && !who.repos.includes(repo.config.id)) {
          return hubError(response, 403, 'GatedRepo', `Access to model ${repo.config.id} is restricted and you are not in the authorized list. Visit ${url.origin}/${repo.config.id} to ask for access.`);
        }
      }
      const headers = { 'x-repo-commit': repo.commit, etag: `"${file.lfs?.oid ?? file.oid}"` };
      if (file.lfs) {
        response.writeHead(302, {
          ...headers,
          'x-linked-etag': `"${file.lfs.oid}"`,
          'x-linked-size': String(file.lfs.size),
          location: `${cdnUrl}/cdn/${file.lfs.oid}?repo=${encodeURIComponent(repo.config.id)}&expires=9999999999&signature=stand-in`,
        });
        response.end();
        return;
      }
      return sendFile(request, response, repo, file, headers);
    }
    hubError(response, 404, undefined, 'Not found');
  }

  async function handleCdn(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? '/', 'http://cdn');
    const match = /^\/cdn\/([0-9a-f]{64})$/.exec(url.pathname);
    const repo = repos.get(url.searchParams.get('repo') ?? '');
    const file = match && repo?.files.find((candidate) => candidate.lfs?.oid === match[1]);
    if (!repo || !file) {
      response.writeHead(404, { 'content-type': 'application/xml' });
      response.end('<Error><Code>NoSuchKey</Code></Error>');
      return;
    }
    await sendFile(request, response, repo, file, { etag: `"${file.lfs!.oid}"` });
  }

  async function tree(response: ServerResponse, url: URL, repo: ServedRepo, under: string): Promise<void> {
    const recursive = url.searchParams.get('recursive') === 'true' || url.searchParams.get('recursive') === '1';
    const prefix = under ? `${under}/` : '';
    const entries = new Map<string, object>();
    for (const file of repo.files) {
      if (!file.path.startsWith(prefix)) continue;
      const rest = file.path.slice(prefix.length);
      const slash = rest.indexOf('/');
      if (slash >= 0 && !recursive) {
        const dir = prefix + rest.slice(0, slash);
        entries.set(dir, { type: 'directory', oid: sha1(dir), size: 0, path: dir });
        continue;
      }
      if (recursive) {
        const segments = rest.split('/');
        for (let i = 1; i < segments.length; i++) {
          const dir = prefix + segments.slice(0, i).join('/');
          if (!entries.has(dir)) entries.set(dir, { type: 'directory', oid: sha1(dir), size: 0, path: dir });
        }
      }
      entries.set(file.path, treeEntry(file));
    }
    const all = [...entries.values()];
    const start = Number(url.searchParams.get('cursor') ?? 0);
    const page = all.slice(start, start + pageSize);
    const headers: Record<string, string> = {};
    if (start + pageSize < all.length) {
      const next = new URL(url.pathname, url.origin === 'null' ? 'http://hub' : url.origin);
      url.searchParams.forEach((value, key) => key !== 'cursor' && next.searchParams.set(key, value));
      next.searchParams.set('cursor', String(start + pageSize));
      headers.link = `<${urlOf(next)}>; rel="next"`;
    }
    json(response, 200, page, headers);
  }

  /** The next page's absolute address on this server. */
  function urlOf(next: URL): string {
    return `${url}${next.pathname}${next.search}`;
  }

  async function pathsInfo(request: IncomingMessage, response: ServerResponse, repo: ServedRepo): Promise<void> {
    const body = await readBody(request);
    let paths: string[];
    const type = request.headers['content-type'] ?? '';
    if (type.startsWith('application/json')) paths = (JSON.parse(body) as { paths?: string[] }).paths ?? [];
    else paths = new URLSearchParams(body).getAll('paths');
    const found = repo.files.filter((file) => paths.includes(file.path));
    json(response, 200, found.map((file) => ({ ...treeEntry(file), lastCommit: { id: repo.commit, title: 'stand-in commit', date: '2026-01-01T00:00:00.000Z' } })));
  }

  function modelInfo(repo: ServedRepo): object {
    return {
      _id: repo.commit.slice(0, 24),
      id: repo.config.id,
      modelId: repo.config.id,
      author: repo.config.id.split('/')[0],
      sha: repo.commit,
      lastModified: '2026-01-01T00:00:00.000Z',
      createdAt: '2026-01-01T00:00:00.000Z',
      private: repo.config.private ?? false,
      gated: repo.config.gated ?? false,
      disabled: false,
      downloads: 0,
      likes: 0,
      tags: repo.license ? [`license:${repo.license}`] : [],
      pipeline_tag: 'image-text-to-text',
      library_name: 'transformers',
      cardData: repo.license ? { license: repo.license } : {},
      siblings: repo.files.map((file) => ({ rfilename: file.path })),
      usedStorage: repo.files.reduce((sum, file) => sum + file.size, 0),
    };
  }

  /** A file's bytes from the Range asked (one range, as the Hub's CDN answers), with the faults in force. */
  async function sendFile(request: IncomingMessage, response: ServerResponse, repo: ServedRepo, file: RepoFile, headers: Record<string, string>): Promise<void> {
    const size = file.size;
    const range = request.headers.range === undefined ? undefined : /^bytes=(\d+)-(\d*)$/.exec(request.headers.range);
    let start = 0;
    let end = size - 1;
    if (range) {
      start = Number(range[1]);
      if (range[2]) end = Math.min(Number(range[2]), size - 1);
      if (start >= size || start > end) {
        response.writeHead(416, { ...headers, 'content-range': `bytes */${size}` });
        response.end();
        return;
      }
    }
    response.writeHead(range ? 206 : 200, {
      ...headers,
      'accept-ranges': 'bytes',
      'content-type': 'application/octet-stream',
      'content-length': String(end - start + 1),
      ...(range && { 'content-range': `bytes ${start}-${end}/${size}` }),
    });
    if (request.method === 'HEAD') {
      response.end();
      return;
    }
    const key = `${repo.config.id}/${file.path}`;
    const drop = faults.dropOnce?.find((fault) => fault.path === file.path && fault.afterBytes >= start && fault.afterBytes <= end);
    const handle = await open(file.full, 'r');
    try {
      let offset = start;
      const began = Date.now();
      while (offset <= end) {
        let length = Math.min(CHUNK, end + 1 - offset);
        if (drop && offset + length > drop.afterBytes) length = drop.afterBytes - offset;
        const chunk = Buffer.alloc(length);
        await handle.read(chunk, 0, length, offset);
        const corrupt = faults.corruptOnce?.find((fault) => fault.path === file.path && fault.offset >= offset && fault.offset < offset + length);
        if (corrupt) {
          chunk[corrupt.offset - offset] = chunk[corrupt.offset - offset]! ^ 0xff;
          faults.corruptOnce = faults.corruptOnce!.filter((fault) => fault !== corrupt);
        }
        if (length > 0 && !response.write(chunk)) await waitForDrain(response);
        if (response.destroyed) return;
        offset += length;
        bytesSent.set(key, (bytesSent.get(key) ?? 0) + length);
        if (drop && offset === drop.afterBytes) {
          faults.dropOnce = faults.dropOnce!.filter((fault) => fault !== drop);
          // what was written reaches the client; then the connection is cut mid-body
          await new Promise((resolve) => setTimeout(resolve, 50));
          response.socket?.destroy();
          return;
        }
        if (faults.bytesPerSecond) {
          const due = began + ((offset - start) / faults.bytesPerSecond) * 1000;
          const wait = due - Date.now();
          if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
        }
      }
      response.end();
    } finally {
      await handle.close();
    }
  }

  return {
    url,
    cdnUrl,
    faults,
    bytesSent,
    requests,
    commitOf: (repo) => repos.get(repo)!.commit,
    reset: () => {
      for (const key of Object.keys(faults) as (keyof HubTestFaults)[]) delete faults[key];
      bytesSent.clear();
      requests.length = 0;
    },
    sha256Of: (repo, file) => repos.get(repo)!.files.find((candidate) => candidate.path === file)!.sha256,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await Promise.all([api, cdn].map((server) => new Promise<void>((resolve) => server.close(() => resolve()))));
    },
  };
}

/** A port on 127.0.0.1 that nothing listens on: a Hub that cannot be reached. */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await listen(server, 0);
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function serveRepo(config: HubTestRepo): Promise<ServedRepo> {
  const files: RepoFile[] = [];
  for (const relative of listFiles(config.dir)) {
    const full = path.join(config.dir, relative);
    const size = statSync(full).size;
    const sha256 = await sha256File(full);
    if (LFS_EXTENSIONS.has(path.extname(relative)) || size > LFS_SIZE) {
      const pointer = `version https://git-lfs.github.com/spec/v1\noid sha256:${sha256}\nsize ${size}\n`;
      files.push({ path: relative, size, oid: gitBlobId(Buffer.from(pointer)), lfs: { oid: sha256, size, pointerSize: pointer.length }, sha256, full });
    } else {
      files.push({ path: relative, size, oid: gitBlobId(readFileSync(full)), sha256, full });
    }
  }
  const commit = sha1(files.map((file) => `${file.path}:${file.oid}`).join('\n'));
  return { config, files, commit, license: config.license ?? cardLicense(config.dir) };
}

function listFiles(dir: string, under = ''): string[] {
  return readdirSync(path.join(dir, under), { withFileTypes: true })
    .flatMap((entry) => {
      const relative = under ? `${under}/${entry.name}` : entry.name;
      if (entry.isDirectory()) return listFiles(dir, relative);
      return entry.isFile() ? [relative] : [];
    })
    .sort();
}

function cardLicense(dir: string): string | undefined {
  try {
    const card = readFileSync(path.join(dir, 'README.md'), 'utf8');
    const front = /^---\n([\s\S]*?)\n---/.exec(card)?.[1] ?? '';
    return /^license:\s*(\S+)/m.exec(front)?.[1];
  } catch {
    return undefined;
  }
}

function treeEntry(file: RepoFile): object {
  return { type: 'file', oid: file.oid, size: file.size, path: file.path, ...(file.lfs && { lfs: file.lfs }) };
}

function gitBlobId(content: Buffer): string {
  return createHash('sha1').update(`blob ${content.length}\0`).update(content).digest('hex');
}

function sha1(text: string): string {
  return createHash('sha1').update(text).digest('hex');
}


function json(response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  response.writeHead(status, { ...headers, 'content-type': 'application/json; charset=utf-8' });
  response.end(JSON.stringify(body));
}

/** An error as the Hub sends it: JSON `{error}`, with `X-Error-Code` and `X-Error-Message` when it has a code. */
function hubError(response: ServerResponse, status: number, code: string | undefined, message: string): void {
  json(response, status, { error: message }, code ? { 'x-error-code': code, 'x-error-message': message } : {});
}

function listen(server: Server, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', resolve);
  });
}

function waitForDrain(response: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      response.off('drain', done);
      response.off('close', done);
      resolve();
    };
    response.on('drain', done);
    response.on('close', done);
  });
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

if (process.argv[1] && import.meta.url === new URL(`file://${path.resolve(process.argv[1])}`).href) {
  const { values } = parseArgs({ options: { repo: { type: 'string', multiple: true }, port: { type: 'string' }, gated: { type: 'string', multiple: true } } });
  const repos = (values.repo ?? []).map((spec) => {
    const [id, dir] = spec.split('=');
    if (!id || !dir) throw new Error(`--repo ${spec}: write it as owner/name=DIR`);
    return { id, dir: path.resolve(dir), ...(values.gated?.includes(id) && { gated: 'manual' as const }) };
  });
  const server = await startHubTestServer({ repos, port: values.port === undefined ? 0 : Number(values.port) });
  console.log(`HF_ENDPOINT=${server.url}`);
  for (const repo of repos) console.log(`${repo.id}: commit ${server.commitOf(repo.id)} from ${repo.dir}`);
}
