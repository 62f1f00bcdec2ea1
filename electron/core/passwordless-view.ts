/**
 * Encrypted PDFs that open without a password everywhere but in pdf.js, which asks for one:
 *
 * - Only the attachments are encrypted (crypt filters `/StmF /Identity /StrF /Identity`, `/EFF`
 *   encrypted, "AuthEvent EFOpen"): the pages are plain text, so the file is read as if it had no
 *   encryption dictionary. The attachments stay unread; Folio does not convert them.
 * - AES-256 (revision 5 or 6) whose owner password is empty: pdf.js tries an empty password as the
 *   user password only. Poppler and qpdf try it as the owner password too, and it opens. Here the
 *   file key is taken out with the empty owner password and the user entries are written again so
 *   that the empty user password opens the same key.
 *
 * Both rewrite the bytes in place, keeping every offset, so the cross-reference table stays right.
 * Anything unusual (a direct encryption dictionary, strings not written in hex) is left alone: the
 * caller then says the file needs its password.
 */

import { createCipheriv, createDecipheriv, createHash } from 'node:crypto';

/** The bytes pdf.js can open without a password, and what was done; undefined when no password-free reading applies. */
export function passwordlessView(bytes: Uint8Array): { bytes: Uint8Array; reading: 'attachments-only' | 'empty-owner-password' } | undefined {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  // most files have no encryption at all: a native search spares them a copy as text
  if (buffer.indexOf('/Encrypt') === -1) return undefined;
  const text = buffer.toString('latin1');
  const references = [...text.matchAll(/\/Encrypt\s+(\d+)\s+(\d+)\s+R/g)];
  const latest = references.at(-1);
  if (!latest) return undefined;
  const dictionary = objectText(text, latest[1]!, latest[2]!);
  if (!dictionary) return undefined;
  const version = numberEntry(dictionary.text, 'V');
  if (version !== undefined && version >= 4 && cryptFilter(dictionary.text, 'StmF') === 'Identity' && cryptFilter(dictionary.text, 'StrF') === 'Identity') {
    const view = new Uint8Array(bytes);
    for (const reference of references) view.fill(0x20, reference.index, reference.index + reference[0].length);
    return { bytes: view, reading: 'attachments-only' };
  }
  const revision = numberEntry(dictionary.text, 'R');
  if (version === 5 && (revision === 5 || revision === 6)) {
    const view = withEmptyUserPassword(bytes, dictionary, revision);
    return view && { bytes: view, reading: 'empty-owner-password' };
  }
  return undefined;
}

interface ObjectText {
  text: string;
  /** Where `text` starts in the file. */
  offset: number;
}

/** The latest definition of object `number generation`, up to its `endobj`. */
function objectText(text: string, number: string, generation: string): ObjectText | undefined {
  const starts = [...text.matchAll(new RegExp(`(?<![0-9])${number}\\s+${generation}\\s+obj\\b`, 'g'))];
  const start = starts.at(-1)?.index;
  if (start === undefined) return undefined;
  const end = text.indexOf('endobj', start);
  return { text: text.slice(start, end === -1 ? undefined : end), offset: start };
}

function numberEntry(dictionary: string, key: string): number | undefined {
  const match = new RegExp(`/${key}\\s+(\\d+)`).exec(dictionary);
  return match ? Number(match[1]) : undefined;
}

/** A missing crypt filter entry means Identity (ISO 32000-1, table 20). */
function cryptFilter(dictionary: string, key: 'StmF' | 'StrF'): string {
  return new RegExp(`/${key}\\s*/([A-Za-z0-9]+)`).exec(dictionary)?.[1] ?? 'Identity';
}

interface HexEntry {
  value: Buffer;
  /** Offset of the hex digits in the file, and how many there are. */
  at: number;
  digits: number;
}

/** A hex string entry written without whitespace, so it can be rewritten digit for digit. */
function hexEntry(dictionary: ObjectText, key: string): HexEntry | undefined {
  const match = new RegExp(`/${key}\\s*<([0-9A-Fa-f]*)>`).exec(dictionary.text);
  if (!match || match[1]!.length % 2 !== 0) return undefined;
  return { value: Buffer.from(match[1]!, 'hex'), at: dictionary.offset + match.index + match[0].indexOf('<') + 1, digits: match[1]!.length };
}

function withEmptyUserPassword(bytes: Uint8Array, dictionary: ObjectText, revision: 5 | 6): Uint8Array | undefined {
  const [owner, user, ownerKey, userKey] = ['O', 'U', 'OE', 'UE'].map((key) => hexEntry(dictionary, key));
  if (!owner || !user || !ownerKey || !userKey) return undefined;
  if (owner.value.length < 48 || user.value.length < 48 || ownerKey.value.length !== 32 || userKey.value.length !== 32) return undefined;
  const empty = Buffer.alloc(0);
  const user48 = user.value.subarray(0, 48);
  const hash = (salt: Buffer, extra: Buffer) => passwordHash(revision, empty, salt, extra);
  if (!hash(owner.value.subarray(32, 40), user48).equals(owner.value.subarray(0, 32))) return undefined;
  const fileKey = aes256NoIv(hash(owner.value.subarray(40, 48), user48), ownerKey.value, 'decrypt');
  const [validationSalt, keySalt] = [user.value.subarray(32, 40), user.value.subarray(40, 48)];
  const newUser = Buffer.concat([hash(validationSalt, empty), validationSalt, keySalt, user.value.subarray(48)]);
  const newUserKey = aes256NoIv(hash(keySalt, empty), fileKey, 'encrypt');
  const view = new Uint8Array(bytes);
  view.set(Buffer.from(newUser.toString('hex'), 'latin1'), user.at);
  view.set(Buffer.from(newUserKey.toString('hex'), 'latin1'), userKey.at);
  return view;
}

/** ISO 32000-2 algorithm 2.B (revision 6), or plain SHA-256 (revision 5, Adobe extension level 3). */
export function passwordHash(revision: 5 | 6, password: Buffer, salt: Buffer, userBytes: Buffer): Buffer {
  let key = createHash('sha256').update(Buffer.concat([password, salt, userBytes])).digest();
  if (revision === 5) return key;
  for (let round = 0; ; round++) {
    const block = Buffer.concat([password, key, userBytes]);
    const repeated = Buffer.concat(Array.from({ length: 64 }, () => block));
    const cipher = createCipheriv('aes-128-cbc', key.subarray(0, 16), key.subarray(16, 32)).setAutoPadding(false);
    const encrypted = Buffer.concat([cipher.update(repeated), cipher.final()]);
    let remainder = 0;
    for (let i = 0; i < 16; i++) remainder += encrypted[i]!;
    key = createHash(['sha256', 'sha384', 'sha512'][remainder % 3]!).update(encrypted).digest();
    if (round >= 63 && encrypted.at(-1)! <= round - 31) return key.subarray(0, 32);
  }
}

function aes256NoIv(key: Buffer, data: Buffer, direction: 'encrypt' | 'decrypt'): Buffer {
  const make = direction === 'encrypt' ? createCipheriv : createDecipheriv;
  const cipher = make('aes-256-cbc', key, Buffer.alloc(16)).setAutoPadding(false);
  return Buffer.concat([cipher.update(data), cipher.final()]);
}
