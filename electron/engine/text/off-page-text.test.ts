/**
 * Text a file places outside the page's visible area: nobody sees it, pdftotext leaves it out, and a
 * page showing nothing else is blank. Pages printed with pdflatex, read by the text engine.
 */

import { describe, expect, it } from 'vitest';
import { needs, PROGRAMS } from '../../../test/environment.js';
import { latexPages, PDFLATEX_PROBLEM } from '../../../test/latex-page.js';

/** `visible`, and a line put far left of the sheet's edge, where no viewer shows it. */
function page(visible: string): string {
  return String.raw`\documentclass{article}\pagestyle{empty}
\begin{document}
\noindent\begin{picture}(0,0)\put(-900,0){Proof copy 7 of 12, printer's slug}\end{picture}${visible}
\end{document}
`;
}

describe('text outside the visible page', needs(PROGRAMS, PDFLATEX_PROBLEM), () => {
  const pages = latexPages('folio-off-page-');

  it('is left out, and the page keeps what it shows', async () => {
    const markdown = await pages.read('shown', page('The tide tables are printed overleaf.'));
    expect(markdown).toBe('The tide tables are printed overleaf.');
  }, 60_000);

  it('leaves a page that shows nothing else blank', async () => {
    expect(await pages.read('blank', page('\\mbox{}'))).toBe('');
  }, 60_000);
});
