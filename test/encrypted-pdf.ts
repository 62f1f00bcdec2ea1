/**
 * One-page PDFs encrypted with the standard security handler (revision 2, RC4 40-bit; revision 5,
 * AES-256), built by hand: Chromium cannot print encrypted PDFs and the project avoids a qpdf dependency for one test.
 * Follows ISO 32000-1, 7.6.3 (algorithms 2, 3 and 4).
 */

import { createCipheriv, createHash } from 'node:crypto';
import { passwordHash } from '../electron/core/passwordless-view.js';
import { assemblePdf, pdfStream } from './hand-built-pdf.js';

const PASSWORD_PAD = Buffer.from('28bf4e5e4e758a4164004e56fffa01082e2e00b6d0683e802f0ca9fe6453697a', 'hex');
const PERMISSIONS = -4;
const FILE_ID = Buffer.from('f0110f0110f0110f0110f0110f0110f0', 'hex');

export function encryptedPdf(userPassword: string, text: string): Buffer {
  const owner = rc4(md5(padded(`${userPassword}-owner`)).subarray(0, 5), padded(userPassword));
  const permissions = Buffer.alloc(4);
  permissions.writeInt32LE(PERMISSIONS);
  const key = md5(Buffer.concat([padded(userPassword), owner, permissions, FILE_ID])).subarray(0, 5);
  const user = rc4(key, PASSWORD_PAD);
  const content = Buffer.from(`BT /F1 24 Tf 72 700 Td (${text}) Tj ET`, 'latin1');
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    pdfStream(rc4(objectKey(key, 4), content)),
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
    `<< /Filter /Standard /V 1 /R 2 /O <${owner.toString('hex')}> /U <${user.toString('hex')}> /P ${PERMISSIONS} >>`,
  ];
  return assemblePdf(objects, `/Root 1 0 R /Encrypt 6 0 R /ID [<${FILE_ID.toString('hex')}> <${FILE_ID.toString('hex')}>]`);
}

/**
 * The same page encrypted with AES-256, revision 5 (Adobe's extension level 3) unless told 6, whose
 * writers hash the password's UTF-8 bytes: with a non-ASCII password it is the file of
 * mozilla/pdf.js#21579. Without `ownerPassword` no owner password opens it.
 */
export function aes256Pdf(userPassword: string, text: string, options: { revision?: 5 | 6; ownerPassword?: string } = {}): Buffer {
  const revision = options.revision ?? 5;
  const hash = (password: Buffer, salt: Buffer, userBytes: Buffer) => passwordHash(revision, password, salt, userBytes);
  const password = Buffer.from(userPassword, 'utf8').subarray(0, 127);
  const fileKey = sha256(Buffer.from('folio-test-file-key'));
  const [validationSalt, keySalt] = [Buffer.from('uvalsalt', 'latin1'), Buffer.from('ukeysalt', 'latin1')];
  const user = Buffer.concat([hash(password, validationSalt, Buffer.alloc(0)), validationSalt, keySalt]);
  const userKey = aes256(hash(password, keySalt, Buffer.alloc(0)), Buffer.alloc(16), fileKey, false);
  const [ownerValidationSalt, ownerKeySalt] = [Buffer.from('ovalsalt', 'latin1'), Buffer.from('okeysalt', 'latin1')];
  const ownerPassword = options.ownerPassword === undefined ? undefined : Buffer.from(options.ownerPassword, 'utf8');
  const owner = ownerPassword
    ? Buffer.concat([hash(ownerPassword, ownerValidationSalt, user), ownerValidationSalt, ownerKeySalt])
    : Buffer.concat([sha256(Buffer.from('no owner')), ownerValidationSalt, ownerKeySalt]);
  const ownerKey = ownerPassword ? aes256(hash(ownerPassword, ownerKeySalt, user), Buffer.alloc(16), fileKey, false) : Buffer.alloc(32);
  const permissionBlock = Buffer.alloc(16);
  permissionBlock.writeInt32LE(PERMISSIONS, 0);
  permissionBlock.writeInt32LE(-1, 4);
  permissionBlock.write('Tadbfoli', 8, 'latin1');
  const perms = aes256(fileKey, null, permissionBlock, false);
  const content = Buffer.from(`BT /F1 24 Tf 72 700 Td (${text}) Tj ET`, 'latin1');
  const iv = Buffer.from('folio-aes-iv-16b', 'latin1');
  const cryptFilter = '/CF << /StdCF << /AuthEvent /DocOpen /CFM /AESV3 /Length 32 >> >> /StmF /StdCF /StrF /StdCF';
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    pdfStream(Buffer.concat([iv, aes256(fileKey, iv, content, true)])),
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
    `<< /Filter /Standard /V 5 /R ${revision} /Length 256 ${cryptFilter} /O <${owner.toString('hex')}> /U <${user.toString('hex')}> ` +
      `/OE <${ownerKey.toString('hex')}> /UE <${userKey.toString('hex')}> /Perms <${perms.toString('hex')}> /P ${PERMISSIONS} >>`,
  ];
  return assemblePdf(objects, `/Root 1 0 R /Encrypt 6 0 R /ID [<${FILE_ID.toString('hex')}> <${FILE_ID.toString('hex')}>]`);
}

