import { mkdtemp, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { forkHost, withoutTlsSetup } from './fork-host.js';

const builtHost = path.resolve(import.meta.dirname, '../../../dist/electron/engine/host.js');
let folder: string;

beforeAll(async () => {
  folder = await mkdtemp(path.join(os.tmpdir(), 'folio-fork-host-'));
});

afterAll(async () => {
  await rm(folder, { recursive: true, force: true });
});

describe('a forked engine host', () => {
  it('writes a CPU profile into FOLIO_HOST_CPU_PROF when it is stopped', async () => {
    const host = forkHost({ modulePath: builtHost, env: { ...process.env, FOLIO_HOST_CPU_PROF: folder } });
    await new Promise<void>((resolve) => host.onEvent((event) => event.type === 'ready' && resolve()));
    const exited = new Promise<string>((resolve) => host.onExit(resolve));
    host.kill();
    expect(await exited).toBe('exit code 0');
    // one per thread: the host's and its parent watchdog's
    expect((await readdir(folder)).filter((name) => name.endsWith('.cpuprofile')).length).toBeGreaterThanOrEqual(1);
  });

  it('is started without the extra certificates Node would parse at start when it opens no TLS connection', () => {
    const env = { PATH: '/usr/bin', NODE_EXTRA_CA_CERTS: '/etc/ssl/certs/ca-certificates.crt', FOLIO_API_KEY: 'k' };
    expect(withoutTlsSetup(env)).toEqual({ PATH: '/usr/bin', FOLIO_API_KEY: 'k' });
    // the caller's environment is left as it was
    expect(env.NODE_EXTRA_CA_CERTS).toBe('/etc/ssl/certs/ca-certificates.crt');
  });
});
