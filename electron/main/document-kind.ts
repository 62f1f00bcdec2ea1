/** What a file is, from its first bytes, the way the engine host decides it too (extensions lie). */

import { open } from 'node:fs/promises';
import type { DocumentBytes } from '../../shared/app-api.js';
import type { DocumentKind } from '../../shared/workspace.js';

export interface SniffedKind {
  kind: DocumentKind;
  mime: DocumentBytes['mime'];
}

const SIGNATURES: readonly { bytes: readonly number[]; sniffed: SniffedKind }[] = [
  { bytes: [0x89, 0x50, 0x4e, 0x47], sniffed: { kind: 'image', mime: 'image/png' } },
  { bytes: [0xff, 0xd8, 0xff], sniffed: { kind: 'image', mime: 'image/jpeg' } },
  { bytes: [0x49, 0x49, 0x2a, 0x00], sniffed: { kind: 'image', mime: 'image/tiff' } },
  { bytes: [0x4d, 0x4d, 0x00, 0x2a], sniffed: { kind: 'image', mime: 'image/tiff' } },
];

/** Anything not a known image is treated as a PDF; opening it says what is wrong with it. */
export function sniffKind(head: Uint8Array): SniffedKind {
  const match = SIGNATURES.find(({ bytes }) => bytes.every((byte, index) => head[index] === byte));
  return match?.sniffed ?? { kind: 'pdf', mime: 'application/pdf' };
}

/** A file that cannot be read (missing, a folder) reads as a PDF too: opening it then says what is wrong. */
export async function sniffFile(file: string): Promise<SniffedKind> {
  const head = new Uint8Array(8);
  const handle = await open(file, 'r').catch(() => undefined);
  try {
    await handle?.read(head, 0, head.length, 0);
  } catch {
    // left empty: see above
  } finally {
    await handle?.close();
  }
  return sniffKind(head);
}
