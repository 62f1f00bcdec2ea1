/** Pages printed with pdflatex, for tests of TeX-made PDFs. */

import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll } from 'vitest';
import { textEngineMarkdown } from './text-engine-markdown.js';

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

/** Where the enclosing `describe` prints its pages, and the text engine's reading of each. */
export interface LatexPages {
  /** The folder (made before the describe's first test, removed after its last). */
  folder(): string;
  /** Prints `source` as `name.pdf` there and returns the text engine's Markdown of its first page. */
  read(name: string, source: string): Promise<string>;
}

/** A temporary folder for the pages of the `describe` this is called in. */
export function latexPages(prefix: string): LatexPages {
  let folder = '';
  beforeAll(async () => {
    folder = await mkdtemp(path.join(os.tmpdir(), prefix));
  });
  afterAll(async () => {
    await rm(folder, { recursive: true, force: true });
  });
  return {
    folder: () => folder,
    read: async (name, source) => textEngineMarkdown(await printLatex(folder, name, source)),
  };
}
