/**
 * The PDF a benchmark's test names, confined to the benchmark's `pdfs/` folder. A benchmark folder
 * comes from elsewhere: a test naming `../../secret.pdf` (or a link that leads out) must not make
 * Folio convert that file, write its text or send its pages to a server, and the answer must not
 * tell whether a file outside exists. So names are resolved without touching anything outside:
 * each component is looked at (lstat) only while it is inside the folder, and a link is followed by
 * reading where it points, then refused if that is outside, before anything there is looked at.
 */

import { lstat, readlink } from 'node:fs/promises';
import path from 'node:path';

export type BenchPdf = { file: string } | { refused: string };

/** Links followed before a name is given up on (as the kernel's ELOOP). */
const MAX_LINKS = 40;

export async function benchPdfPath(pdfDir: string, name: string): Promise<BenchPdf> {
  const root = path.resolve(pdfDir);
  const outside = { refused: `"${name}" is not a PDF inside ${pdfDir}; a test may name only the benchmark's own PDFs` };
  if (!/\.pdf$/i.test(name) || name.includes('\0') || path.isAbsolute(name)) return outside;
  let pending = path.normalize(name).split(path.sep).filter((part) => part !== '' && part !== '.');
  let at = root;
  for (let links = 0; pending.length > 0; ) {
    const part = pending.shift()!;
    const next = part === '..' ? path.dirname(at) : path.join(at, part);
    if (!isInside(root, next)) return outside;
    let stats;
    try {
      stats = await lstat(next);
    } catch {
      return { refused: `no such file ${path.join(pdfDir, name)}` };
    }
    if (stats.isSymbolicLink()) {
      if (++links > MAX_LINKS) return outside;
      const target = path.resolve(path.dirname(next), await readlink(next));
      if (!isInside(root, target)) return outside;
      // walk the target's own components from the folder, then what was left of the name
      pending = [...path.relative(root, target).split(path.sep).filter((piece) => piece !== ''), ...pending];
      at = root;
      continue;
    }
    if (pending.length > 0 && !stats.isDirectory()) return { refused: `no such file ${path.join(pdfDir, name)}` };
    if (pending.length === 0 && !stats.isFile()) return outside;
    at = next;
  }
  return at === root ? outside : { file: at };
}

function isInside(root: string, file: string): boolean {
  return file === root || file.startsWith(root + path.sep);
}
