/**
 * The tune/holdout split of the real-document benchmark: by document family, never by page, so
 * that documents sharing text (REVTeX's three samples, acmart's four layouts of one paper) fall on
 * the same side. A family is held out when the first 8 hex digits of its key's SHA-256, read as an
 * integer, are a multiple of 3 (about a third of the families).
 */

import { createHash } from 'node:crypto';

export type BenchSide = 'tune' | 'holdout';

/**
 * The family key of a document, from its path relative to real-docs (`/` separators):
 * `texlive:<4th path component>` for TeX Live (`texlive/<package>/latex/revtex/...` is
 * `texlive:revtex`, `texlive/<package>/amstex/base/...` is `texlive:base`); the path itself for
 * ICDAR 2013; undefined for Debian Reference, which is always tuned on.
 */
export function familyKey(relativePath: string): string | undefined {
  const parts = relativePath.split('/');
  if (parts[0] === 'texlive') {
    if (parts.length < 5) throw new Error(`${relativePath}: a TeX Live document lies at texlive/<package>/<tree>/<family>/...`);
    return `texlive:${parts[3]}`;
  }
  if (parts[0] === 'icdar2013') return relativePath;
  if (parts[0] === 'debian-reference') return undefined;
  throw new Error(`${relativePath}: not a real-docs source (icdar2013/, texlive/ or debian-reference/)`);
}

export function isHeldOut(key: string): boolean {
  return Number.parseInt(createHash('sha256').update(key).digest('hex').slice(0, 8), 16) % 3 === 0;
}

export function sideOf(relativePath: string): BenchSide {
  const key = familyKey(relativePath);
  return key !== undefined && isHeldOut(key) ? 'holdout' : 'tune';
}
