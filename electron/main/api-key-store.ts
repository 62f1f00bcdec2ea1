/**
 * A remote engine server's API key: kept encrypted by the operating system's keychain (Electron's
 * `safeStorage` in the app), never in the settings file; main hands it to the engine host's
 * environment (FOLIO_API_KEY). Electron-free: main passes the cipher. The browser mode keeps the key
 * in memory only (MemoryApiKeyStore): it has no keychain, and a key in a file would be in the clear.
 */

import { readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { writeFileAtomic } from '../core/output/atomic-write.js';

/** What `safeStorage` offers. */
export interface KeyCipher {
  isEncryptionAvailable(): boolean;
  encryptString(plainText: string): Uint8Array;
  decryptString(encrypted: Buffer): string;
}

/** Where the app service keeps the key. */
export interface ApiKeyVault {
  read(): Promise<string | null>;
  /** `null` forgets the key. */
  write(key: string | null): Promise<void>;
}

const KEY_FILE = 'remote-api-key.bin';

export class MemoryApiKeyStore implements ApiKeyVault {
  private key: string | null = null;

  async read(): Promise<string | null> {
    return this.key;
  }

  async write(key: string | null): Promise<void> {
    this.key = key;
  }
}

export class ApiKeyStore implements ApiKeyVault {
  constructor(
    private readonly dir: string,
    private readonly cipher: KeyCipher,
  ) {}

  async read(): Promise<string | null> {
    const encrypted = await readFile(path.join(this.dir, KEY_FILE)).catch(() => undefined);
    if (!encrypted || !this.cipher.isEncryptionAvailable()) return null;
    return this.cipher.decryptString(encrypted);
  }

  /** `null` forgets the key. */
  async write(key: string | null): Promise<void> {
    const file = path.join(this.dir, KEY_FILE);
    if (key === null) return rm(file, { force: true });
    if (!this.cipher.isEncryptionAvailable()) {
      throw new Error('This system offers no keychain to encrypt the API key with, so it was not saved; on Linux, run a keyring such as GNOME Keyring or KWallet and try again.');
    }
    await writeFileAtomic(file, this.cipher.encryptString(key));
  }
}
