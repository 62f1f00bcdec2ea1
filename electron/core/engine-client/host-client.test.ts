import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Failure } from '../../../shared/failure.js';
import { DEFAULT_CONVERT_OPTIONS } from '../../../shared/protocol.js';
import { writeSampleDocuments, type SampleDocuments } from '../../../test/sample-documents.js';
import { forkHost } from './fork-host.js';
import { HostClient } from './host-client.js';

const root = path.resolve(import.meta.dirname, '../../..');
const builtHost = path.join(root, 'dist/electron/engine/host.js');
const faultyHost = path.join(root, 'test/fake-hosts/faulty-host.mjs');
const tinyPackage = path.join(root, 'tools/model/fixtures/tiny');
/** Short enough to keep the tests quick, long enough for a page of a printed test document on a busy machine. */
const PAGE_TIMEOUT_MS = 4000;

let folder: string;
let docs: SampleDocuments;

beforeAll(async () => {
  if (!existsSync(builtHost)) throw new Error(`${builtHost} is missing; run "npm run build" before these tests.`);
  folder = await mkdtemp(path.join(os.tmpdir(), 'folio-host-client-'));
  docs = await writeSampleDocuments(folder);
});

afterAll(async () => {
  if (folder) await rm(folder, { recursive: true, force: true });
});

type HostEnv = Record<string, string>;

/**
 * A client whose hosts run `modulePath` with `env` added (or `env(n)` for the n-th host, from 1),
 * counting how many it starts and how many ended.
 */
function supervised(
  modulePath: string,
  env: HostEnv | ((spawn: number) => HostEnv) = {},
  openTimeoutMs = PAGE_TIMEOUT_MS * 2,
  retryDelaysMs?: readonly number[],
  idleReleaseMs?: number,
) {
  const spawned = { count: 0, exits: [] as Promise<string>[] };
  const client = new HostClient({
    retryDelaysMs,
    idleReleaseMs,
    spawnHost: () => {
      spawned.count++;
      const added = typeof env === 'function' ? env(spawned.count) : env;
      const host = forkHost({ modulePath, env: { ...process.env, ...added } });
      spawned.exits.push(new Promise((resolve) => host.onExit(resolve)));
      return host;
    },
    pageTimeoutMs: PAGE_TIMEOUT_MS,
    openTimeoutMs,
  });
  return { client, spawned };
}

async function convertAll(client: HostClient, file: string, signal?: AbortSignal) {
  const doc = await client.open(file, undefined, signal);
  const done: number[] = [];
  const failed: { page: number; failure: Failure }[] = [];
  const markdown = new Map<number, string>();
  const outcome = await client.convert(
    doc,
    Array.from({ length: doc.info.pageCount }, (_, index) => index + 1),
    DEFAULT_CONVERT_OPTIONS,
    {
      pageDone: (result) => {
        done.push(result.page);
        markdown.set(result.page, result.markdown);
      },
      pageFailed: (page, failure) => failed.push({ page, failure }),
    },
    signal,
  );
  client.close(doc);
  return { doc, done, failed, markdown, outcome };
}