/**
 * A page in plain text whose only encrypted part is an attachment (crypt filters Identity for
 * streams and strings, "AuthEvent EFOpen"), with a user password nobody was told.
 */
export function attachmentOnlyEncryptedPdf(text: string): Buffer {
  const garbage = (label: string, length: number) => Buffer.concat(Array.from({ length: Math.ceil(length / 32) }, () => sha256(Buffer.from(label)))).subarray(0, length);
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R /Names << /EmbeddedFiles << /Names [(secret.txt) 7 0 R] >> >> >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    pdfStream(Buffer.from(`BT /F1 24 Tf 72 700 Td (${text}) Tj ET`, 'latin1')),
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
    `<< /Filter /Standard /V 5 /R 6 /Length 256 /P ${PERMISSIONS} /CF << /StdCF << /AuthEvent /EFOpen /CFM /AESV3 /Length 32 >> >> ` +
      `/StmF /Identity /StrF /Identity /EFF /StdCF /O <${garbage('o', 48).toString('hex')}> /U <${garbage('u', 48).toString('hex')}> ` +
      `/OE <${garbage('oe', 32).toString('hex')}> /UE <${garbage('ue', 32).toString('hex')}> /Perms <${garbage('p', 16).toString('hex')}> >>`,
    '<< /Type /Filespec /F (secret.txt) /EF << /F 8 0 R >> >>',
    pdfStream(garbage('attachment', 64), ' /Type /EmbeddedFile'),
  ];
  return assemblePdf(objects, `/Root 1 0 R /Encrypt 6 0 R /ID [<${FILE_ID.toString('hex')}> <${FILE_ID.toString('hex')}>]`);
}

function sha256(data: Buffer): Buffer {
  return createHash('sha256').update(data).digest();
}

/** CBC with `iv`, or ECB (the /Perms block) without one. */
function aes256(key: Buffer, iv: Buffer | null, data: Buffer, padding: boolean): Buffer {
  const cipher = createCipheriv(iv ? 'aes-256-cbc' : 'aes-256-ecb', key, iv).setAutoPadding(padding);
  return Buffer.concat([cipher.update(data), cipher.final()]);
}

function padded(password: string): Buffer {
  return Buffer.concat([Buffer.from(password, 'latin1'), PASSWORD_PAD]).subarray(0, 32);
}

function objectKey(key: Buffer, objectNumber: number): Buffer {
  const suffix = Buffer.from([objectNumber & 0xff, (objectNumber >> 8) & 0xff, (objectNumber >> 16) & 0xff, 0, 0]);
  return md5(Buffer.concat([key, suffix])).subarray(0, key.length + 5);
}

function md5(data: Buffer): Buffer {
  return createHash('md5').update(data).digest();
}

/** RC4 by hand: OpenSSL 3 keeps it in the legacy provider, which Node does not load. */
function rc4(key: Buffer, data: Buffer): Buffer {
  const state = Array.from({ length: 256 }, (_, index) => index);
  let j = 0;
  for (let i = 0; i < 256; i++) {
    j = (j + state[i]! + key[i % key.length]!) & 0xff;
    [state[i], state[j]] = [state[j]!, state[i]!];
  }
  const out = Buffer.alloc(data.length);
  let i = 0;
  j = 0;
  for (let n = 0; n < data.length; n++) {
    i = (i + 1) & 0xff;
    j = (j + state[i]!) & 0xff;
    [state[i], state[j]] = [state[j]!, state[i]!];
    out[n] = data[n]! ^ state[(state[i]! + state[j]!) & 0xff]!;
  }
  return out;
}
