/**
 * Text a file places outside the page's visible area: nobody sees it, pdftotext leaves it out, and a
 * page showing nothing else is blank. Pages printed with pdflatex, read by the text engine.
 */

import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { needs, PROGRAMS } from '../../../test/environment.js';
import { PDFLATEX_PROBLEM, printLatex } from '../../../test/latex-page.js';
import { textEngineMarkdown } from '../../../test/text-engine-markdown.js';

let folder: string;

/** `visible`, and a line put far left of the sheet's edge, where no viewer shows it. */
function page(visible: string): string {
  return String.raw`\documentclass{article}\pagestyle{empty}
\begin{document}
\noindent\begin{picture}(0,0)\put(-900,0){Proof copy 7 of 12, printer's slug}\end{picture}${visible}
\end{document}
`;
}

describe('text outside the visible page', needs(PROGRAMS, PDFLATEX_PROBLEM), () => {
  beforeAll(async () => {
    folder = await mkdtemp(path.join(os.tmpdir(), 'folio-off-page-'));
  });
  afterAll(async () => {
    await rm(folder, { recursive: true, force: true });
  });

  it('is left out, and the page keeps what it shows', async () => {
    const markdown = await textEngineMarkdown(await printLatex(folder, 'shown', page('The tide tables are printed overleaf.')));
    expect(markdown).toBe('The tide tables are printed overleaf.');
  }, 60_000);

  it('leaves a page that shows nothing else blank', async () => {
    expect(await textEngineMarkdown(await printLatex(folder, 'blank', page('\\mbox{}')))).toBe('');
  }, 60_000);
});