describe('engine host supervisor', () => {
  it('converts every page of a document in a separate host process', async () => {
    const { client, spawned } = supervised(builtHost);
    try {
      const { doc, done, failed, markdown, outcome } = await convertAll(client, docs.report);
      expect(doc.info.pageCount).toBe(4);
      expect(done).toEqual([1, 2, 3, 4]);
      expect(failed).toEqual([]);
      expect(outcome.cancelled).toBe(false);
      expect(markdown.get(3)).toContain('Chapter three');
      expect(spawned.count).toBe(1);
    } finally {
      client.dispose();
    }
  });

  it('serves a batch of documents with one host while nothing goes wrong', async () => {
    const { client, spawned } = supervised(builtHost);
    try {
      await expect(client.open(docs.notPdf)).rejects.toMatchObject({ failure: { code: 'not-pdf' } });
      await convertAll(client, docs.notes);
      await convertAll(client, docs.report);
      expect(spawned.count).toBe(1);
    } finally {
      client.dispose();
    }
  });

  it('ends an idle host to give its memory back, and starts a fresh one that reopens the document when asked again', async () => {
    const { client, spawned } = supervised(builtHost, {}, PAGE_TIMEOUT_MS * 2, undefined, 300);
    try {
      const doc = await client.open(docs.report);
      const first = await client.convert(doc, [1], DEFAULT_CONVERT_OPTIONS, {});
      expect(first.cancelled).toBe(false);
      // nothing asked of it: it ends by itself
      await spawned.exits[0];
      expect(spawned.count).toBe(1);
      const done: number[] = [];
      await client.convert(doc, [3], DEFAULT_CONVERT_OPTIONS, { pageDone: (result) => done.push(result.page) });
      expect(done).toEqual([3]);
      expect(spawned.count).toBe(2);
    } finally {
      client.dispose();
    }
  });

  it('starts a fresh host for the next document when the last one died between documents', async () => {
    const { client, spawned } = supervised(faultyHost, { FOLIO_FAKE_EXIT_WHEN_IDLE: '1' });
    try {
      expect((await convertAll(client, docs.notes)).done).toEqual([1]);
      expect(await spawned.exits[0]).toBe('exit code 0');
      expect((await convertAll(client, docs.report)).done).toEqual([1, 2, 3, 4]);
      expect(spawned.count).toBe(2);
    } finally {
      client.dispose();
    }
  });

  it('fails a page that hangs with timeout, kills the host and converts the next pages in a fresh one', async () => {
    const { client, spawned } = supervised(faultyHost, { FOLIO_FAKE_HANG_PAGE: '2' });
    try {
      const { done, failed, markdown } = await convertAll(client, docs.report);
      expect(done).toEqual([1, 3, 4]);
      expect(failed).toHaveLength(1);
      expect(failed[0]?.page).toBe(2);
      expect(failed[0]?.failure.code).toBe('timeout');
      expect(failed[0]?.failure.message).toMatch(/took longer than 4 s/);
      expect(markdown.get(4)).toContain('Chapter four');
      expect(spawned.count).toBe(2);
    } finally {
      client.dispose();
    }
  });

  it('blames only the page that hangs when two documents share the host: the other opens again in the fresh host and converts whole', async () => {
    const { client, spawned } = supervised(faultyHost, { FOLIO_FAKE_HANG_PAGE: '2' });
    try {
      let firstPageDone: () => void = () => undefined;
      const hanging = client.open(docs.report).then(async (doc) => {
        const done: number[] = [];
        const failed: { page: number; failure: Failure }[] = [];
        await client.convert(doc, [1, 2, 3, 4], DEFAULT_CONVERT_OPTIONS, {
          pageDone: (result) => {
            done.push(result.page);
            if (result.page === 1) firstPageDone();
          },
          pageFailed: (page, failure) => failed.push({ page, failure }),
        });
        client.close(doc);
        return { done, failed };
      });
      // the host spins in page 2 from here on, so the second document's "open" is not answered in it
      await new Promise<void>((resolve) => (firstPageDone = resolve));
      const other = await convertAll(client, docs.notes);
      const stalled = await hanging;
      expect(stalled.done).toEqual([1, 3, 4]);
      expect(stalled.failed.map(({ page, failure }) => [page, failure.code])).toEqual([[2, 'timeout']]);
      expect(other.done).toEqual([1]);
      expect(other.failed).toEqual([]);
      expect(spawned.count).toBe(2);
    } finally {
      client.dispose();
    }
  });

  it('fails a page whose host crashes with engine-crashed, saying how it ended, and goes on', async () => {
    const { client, spawned } = supervised(faultyHost, { FOLIO_FAKE_CRASH_PAGE: '3' });
    try {
      const { done, failed } = await convertAll(client, docs.report);
      expect(done).toEqual([1, 2, 4]);
      expect(failed.map(({ page, failure }) => [page, failure.code])).toEqual([[3, 'engine-crashed']]);
      expect(failed[0]?.failure.message).toBe('the engine crashed while reading it (exit code 70: fake crash on page 3).');
      expect(spawned.count).toBe(2);
    } finally {
      client.dispose();
    }
  });

  it('starts again when a host is killed at start-up and when one is killed reopening the document after a crash: only the crashed page is lost', async () => {
    const faults: Record<number, HostEnv> = {
      1: { FOLIO_FAKE_KILLED_AT_START: '1' },
      2: { FOLIO_FAKE_CRASH_PAGE: '2' },
      3: { FOLIO_FAKE_KILLED_AT_OPEN: '1' },
    };
    const { client, spawned } = supervised(faultyHost, (spawn) => faults[spawn] ?? {});
    try {
      const { done, failed, markdown } = await convertAll(client, docs.report);
      expect(done).toEqual([1, 3, 4]);
      expect(failed.map(({ page, failure }) => [page, failure.code])).toEqual([[2, 'engine-crashed']]);
      expect(markdown.get(3)).toContain('Chapter three');
      expect(await spawned.exits[0]).toBe('signal SIGKILL');
      expect(await spawned.exits[2]).toBe('signal SIGKILL');
      expect(spawned.count).toBe(4);
    } finally {
      client.dispose();
    }
  });

  it('keeps the converted pages when every restart dies, and fails each page left with the reason and the number of tries', async () => {
    const env = (spawn: number): HostEnv => (spawn === 1 ? { FOLIO_FAKE_CRASH_PAGE: '2' } : { FOLIO_FAKE_KILLED_AT_OPEN: '1' });
    const { client, spawned } = supervised(faultyHost, env, PAGE_TIMEOUT_MS * 2, [50, 100]);
    try {
      const { done, failed, outcome } = await convertAll(client, docs.report);
      expect(outcome.cancelled).toBe(false);
      expect(done).toEqual([1]);
      expect(failed.map(({ page }) => page)).toEqual([2, 3, 4]);
      expect(failed[0]?.failure.message).toMatch(/^the engine crashed while reading it \(exit code 70/);
      for (const { failure } of failed.slice(1)) {
        expect(failure).toEqual({
          code: 'engine-crashed',
          message: 'not tried: the engine crashed while opening the file, 3 times in a row (last: signal SIGKILL).',
        });
      }
      expect(spawned.count).toBe(4);
    } finally {
      client.dispose();
    }
  });

  it('fails a document whose every host dies before it is ready, saying how often and how', async () => {
    const { client, spawned } = supervised(faultyHost, { FOLIO_FAKE_KILLED_AT_START: '1' }, PAGE_TIMEOUT_MS * 2, [50, 100]);
    try {
      await expect(client.open(docs.notes)).rejects.toMatchObject({
        failure: { code: 'engine-crashed', message: 'The engine host exited before it was ready, 3 times in a row (last: signal SIGKILL).' },
      });
      expect(spawned.count).toBe(3);
    } finally {
      client.dispose();
    }
  });

  it('fails every page naming the phase when the engine never gets ready: by the preparation limit, not the page limit', async () => {
    const limitAskedFor: number[] = [];
    const client = new HostClient({
      spawnHost: () => forkHost({ modulePath: faultyHost, env: { ...process.env, FOLIO_FAKE_HANG_PREPARE: '1' } }),
      // a page limit no test waits out: only the preparation's own limit can end this
      pageTimeoutMs: 600_000,
      openTimeoutMs: PAGE_TIMEOUT_MS * 2,
      preparationLimitMs: (bytes) => {
        limitAskedFor.push(bytes);
        return 3000;
      },
    });
    try {
      const doc = await client.open(docs.report);
      const failed: { page: number; failure: Failure }[] = [];
      const preparing: string[] = [];
      await client.convert(
        doc,
        [1, 2, 3, 4],
        { ...DEFAULT_CONVERT_OPTIONS, engine: 'vlm', vlm: { modelDir: tinyPackage, specK: 0, maxNewTokens: 4, device: 'cpu' } },
        { enginePreparing: (page, detail) => preparing.push(`${page}: ${detail}`), pageFailed: (page, failure) => failed.push({ page, failure }) },
      );
      expect(preparing).toEqual(['1: opening the model']);
      // the package's files on disk, which the limit scales with
      expect(limitAskedFor[0]).toBeGreaterThan(1_000_000);
      const failure = { code: 'timeout', message: 'not tried: the engine was still opening the model after 3 s, so it was stopped.' };
      expect(failed).toEqual([1, 2, 3, 4].map((page) => ({ page, failure })));
    } finally {
      client.dispose();
    }
  });

  it('stops at a cancel while the model still opens, without waiting for it', async () => {
    const client = new HostClient({
      spawnHost: () => forkHost({ modulePath: faultyHost, env: { ...process.env, FOLIO_FAKE_HANG_PREPARE: '1' } }),
      // limits no test waits out: only ending the host at once finishes this
      pageTimeoutMs: 600_000,
      openTimeoutMs: PAGE_TIMEOUT_MS * 2,
      preparationLimitMs: () => 600_000,
    });
    const controller = new AbortController();
    try {
      const doc = await client.open(docs.report);
      const failed: number[] = [];
      const outcome = await client.convert(
        doc,
        [1, 2, 3, 4],
        { ...DEFAULT_CONVERT_OPTIONS, engine: 'vlm', vlm: { modelDir: tinyPackage, specK: 0, maxNewTokens: 4, device: 'cpu' } },
        { enginePreparing: () => controller.abort(), pageFailed: (page) => failed.push(page) },
        controller.signal,
      );
      expect(outcome.cancelled).toBe(true);
      expect(failed).toEqual([]);
    } finally {
      client.dispose();
    }
  });

  it('fails a document that cannot be opened in time with timeout, and the next document still converts', async () => {
    const hanging = supervised(faultyHost, { FOLIO_FAKE_HANG_OPEN: '1' }, 3000);
    try {
      await expect(hanging.client.open(docs.notes)).rejects.toMatchObject({ failure: { code: 'timeout' } });
    } finally {
      hanging.client.dispose();
    }
    const { client } = supervised(builtHost);
    try {
      expect((await convertAll(client, docs.notes)).done).toEqual([1]);
    } finally {
      client.dispose();
    }
  });

  it('stops at a cancel, even with a page hanging, without reporting the page that was cut short', async () => {
    const { client } = supervised(faultyHost, { FOLIO_FAKE_HANG_PAGE: '2' });
    const controller = new AbortController();
    try {
      const doc = await client.open(docs.report);
      const done: number[] = [];
      const failed: number[] = [];
      const outcome = await client.convert(
        doc,
        [1, 2, 3, 4],
        DEFAULT_CONVERT_OPTIONS,
        {
          pageDone: (result) => {
            done.push(result.page);
            controller.abort();
          },
          pageFailed: (page) => failed.push(page),
        },
        controller.signal,
      );
      expect(outcome.cancelled).toBe(true);
      expect(done).toEqual([1]);
      expect(failed).toEqual([]);
    } finally {
      client.dispose();
    }
  });
});
