import http from 'node:http';
import os from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { startBridge, type Bridge } from '../electron/web/bridge-server.js';

let bridge: Bridge;

beforeAll(async () => {
  bridge = await startBridge({ settings: { engine: 'text' } });
});

afterAll(async () => {
  await bridge?.close();
});

/** A GET with exactly the headers given (fetch would add its own Host). */
function get(url: string, headers: Record<string, string> = {}): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers }, (response) => {
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (body += chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body }));
      })
      .on('error', reject);
  });
}

/** Opens a WebSocket and makes one call; rejects when the bridge refuses the connection. */
function callOverSocket(url: string, method: string, headers: Record<string, string> = {}): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url, { headers });
    socket.on('error', reject);
    socket.on('unexpected-response', (_request, response) => reject(new Error(`refused with ${response.statusCode}`)));
    socket.on('open', () => socket.send(JSON.stringify({ id: 1, method, args: [] })));
    socket.on('message', (raw) => {
      const message = JSON.parse(String(raw)) as { id?: number; result?: unknown; error?: string };
      if (message.id !== 1) return;
      socket.close();
      if (message.error) reject(new Error(message.error));
      else resolve(message.result);
    });
  });
}

describe('the browser-mode bridge', () => {
  it('listens on 127.0.0.1 only', async () => {
    expect(new URL(bridge.origin).hostname).toBe('127.0.0.1');
    const outside = Object.values(os.networkInterfaces())
      .flat()
      .find((address) => address && address.family === 'IPv4' && !address.internal);
    if (!outside) return;
    const port = new URL(bridge.origin).port;
    await expect(get(`http://${outside.address}:${port}/?token=${bridge.token}`)).rejects.toThrow(/ECONNREFUSED/);
  });

  it('says which port is taken when it cannot listen, and leaves no engine host behind', async () => {
    const port = Number(new URL(bridge.origin).port);
    await expect(startBridge({ port })).rejects.toThrow(`The Folio bridge could not listen on 127.0.0.1:${port} (EADDRINUSE); choose another --port.`);
  });

  it('refuses pages and files without the token, or with a wrong one', async () => {
    expect((await get(`${bridge.origin}/`)).status).toBe(403);
    expect((await get(`${bridge.origin}/?token=0123`)).status).toBe(403);
    expect((await get(`${bridge.origin}/__folio/client.js`)).status).toBe(403);
    expect((await get(`${bridge.origin}/__folio/client.js`, { cookie: 'folio-bridge-1=guess' })).status).toBe(403);
  });

  it('refuses a request for its port under another host name (DNS rebinding)', async () => {
    const port = new URL(bridge.origin).port;
    expect((await get(`${bridge.origin}/?token=${bridge.token}`, { host: `evil.example:${port}` })).status).toBe(403);
  });

  it('serves the renderer with the token, sets a cookie for its assets, injects the client and widens connect-src to its own WebSocket only', async () => {
    const page = await get(bridge.url);
    expect(page.status).toBe(200);
    expect(page.body).toContain('<script src="/__folio/client.js"></script>');
    const policy = String(page.headers['content-security-policy']);
    expect(policy).toContain(`connect-src 'self' ws://${new URL(bridge.origin).host};`);
    expect(policy).toContain("script-src 'self';");
    const cookie = String(page.headers['set-cookie']).split(';')[0]!;
    const client = await get(`${bridge.origin}/__folio/client.js`, { cookie });
    expect(client.status).toBe(200);
    expect(client.body).toContain(bridge.token);
  });

  it('answers FolioApi calls over the WebSocket with the token and refuses the socket without it', async () => {
    const socketUrl = `ws://${new URL(bridge.origin).host}/__folio/ws`;
    await expect(callOverSocket(socketUrl, 'getSettings')).rejects.toThrow(/403/);
    await expect(callOverSocket(`${socketUrl}?token=nope`, 'getSettings')).rejects.toThrow(/403/);
    await expect(callOverSocket(`${socketUrl}?token=${bridge.token}`, 'getSettings', { origin: 'http://evil.example' })).rejects.toThrow(/403/);
    expect(await callOverSocket(`${socketUrl}?token=${bridge.token}`, 'getSettings')).toMatchObject({ engine: 'text' });
    await expect(callOverSocket(`${socketUrl}?token=${bridge.token}`, 'constructor')).rejects.toThrow(/no method constructor/);
  });
});
