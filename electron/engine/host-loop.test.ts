import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_CONVERT_OPTIONS, type HostEvent } from '../../shared/protocol.js';
import { encryptedPdf } from '../../test/encrypted-pdf.js';
import { EngineHost } from './host-loop.js';
import { EngineRouter } from './router.js';

const PASSWORD = 'hunter2';
let folder: string;
let locked: string;

beforeAll(async () => {
  folder = await mkdtemp(path.join(os.tmpdir(), 'folio-host-loop-'));
  locked = path.join(folder, 'locked.pdf');
  await writeFile(locked, encryptedPdf(PASSWORD, 'Words behind a password'));
});

afterAll(async () => {
  await rm(folder, { recursive: true, force: true });
});

/** A host on an in-memory transport; `until` resolves once an event matching it has been sent. */
function hostInMemory() {
  const events: HostEvent[] = [];
  const waiters: { match: (event: HostEvent) => boolean; resolve: () => void }[] = [];
  const host = new EngineHost(
    {
      send: (event) => {
        events.push(event);
        for (const waiter of waiters.filter((candidate) => candidate.match(event))) waiter.resolve();
      },
      onMessage: () => undefined,
      onDisconnect: () => undefined,
    },
    new EngineRouter(),
  );
  const until = (match: (event: HostEvent) => boolean) =>
    events.some(match) ? Promise.resolve() : new Promise<void>((resolve) => waiters.push({ match, resolve }));
  return { host, events, until };
}

describe('engine host loop', () => {
  it('rejects a malformed request, naming the field that is wrong', () => {
    const { host, events } = hostInMemory();
    host.handle({ type: 'convert', docId: 'd1', pages: [0], options: DEFAULT_CONVERT_OPTIONS });
    host.handle('open please');
    expect(events).toHaveLength(2);
    expect(events[0]).toMatchObject({ type: 'request-rejected', docId: 'd1', message: expect.stringMatching(/pages\.0/) });
    expect(events[1]).toMatchObject({ type: 'request-rejected', message: expect.stringMatching(/^Malformed request/) });
  });

  it('rejects converting a document that was never opened', () => {
    const { host, events } = hostInMemory();
    host.handle({ type: 'convert', docId: 'nope', pages: [1], options: DEFAULT_CONVERT_OPTIONS });
    expect(events).toEqual([{ type: 'request-rejected', docId: 'nope', message: 'Document nope is not open; send "open" first.' }]);
  });

  it('reports an encrypted document opened without its password as encrypted, the remedy as data for each face to word', async () => {
    const { host, events, until } = hostInMemory();
    host.handle({ type: 'open', docId: 'd1', path: locked });
    await until((event) => event.type === 'open-failed');
    expect(events).toEqual([{ type: 'open-failed', docId: 'd1', failure: { code: 'encrypted', message: `${locked}: encrypted`, remedy: 'password' } }]);
  });

  it('streams a page as started, deltas that add up to its Markdown, done, then convert-done', async () => {
    const { host, events, until } = hostInMemory();
    host.handle({ type: 'open', docId: 'd1', path: locked, password: PASSWORD });
    host.handle({ type: 'convert', docId: 'd1', pages: [1], options: DEFAULT_CONVERT_OPTIONS });
    await until((event) => event.type === 'convert-done');
    host.handle({ type: 'close', docId: 'd1' });
    const types = events.map((event) => event.type).filter((type) => type !== 'page-delta');
    expect(types).toEqual(['opened', 'page-started', 'page-done', 'convert-done']);
    const markdown = events.flatMap((event) => (event.type === 'page-done' ? [event.result.markdown] : []));
    const deltas = events.flatMap((event) => (event.type === 'page-delta' ? [event.text] : []));
    expect(markdown).toEqual([expect.stringContaining('Words behind a password')]);
    expect(deltas.join('')).toBe(markdown[0]);
    expect(events.at(-1)).toEqual({ type: 'convert-done', docId: 'd1', cancelled: false });
  });
});
