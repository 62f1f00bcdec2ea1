/** Pages printed with pdflatex and read by the text engine, for tests of TeX-made PDFs. */

import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { DEFAULT_CONVERT_OPTIONS } from '../shared/protocol.js';
import { openPdf } from '../electron/engine/pdf/open-pdf.js';
import { createTextEngine } from '../electron/engine/text/text-engine.js';

export const PDFLATEX = '/usr/bin/pdflatex';
export const HAS_PDFLATEX = existsSync(PDFLATEX);

const run = promisify(execFile);

/** Prints `source` as `folder/name.pdf` with pdflatex (other files it reads, such as encodings, go in `folder` first). */
export async function printLatex(folder: string, name: string, source: string): Promise<string> {
  const tex = path.join(folder, `${name}.tex`);
  await writeFile(tex, source);
  await run(PDFLATEX, ['-interaction=nonstopmode', '-halt-on-error', '-output-directory', folder, tex], { cwd: folder });
  return path.join(folder, `${name}.pdf`);
}

/** The Markdown the text engine makes of page 1 of `file`. */
export async function textEngineMarkdown(file: string): Promise<string> {
  const { pdf } = await openPdf(file);
  const engine = createTextEngine();
  try {
    const content = await engine.convertPage({
      pdf,
      page: 1,
      alsoConverts: () => false,
      options: { ...DEFAULT_CONVERT_OPTIONS, engine: 'text' },
      signal: new AbortController().signal,
      render: () => Promise.reject(new Error('the text engine reads no pixels')),
      emitDelta: () => undefined,
    });
    return content.markdown;
  } finally {
    engine.forgetDocument(pdf);
    await pdf.destroy();
  }
}
