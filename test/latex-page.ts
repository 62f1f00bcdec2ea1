/** Pages printed with pdflatex, for tests of TeX-made PDFs. */

import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';

export const PDFLATEX = '/usr/bin/pdflatex';
/** Why pdflatex cannot print here, or null (for `needs(PROGRAMS, ...)`, test/environment.ts). */
export const PDFLATEX_PROBLEM = existsSync(PDFLATEX) ? null : `${PDFLATEX} is not installed (Debian texlive-latex-base)`;

const run = promisify(execFile);

/** Prints `source` as `folder/name.pdf` with pdflatex (other files it reads, such as encodings, go in `folder` first). */
export async function printLatex(folder: string, name: string, source: string): Promise<string> {
  const tex = path.join(folder, `${name}.tex`);
  await writeFile(tex, source);
  await run(PDFLATEX, ['-interaction=nonstopmode', '-halt-on-error', '-output-directory', folder, tex], { cwd: folder });
  return path.join(folder, `${name}.pdf`);
}
