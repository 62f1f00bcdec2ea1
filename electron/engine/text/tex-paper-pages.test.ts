/**
 * Pages set as real papers are (pdflatex, OT1 fonts): accents drawn as glyphs of their own over or
 * under their letters, and a page whose references, in a smaller size, outweigh its body text, so
 * that the body is larger than the page's most common size and only its shape says it is no heading.
 */

import { describe, expect, it } from 'vitest';
import { needs, PROGRAMS } from '../../../test/environment.js';
import { latexPages, PDFLATEX_PROBLEM } from '../../../test/latex-page.js';

const ACCENTS = String.raw`\documentclass{article}\pagestyle{empty}
\begin{document}
\section{G\"odel and Erd\H{o}s}
Paul Erd\H{o}s met Anton\'{\i}n Dvo\v{r}\'ak and Kurt G\"odel in the caf\'e. Mar\'{\i}a N\'u\~nez and Fran\c{c}oise Dupont measured one \AA{}ngstr\"om, while Jos\'e
\`{e}l\`{e}ve h\^{o}tel na\"{\i}ve Ch\^ateau \r{a}r \v{c}\'{\i}slo \v{S}koda \'Ulfar.

\textbf{\'Eric Gr\'egoire} wrote to \textit{Zo\"e Bront\"e} from S\~ao Paulo.
\end{document}
`;

const LINKED_NAMES = String.raw`\documentclass{article}\pagestyle{empty}
\usepackage{hyperref}
\begin{document}
The notes of \href{https://example.org/dvorak}{Anton\'{\i}n Dvo\v{r}\'ak} and \href{https://example.org/godel}{Kurt G\"odel} are online.
\end{document}
`;

const REFERENCES = Array.from(
  { length: 23 },
  (_, i) => String.raw`\bibitem{r${i}} A. Author and B. Writer, A long title of a paper about procedures that stop after a number of steps, Journal of Examples ${i + 1} (20${String(i + 1).padStart(2, '0')}), ${10 * i}--${10 * i + 9}.`,
).join('\n');

const PROSE_AND_HEADINGS = String.raw`\documentclass{article}\pagestyle{empty}
\usepackage{amsthm}\usepackage[a4paper,margin=15mm]{geometry}
\newtheorem{theorem}{Theorem}
\begin{document}
\section{Main result}
We prove a bound on the number of steps the procedure takes.
\begin{theorem}
Every run of the procedure stops after finitely many steps.
\end{theorem}
\begin{proof}
Each step lowers the potential by one and the potential is never negative.
\end{proof}
This bound is sharp.

\noindent\textbf{Proof.} The second claim follows from the first by induction on the length of the run, since each step keeps the invariant that the potential bounds the number of steps left.

\subsection{Open questions}
Whether the bound holds for procedures that run in parallel is open.

\section*{Acknowledgements}
The authors thank the organisers of the workshop where this work began, and the foundation that paid for their travel and for the time they spent on it.

\begin{footnotesize}
\begin{thebibliography}{99}
${REFERENCES}
\end{thebibliography}
\end{footnotesize}
\end{document}
`;

// big delimiters in running text come from the extension font's lowest slots, which are control codes
const BIG_DELIMITERS_IN_PROSE = String.raw`\documentclass{article}\pagestyle{empty}
\begin{document}
The energy $\bigl\| \nabla u \bigr\|^2$ bounds the mean $\Bigl( \sum_i x_i \Bigr)$ of the values, and the set $\bigl\{ x : |x| < 1 \bigr\}$ is open, so the floor $\bigl\lfloor n/2 \bigr\rfloor$ is taken over it.
\end{document}
`;

describe('pages set as papers are by pdflatex', needs(PROGRAMS, PDFLATEX_PROBLEM), () => {
  const pages = latexPages('folio-tex-papers-');

  it('composes accents drawn as glyphs of their own with their letters, raised over capitals and under a c', async () => {
    const markdown = await pages.read('accents', ACCENTS);
    expect(markdown).toBe(
      [
        '# 1 Gödel and Erdős',
        'Paul Erdős met Antonín Dvořák and Kurt Gödel in the café. María Núñez and Françoise Dupont measured one Ångström, while José èlève hôtel naïve Château år číslo Škoda Úlfar.',
        '**Éric Grégoire** wrote to *Zoë Brontë* from São Paulo.',
      ].join('\n\n'),
    );
  }, 30_000);

  it('keeps a link whose text has accents drawn as glyphs of their own', async () => {
    const markdown = await pages.read('linked-names', LINKED_NAMES);
    expect(markdown).toBe('The notes of [Antonín Dvořák](https://example.org/dvorak) and [Kurt Gödel](https://example.org/godel) are online.');
  }, 30_000);

  it('keeps paragraphs and run-in heads out of the headings where smaller references outweigh the body text', async () => {
    const markdown = await pages.read('prose', PROSE_AND_HEADINGS);
    const blocks = markdown.split('\n\n');
    expect(blocks.slice(0, 10)).toEqual([
      '# 1 Main result',
      'We prove a bound on the number of steps the procedure takes.',
      '**Theorem 1.** *Every run of the procedure stops after finitely many steps.*',
      '*Proof.* Each step lowers the potential by one and the potential is never negative.',
      'This bound is sharp.',
      '**Proof.** The second claim follows from the first by induction on the length of the run, since each step keeps the invariant that the potential bounds the number of steps left.',
      '## 1.1 Open questions',
      'Whether the bound holds for procedures that run in parallel is open.',
      '# Acknowledgements',
      'The authors thank the organisers of the workshop where this work began, and the foundation that paid for their travel and for the time they spent on it.',
    ]);
    expect(blocks[10]).toBe('# References');
    expect(blocks.filter((block) => block.startsWith('#'))).toHaveLength(4);
  }, 30_000);

  it('writes big delimiters in running text as the delimiters they draw in its inline math, never as control pictures', async () => {
    const markdown = await pages.read('big-delimiters', BIG_DELIMITERS_IN_PROSE);
    expect(markdown).not.toMatch(/[\u2400-\u241F]/);
    // the stacked pieces of a tall bar are one bar, and the text-size sum takes its index as a subscript
    for (const formula of ['$\\| \\nabla u \\|^{2}$', '$( \\sum_{i} x_{i} )$', '$\\{ x : | x | < 1 \\}$', '$\\lfloor n / 2 \\rfloor$']) expect(markdown).toContain(formula);
    expect(markdown).toContain('is open, so the floor');
  }, 30_000);
});
