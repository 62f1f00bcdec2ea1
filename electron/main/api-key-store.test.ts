import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiKeyStore, type KeyCipher } from './api-key-store.js';

/** Stands in for safeStorage: reversible, and visibly not plain text. */
function fakeCipher(available: boolean): KeyCipher {
  return {
    isEncryptionAvailable: () => available,
    encryptString: (text) => Buffer.from(text, 'utf8').reverse(),
    decryptString: (encrypted) => Buffer.from(encrypted).reverse().toString('utf8'),
  };
}

const folders: string[] = [];
afterEach(async () => {
  await Promise.all(folders.splice(0).map((folder) => rm(folder, { recursive: true, force: true })));
});

async function tempFolder(): Promise<string> {
  const folder = await mkdtemp(path.join(os.tmpdir(), 'folio-key-'));
  folders.push(folder);
  return folder;
}

describe('ApiKeyStore', () => {
  it('keeps the key encrypted on disk and reads it back, and forgets it', async () => {
    const dir = await tempFolder();
    const store = new ApiKeyStore(dir, fakeCipher(true));
    await store.write('sk-secret');
    expect(await readFile(path.join(dir, 'remote-api-key.bin'), 'utf8')).not.toContain('sk-secret');
    expect(await store.read()).toBe('sk-secret');
    await store.write(null);
    expect(await store.read()).toBeNull();
  });

  it('refuses to store the key in the clear when the system has no keychain', async () => {
    const dir = await tempFolder();
    await expect(new ApiKeyStore(dir, fakeCipher(false)).write('sk-secret')).rejects.toThrow(/no keychain/);
    expect(await readdir(dir)).toEqual([]);
  });
});
