/**
 * Browser mode: a local stand-in for Electron main. It serves the built renderer on 127.0.0.1 with
 * the app's CSP, injects the client script that defines `window.folio`, and answers its calls over
 * a WebSocket with the same AppService that Electron main runs, on a real engine host. Every
 * request and the WebSocket must carry a random token (or the cookie the first page load sets), and
 * the Host header must be ours, so other pages and other users on the machine cannot drive it.
 */

import { randomBytes, randomUUID } from 'node:crypto';
import { createWriteStream, existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { fileURLToPath } from 'node:url';
import { WebSocketServer, type WebSocket } from 'ws';
import { CONTENT_SECURITY_POLICY } from '../../shared/content-security-policy.js';
import { commandForKey, shortcutKeys } from '../../shared/menu-accelerators.js';
import type { Settings } from '../../shared/settings.js';
import { forkHost } from '../core/engine-client/fork-host.js';
import { hubSettings } from '../core/hub/hub-settings.js';
import { apiHandlers, dispatch, type ApiHandlers } from '../main/api-dispatch.js';
import { AppService } from '../main/app-service.js';
import { installFolioBridge, type BridgeClientConfig } from './folio-bridge-client.js';

export interface BridgeOptions {
  /** The workspace and settings; default: a fresh temporary folder, removed on close. */
  dataDir?: string;
  /** What `chooseExportFolder` answers; default: `exports/` in the data folder. */
  exportDir?: string;
  /** What `chooseModelFolder` answers (a browser has no folder picker); default: none, so the path is typed. */
  modelFolder?: string;
  /** Settings applied at start, e.g. `{ engine: 'text' }` or a model package folder. */
  settings?: Partial<Settings>;
  pageTimeoutMs?: number;
  /** The engine host script and extra environment (tests inject faults with test/fake-hosts). */
  hostModule?: string;
  hostEnv?: Record<string, string>;
  /** The Hugging Face Hub and cache for "Get a model" (HF_ENDPOINT, HF_HOME...), over this process's environment. */
  hubEnv?: Record<string, string>;
  /** The built renderer; default: dist/renderer. */
  rendererDir?: string;
  /** 0: any free port. */
  port?: number;
}

export interface Bridge {
  /** Open this in a browser: it carries the token. */
  url: string;
  origin: string;
  token: string;
  dataDir: string;
  exportDir: string;
  service: AppService;
  close(): Promise<void>;
}

const repoRoot = findRepoRoot(path.dirname(fileURLToPath(import.meta.url)));
const CLIENT_PATH = '/__folio/client.js';
const SOCKET_PATH = '/__folio/ws';

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
  '.ttf': 'font/ttf',
  '.wasm': 'application/wasm',
  '.json': 'application/json',
  '.map': 'application/json',
};

