import { createServer, type Server } from 'node:http';
import { createServer as createNetServer, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../tools/bench/openai-test-server.js';
import { checkRemoteServer, modelNames } from './server-check.js';

const KEY = 'sk-check-7f3a91';

describe('checkRemoteServer', () => {
  let open: TestServer;
  let guarded: TestServer;
  let other: Server;
  let otherUrl: string;
  beforeAll(async () => {
    open = await startTestServer({ models: ['jina-ocr-v1', 'test-ocr'] });
    guarded = await startTestServer({ apiKey: KEY });
    // a web server that is not an OpenAI API: its pages are HTML, /v1/models is not there
    other = createServer((_request, response) => {
      response.writeHead(404, { 'content-type': 'text/html' });
      response.end('<html><body><h1>Not Found</h1></body></html>');
    });
    await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
    otherUrl = `http://127.0.0.1:${(other.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await open.close();
    await guarded.close();
    await new Promise((resolve) => other.close(resolve));
  });

  it('lists the models of a reachable server, with http:// added to a bare host', async () => {
    const check = await checkRemoteServer(open.url.replace('http://', ''), null);
    expect(check).toMatchObject({ kind: 'reachable', server: open.url, models: ['jina-ocr-v1', 'test-ocr'] });
    expect(check.message).toContain('lists 2 models: jina-ocr-v1, test-ocr');
  });

  it('asks for the API key when the server wants one and none is stored, and says a stored one was refused', async () => {
    const none = await checkRemoteServer(guarded.url, null);
    expect(none.kind).toBe('needs-key');
    expect(none.message).toContain('asks for an API key');
    const wrong = await checkRemoteServer(guarded.url, 'sk-wrong-key-123');
    expect(wrong.kind).toBe('wrong-key');
    expect(wrong.message).not.toContain('sk-wrong-key-123');
    const right = await checkRemoteServer(guarded.url, KEY);
    expect(right).toMatchObject({ kind: 'reachable', models: ['test-ocr'] });
    expect(right.message).not.toContain(KEY);
  });

  it('says a connection was refused when nothing listens at the port', async () => {
    const port = await freePort();
    const check = await checkRemoteServer(`localhost:${port}`, null);
    expect(check.kind).toBe('refused');
    expect(check.server).toBe(`http://localhost:${port}`);
    expect(check.message).toContain('refused the connection');
  });

  it('gives up after the time limit on a server that never answers', async () => {
    const sockets: Socket[] = [];
    const silent = createNetServer((socket) => sockets.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    try {
      const check = await checkRemoteServer(`127.0.0.1:${(silent.address() as AddressInfo).port}`, null, 300);
      expect(check.kind).toBe('timeout');
      expect(check.message).toContain('did not answer within');
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => silent.close(resolve));
    }
  });

  it('tells a web server that is not OpenAI-compatible apart, and refuses what is no address', async () => {
    const check = await checkRemoteServer(otherUrl, null);
    expect(check.kind).toBe('not-openai');
    expect(check.message).toContain('not as an OpenAI-compatible server');
    expect(check.message).toContain('404');
    expect((await checkRemoteServer('ftp://gpu-box', null)).kind).toBe('bad-address');
    expect((await checkRemoteServer('http://user:secret@gpu-box', null)).message).not.toContain('secret');
  });

  it('reads model ids only from an OpenAI list', () => {
    expect(modelNames('{"object":"list","data":[{"id":"a"},{"id":2},{"id":"b"}]}')).toEqual(['a', 'b']);
    expect(modelNames('{"models":["a"]}')).toBeUndefined();
    expect(modelNames('<html>')).toBeUndefined();
  });
});

async function freePort(): Promise<number> {
  const server = createNetServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}
