/**
 * Running text a single page shows by its place and look alone, with no neighbour to compare:
 * margin line numbers, a running head beside its folio, a foot's revision and date. Pages printed
 * with pdflatex from the sources below, read by the text engine.
 */

import { describe, expect, it } from 'vitest';
import { needs, PROGRAMS } from '../../../test/environment.js';
import { latexPages, PDFLATEX_PROBLEM } from '../../../test/latex-page.js';

const BODY = String.raw`Harbour dredging resumed in the spring after the winter storms had moved
the sandbanks across the northern approach. The survey vessel measured the channel every week and
the pilots were told of each change before the tide. Two buoys were moved and a third was added
near the breakwater, where the silt had built up fastest during the storms of January.

The board agreed to publish the soundings on its notice board and to send them to the fishing
cooperative, whose members had asked for them since the autumn meeting of the harbour users.`;

/** One page, a running head with the page number set apart from the author line, and line numbers. */
const REVIEW_COPY = String.raw`\documentclass[11pt]{article}
\usepackage{fancyhdr,lineno}
\pagestyle{fancy}\fancyhf{}\renewcommand{\headrulewidth}{0pt}
\fancyhead[L]{\thepage}\fancyhead[R]{Morrow et al.}
\setcounter{page}{18}
\begin{document}
\linenumbers
${BODY}
\end{document}
`;

/** One page whose foot holds a revision and a date, and a numbered section at its top. */
const DATED_SHEET = String.raw`\documentclass[11pt]{article}
\usepackage{fancyhdr}
\pagestyle{fancy}\fancyhf{}\renewcommand{\headrulewidth}{0pt}
\fancyfoot[L]{Rev. 4.2}\fancyfoot[R]{March 3, 2021}
\begin{document}
\section{Soundings}
${BODY}
\end{document}
`;

describe('running text of a single page, by place and pattern', needs(PROGRAMS, PDFLATEX_PROBLEM), () => {
  const pages = latexPages('folio-running-margins-');

  it('leaves out margin line numbers and a running head beside its folio, and keeps all the body', async () => {
    const markdown = await pages.read('review-copy', REVIEW_COPY);
    expect(markdown.startsWith('Harbour dredging resumed'), markdown).toBe(true);
    expect(markdown).toContain('since the autumn meeting of the harbour users.');
    expect(markdown).not.toContain('Morrow et al.');
    // lineno numbers the lines 1, 2, 3...: no line of the output is a bare number
    expect(markdown.split('\n').filter((line) => /^\s*\d+\s*$/.test(line))).toEqual([]);
    expect(markdown).not.toMatch(/\b18\b/);
  }, 60_000);

  it("leaves out a foot's revision and date, and keeps the numbered section at the page's top", async () => {
    const markdown = await pages.read('dated-sheet', DATED_SHEET);
    expect(markdown).toMatch(/^#+ 1 Soundings/);
    expect(markdown).toContain('since the autumn meeting of the harbour users.');
    expect(markdown).not.toContain('Rev. 4.2');
    expect(markdown).not.toContain('2021');
  }, 60_000);
});