export async function startBridge(options: BridgeOptions = {}): Promise<Bridge> {
  const ownsDataDir = options.dataDir === undefined;
  const dataDir = options.dataDir ?? (await mkdtemp(path.join(os.tmpdir(), 'folio-bridge-')));
  const exportDir = options.exportDir ?? path.join(dataDir, 'exports');
  const rendererDir = path.resolve(options.rendererDir ?? path.join(repoRoot, 'dist/renderer'));
  const hostModule = options.hostModule ?? path.join(repoRoot, 'dist/electron/engine/host.js');
  const version = (JSON.parse(await readFile(path.join(repoRoot, 'package.json'), 'utf8')) as { version: string }).version;
  const service = await AppService.start({
    dataDir,
    version,
    pageTimeoutMs: options.pageTimeoutMs,
    ...(options.hubEnv && { hub: hubSettings({ ...process.env, ...options.hubEnv }) }),
    // the API key, when the page sets one, lives in this process's memory only and reaches the host through `env`
    spawnHost: (env) => forkHost({ modulePath: hostModule, env: { ...process.env, ...options.hostEnv, ...env } }),
  });
  if (options.settings) await service.setSettings(options.settings);

  const token = randomBytes(24).toString('hex');
  const server = http.createServer();
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(options.port ?? 0, '127.0.0.1', resolve);
    });
  } catch (error) {
    await service.close();
    throw new Error(`The Folio bridge could not listen on 127.0.0.1:${options.port ?? 0} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}); choose another --port.`);
  }
  const { port } = server.address() as AddressInfo;
  const origin = `http://127.0.0.1:${port}`;
  const gate = new Gate(token, port);
  const handlers = apiHandlers(service, {
    // a browser cannot show a folder picker: exports go to one folder, named at start
    chooseExportFolder: async () => {
      await mkdir(exportDir, { recursive: true });
      return exportDir;
    },
    // never beside the document: that is the upload folder, not where the user's file is
    defaultExportFolder: async () => {
      await mkdir(exportDir, { recursive: true });
      return exportDir;
    },
    pickModelFolder: async () => options.modelFolder ?? null,
    // a page in a browser cannot open the file manager of the computer the bridge runs on: it shows the path
    showInFolder: async () => false,
    documentsOpened: () => undefined,
  });
  const files = new StaticFiles(rendererDir, port, token);

  server.on('request', (request, response) => {
    handleRequest(request, response).catch((error: unknown) => {
      if (!response.headersSent) response.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' });
      response.end(error instanceof Error ? error.message : String(error));
    });
  });
  async function handleRequest(request: http.IncomingMessage, response: http.ServerResponse): Promise<void> {
    const url = new URL(request.url ?? '/', origin);
    const admitted = gate.admit(request, url);
    if (admitted === 'refused') {
      response.writeHead(403, { 'content-type': 'text/plain; charset=utf-8' });
      response.end('This Folio bridge needs its token: open the URL `npm run dev:web` printed.');
      return;
    }
    const headers: Record<string, string> = admitted === 'by-query' ? { 'set-cookie': gate.cookie() } : {};
    if (request.method === 'POST' && url.pathname === '/__folio/upload') return upload(request, response, url, dataDir);
    if (request.method === 'GET' && url.pathname.startsWith('/__folio/document/')) {
      const bytes = await service.readDocument(decodeURIComponent(url.pathname.slice('/__folio/document/'.length)));
      response.writeHead(200, { 'content-type': bytes.mime, 'cache-control': 'no-store' });
      response.end(bytes.data);
      return;
    }
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      response.writeHead(405).end();
      return;
    }
    await files.serve(url.pathname, response, headers);
  }

  const sockets = new WebSocketServer({ noServer: true, maxPayload: 64 * 1024 * 1024 });
  server.on('upgrade', (request, socket, head) => {
    const url = new URL(request.url ?? '/', origin);
    const sameOrigin = request.headers.origin === undefined || request.headers.origin === origin;
    if (url.pathname !== SOCKET_PATH || !sameOrigin || gate.admit(request, url) === 'refused') {
      socket.end('HTTP/1.1 403 Forbidden\r\n\r\n');
      return;
    }
    sockets.handleUpgrade(request, socket, head, (client) => serveSocket(client, handlers));
  });
  const unsubscribe = service.onWorkspaceEvent((event) => {
    const message = JSON.stringify({ event: 'workspace', payload: event });
    for (const client of sockets.clients) if (client.readyState === client.OPEN) client.send(message);
  });

  return {
    url: `${origin}/?token=${token}`,
    origin,
    token,
    dataDir,
    exportDir,
    service,
    close: async () => {
      unsubscribe();
      for (const client of sockets.clients) client.terminate();
      await new Promise<void>((resolve) => sockets.close(() => resolve()));
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await service.close();
      if (ownsDataDir) await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** The token check: query string (the first page load, which then gets a cookie), cookie, or header. */
class Gate {
  private readonly cookieName: string;

  constructor(
    private readonly token: string,
    private readonly port: number,
  ) {
    // cookies ignore ports: one name per bridge keeps two bridges from clobbering each other
    this.cookieName = `folio-bridge-${port}`;
  }

  admit(request: http.IncomingMessage, url: URL): 'by-query' | 'admitted' | 'refused' {
    // a page on another origin that resolves its own name to 127.0.0.1 still sends its own Host
    if (request.headers.host !== `127.0.0.1:${this.port}`) return 'refused';
    if (url.searchParams.get('token') === this.token) return 'by-query';
    if (request.headers['x-folio-token'] === this.token) return 'admitted';
    const cookies = (request.headers.cookie ?? '').split(';').map((part) => part.trim());
    return cookies.includes(`${this.cookieName}=${this.token}`) ? 'admitted' : 'refused';
  }

  cookie(): string {
    return `${this.cookieName}=${this.token}; HttpOnly; SameSite=Strict; Path=/`;
  }
}

/** The built renderer, with the client script injected into index.html and the CSP's connect-src widened to our WebSocket only. */
class StaticFiles {
  private readonly policy: string;
  private readonly clientScript: string;

  constructor(
    private readonly root: string,
    port: number,
    token: string,
  ) {
    this.policy = CONTENT_SECURITY_POLICY.replace("connect-src 'self'", `connect-src 'self' ws://127.0.0.1:${port}`);
    const config: BridgeClientConfig = { token, shortcuts: shortcutKeys() };
    this.clientScript = `(${installFolioBridge.toString()})(${JSON.stringify(config)}, ${commandForKey.toString()});\n`;
  }

  async serve(pathname: string, response: http.ServerResponse, extraHeaders: Record<string, string>): Promise<void> {
    const headers = { ...extraHeaders, 'content-security-policy': this.policy, 'x-content-type-options': 'nosniff', 'cache-control': 'no-store' };
    if (pathname === CLIENT_PATH) {
      response.writeHead(200, { ...headers, 'content-type': CONTENT_TYPES['.js']! });
      response.end(this.clientScript);
      return;
    }
    const relative = decodeURIComponent(pathname === '/' ? '/index.html' : pathname);
    const file = path.resolve(this.root, `.${relative}`);
    const body = file.startsWith(this.root + path.sep) ? await readFile(file).catch(() => undefined) : undefined;
    if (!body) {
      const missing = relative === '/index.html' ? `The renderer is not built (${file} is missing): run \`npm run build\` first.` : 'Not found';
      response.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' });
      response.end(missing);
      return;
    }
    const isIndex = relative === '/index.html';
    response.writeHead(200, { ...headers, 'content-type': CONTENT_TYPES[path.extname(file)] ?? 'application/octet-stream' });
    // a classic script in <head> runs before the renderer's module scripts, as a preload does
    response.end(isIndex ? body.toString('utf8').replace(/<head>/i, `<head>\n    <script src="${CLIENT_PATH}"></script>`) : body);
  }
}

/** One browser tab: calls in, answers and workspace events out. */
function serveSocket(client: WebSocket, handlers: ApiHandlers): void {
  client.on('message', (raw) => {
    let id: unknown;
    let answer: Promise<unknown>;
    try {
      const message = JSON.parse(String(raw)) as { id?: unknown; method?: unknown; args?: unknown };
      id = message.id;
      answer = dispatch(handlers, String(message.method), message.args);
    } catch (error) {
      answer = Promise.reject(error);
    }
    answer.then(
      (result) => client.send(JSON.stringify({ id, result: result ?? null })),
      (error: unknown) => client.send(JSON.stringify({ id, error: error instanceof Error ? error.message : String(error) })),
    );
  });
}

/** A dropped file, stored in the data folder so the engine host can open it by path. */
async function upload(request: http.IncomingMessage, response: http.ServerResponse, url: URL, dataDir: string): Promise<void> {
  const name = path.basename(url.searchParams.get('name') ?? '') || 'document';
  const folder = path.join(dataDir, 'uploads', randomUUID());
  await mkdir(folder, { recursive: true });
  const file = path.join(folder, name);
  await pipeline(request, createWriteStream(file));
  response.writeHead(200, { 'content-type': 'application/json' });
  response.end(JSON.stringify({ path: file }));
}

/** The folder with package.json above `start`: this module runs from the sources and from dist/. */
function findRepoRoot(start: string): string {
  for (let folder = start; folder !== path.dirname(folder); folder = path.dirname(folder)) {
    if (existsSync(path.join(folder, 'package.json'))) return folder;
  }
  throw new Error(`No package.json above ${start}: the bridge runs from the Folio repository.`);
}
