/**
 * A local stand-in for Electron main in browser tests: serves the built renderer on 127.0.0.1 with
 * the app's CSP and answers `window.folio` calls over HTTP with the real engine code.
 */

import { readFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AppInfo, FolioApi } from '../../shared/app-api.js';
import { CONTENT_SECURITY_POLICY } from '../../shared/content-security-policy.js';
import { chooseExecutionProvider } from '../../electron/engine/onnx/execution-provider.js';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const rendererRoot = path.join(repoRoot, 'dist/renderer');

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.woff2': 'font/woff2',
  '.map': 'application/json',
};

const api: Pick<FolioApi, 'appInfo'> = {
  async appInfo(): Promise<AppInfo> {
    const pkg = JSON.parse(await readFile(path.join(repoRoot, 'package.json'), 'utf8')) as { version: string };
    const choice = await chooseExecutionProvider();
    return { version: pkg.version, device: choice.device, deviceReason: choice.reason };
  },
};

export interface Bridge {
  url: string;
  close(): Promise<void>;
}

export async function startBridge(): Promise<Bridge> {
  const server = http.createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      response.writeHead(500, { 'content-type': 'text/plain' });
      response.end(error instanceof Error ? error.message : String(error));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

async function handle(request: http.IncomingMessage, response: http.ServerResponse): Promise<void> {
  const url = new URL(request.url ?? '/', 'http://127.0.0.1');
  if (request.method === 'POST' && url.pathname.startsWith('/bridge/')) {
    const method = url.pathname.slice('/bridge/'.length);
    if (method !== 'appInfo') {
      response.writeHead(404).end();
      return;
    }
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(JSON.stringify(await api[method]()));
    return;
  }
  const file = path.resolve(rendererRoot, `.${url.pathname === '/' ? '/index.html' : url.pathname}`);
  if (!file.startsWith(rendererRoot + path.sep)) {
    response.writeHead(404).end();
    return;
  }
  const body = await readFile(file).catch(() => undefined);
  if (!body) {
    response.writeHead(404).end();
    return;
  }
  response.writeHead(200, {
    'content-type': CONTENT_TYPES[path.extname(file)] ?? 'application/octet-stream',
    'content-security-policy': CONTENT_SECURITY_POLICY,
  });
  response.end(body);
}
