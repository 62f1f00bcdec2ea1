/**
 * Encrypted PDFs that every reader opens without a password but pdf.js (an AES-256 file whose owner
 * password is empty; a file whose only encrypted part is an attachment) convert without one, while a
 * file that really needs its password still says so.
 */

import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { aes256Pdf, attachmentOnlyEncryptedPdf } from './encrypted-pdf.js';
import { repoRoot, runFolio } from './folio-process.js';

let folder: string;

beforeAll(async () => {
  if (!existsSync(path.join(repoRoot, 'dist/electron/cli/main.js'))) throw new Error('The CLI is not built; run "npm run build" before these tests.');
  folder = await mkdtemp(path.join(os.tmpdir(), 'folio-passwordless-'));
});

afterAll(async () => {
  if (folder) await rm(folder, { recursive: true, force: true });
});

describe('folio convert on encrypted files that need no password', () => {
  it('converts them without --password, and still asks for the password of a file that needs one', async () => {
    const files = {
      'empty-owner-r6.pdf': aes256Pdf('user secret', 'Words under an empty owner password', { revision: 6, ownerPassword: '' }),
      'empty-owner-r5.pdf': aes256Pdf('user secret', 'Revision five words', { revision: 5, ownerPassword: '' }),
      'attachment-only.pdf': attachmentOnlyEncryptedPdf('Plain words beside a locked attachment'),
      'owner-and-user.pdf': aes256Pdf('user secret', 'Words nobody reads', { revision: 6, ownerPassword: 'owner secret' }),
    };
    for (const [name, bytes] of Object.entries(files)) await writeFile(path.join(folder, name), bytes);
    const out = path.join(folder, 'out');
    const run = await runFolio(['convert', ...Object.keys(files).map((name) => path.join(folder, name)), '-o', out, '--engine', 'text']);
    expect(run.code).toBe(1);
    expect(await readFile(path.join(out, 'empty-owner-r6.md'), 'utf8')).toBe('Words under an empty owner password\n');
    expect(await readFile(path.join(out, 'empty-owner-r5.md'), 'utf8')).toBe('Revision five words\n');
    expect(await readFile(path.join(out, 'attachment-only.md'), 'utf8')).toBe('Plain words beside a locked attachment\n');
    expect(run.stderr).toContain(`${path.join(folder, 'owner-and-user.pdf')}: encrypted; give its password with --password.`);
    expect(existsSync(path.join(out, 'owner-and-user.md'))).toBe(false);
    expect(run.stderr).toMatch(/Converted 3 of 4 files/);
  });
});
