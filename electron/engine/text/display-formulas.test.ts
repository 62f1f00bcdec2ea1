import { beforeAll, describe, expect, it } from 'vitest';
import { findFormula, renderFormula } from '../../../shared/olmocr-bench/math.js';
import { needs, PROGRAMS } from '../../../test/environment.js';
import { latexPages, PDFLATEX_PROBLEM } from '../../../test/latex-page.js';

let markdown: string;

const DOCUMENT = String.raw`\documentclass[11pt]{article}
\usepackage{amsmath}
\pagestyle{empty}
\begin{document}
The theorem of Pythagoras relates the sides of a right triangle with legs $x$ and $y$:
\begin{equation*}
x^2 + y^2 = z^2
\end{equation*}
A ratio of two lengths is written as a fraction,
\begin{equation*}
r = \frac{a}{b}
\end{equation*}
and the first $n$ terms of a sequence add up to
\begin{equation*}
S_n = \sum_{i=1}^{n} a_i
\end{equation*}
The angular frequency of an oscillator is
\begin{equation*}
\omega = 2\pi f + \alpha \beta \mu
\end{equation*}
and its amplitude decays as
\begin{equation*}
A = \sqrt{1 - \gamma^2}.
\end{equation*}
and independent events have
\begin{equation*}
P(A \cap B) = P(A)\,P(B)
\end{equation*}
A numbered equation keeps its number as a tag:
\begin{equation}
\mathcal{L} = \int_0^1 x^2 \, dx
\end{equation}
and a norm is a root over a sum:
\begin{equation*}
\|x\| = \sqrt{\sum_{j=1}^{d} x_j^2}
\end{equation*}
A rotation is written as a matrix:
\[ R = \begin{pmatrix} \cos\phi & -\sin\phi \\ \sin\phi & \cos\phi \end{pmatrix} \]
The scores with their spread are in a table:

\begin{tabular}{lrr}
Model & Accuracy & Loss \\
Base & 85.3 $\pm$ 0.2 & 0.41 $\pm$ 0.01 \\
Large & 91.0 $\pm$ 0.1 & 0.33 $\pm$ 0.02 \\
Huge & 93.2 $\pm$ 0.3 & 0.29 $\pm$ 0.01
\end{tabular}

Body text after the formulas stays as it was written, even where it squares $z^2$ inline.
\end{document}
`;

/** Whether the output has the formula as olmOCR-Bench's math check decides it (KaTeX layout). */
function rendersAs(reference: string): boolean {
  return findFormula(reference, renderFormula(reference)!, markdown).passed;
}

describe('display formulas of a LaTeX-made page', needs(PROGRAMS, PDFLATEX_PROBLEM), () => {
  const pages = latexPages('folio-formulas-');
  beforeAll(async () => {
    markdown = await pages.read('formulas', DOCUMENT);
  }, 60_000);

  it('rebuilds superscripts as LaTeX in a display block', () => {
    expect(markdown).toContain('$$\nx^{2} + y^{2} = z^{2}\n$$');
  });

  it('rebuilds a fraction from its rule', () => {
    expect(markdown).toContain('\\frac{a}{b}');
    expect(rendersAs('r = \\frac{a}{b}')).toBe(true);
  });

  it('rebuilds a sum with its limits', () => {
    expect(rendersAs('S_n = \\sum_{i=1}^{n} a_i')).toBe(true);
  });

  it('writes Greek letters as commands', () => {
    expect(markdown).toContain('\\omega = 2 \\pi f + \\alpha \\beta \\mu');
  });

  it('rebuilds a square root over what its rule covers', () => {
    expect(rendersAs('A = \\sqrt{1 - \\gamma^2}')).toBe(true);
  });

  it('leaves body text as text and writes its inline math as $...$', () => {
    expect(markdown).toContain('The theorem of Pythagoras relates the sides of a right triangle with legs $x$ and $y$:');
    expect(markdown).toContain('Body text after the formulas stays as it was written, even where it squares $z^{2}$ inline.');
    expect(markdown.match(/\$\$/g)).toHaveLength(16);
  });

  it('sets the limits of an integral beside it and writes the symbol font capitals as calligraphic', () => {
    expect(rendersAs('\\mathcal{L} = \\int_0^1 x^2 \\, dx')).toBe(true);
  });

  it('takes the equation number at the margin with its formula, and leaves it out of the LaTeX', () => {
    expect(markdown).toMatch(/d x\n\$\$/);
    expect(markdown).not.toContain('(1)');
    expect(markdown).not.toContain('\\tag');
  });

  it('reads a tall radical over a sum with its limits', () => {
    expect(rendersAs('\\|x\\| = \\sqrt{\\sum_{j=1}^{d} x_j^2}')).toBe(true);
  });

  it('leaves figures with a spread in a table as table cells', () => {
    expect(markdown).toContain('| Large | 91.0 ± 0.1 | 0.33 ± 0.02 |');
  });

  it('leaves a matrix as text rather than interleave its columns', () => {
    expect(markdown).not.toMatch(/\$\$\nR =/);
    // its rows are left as the text (here inline math) they read as, a row at a time
    expect(markdown).toContain('$\\sin \\phi$ $\\cos \\phi$');
  });

  it('leaves the sentence full stop out of the formula', () => {
    expect(markdown).toContain('A = \\sqrt{1 - \\gamma^{2}}\n$$');
  });

  it('keeps a thin space the author put between two factors', () => {
    expect(rendersAs('P(A)\\,P(B)')).toBe(true);
  });

  it('keeps the big delimiters of the extension font, whose low slots come as control codes', async () => {
    const source = String.raw`\documentclass[11pt]{article}\usepackage{amsmath}\pagestyle{empty}\begin{document}
The ratio in parentheses is
\begin{equation*}
y = \left( \frac{a}{b} \right) + \Big[ x + 1 \Big]
\end{equation*}
and the set of all such values is
\begin{equation*}
S = \left\{ \frac{p}{q} \right\} \cup \left\langle \frac{u}{v} \right\rangle
\end{equation*}
\end{document}`;
    const delimited = await pages.read('delimiters', source);
    const renders = (reference: string) => findFormula(reference, renderFormula(reference)!, delimited).passed;
    expect(renders('y = \\left( \\frac{a}{b} \\right) + \\Big[ x + 1 \\Big]')).toBe(true);
    expect(renders('S = \\left\\{ \\frac{p}{q} \\right\\} \\cup \\left\\langle \\frac{u}{v} \\right\\rangle')).toBe(true);
    expect(delimited.match(/\$\$/g)).toHaveLength(4);
  });

  it('reads aligned rows, limits under lim, dots, negated relations, underlines, side-by-side formulas, binomials and double integrals', async () => {
    const source = String.raw`\documentclass[11pt]{article}\usepackage{amsmath}\pagestyle{empty}\begin{document}
A system of two equations, each on a row of its own:
\begin{align}
u + v &= w \\
p - q &= r + s
\end{align}
The limit of a sequence is written with its condition under it,
\begin{equation*}
L = \lim_{n \to \infty} a_n
\end{equation*}
a long sum with dots,
\begin{equation*}
z = y_1 - y_2 + \dots + y_k
\end{equation*}
two values that differ,
\begin{equation*}
a \neq b
\end{equation*}
a vector underlined,
\begin{equation*}
F = \underline{x}_{j} + c
\end{equation*}
and two formulas set a quad apart:
\begin{equation*}
m = n, \qquad k = l
\end{equation*}
A binomial coefficient and a double integral:
\begin{equation*}
c = \binom{n}{k} + \iint g \, dA
\end{equation*}
\end{document}`;
    const written = await pages.read('rows', source);
    const renders = (reference: string) => findFormula(reference, renderFormula(reference)!, written).passed;
    expect(renders('u + v = w')).toBe(true);
    expect(renders('p - q = r + s')).toBe(true);
    expect(renders('L = \\lim_{n \\to \\infty} a_n')).toBe(true);
    expect(renders('z = y_1 - y_2 + \\dots + y_k')).toBe(true);
    expect(renders('a \\neq b')).toBe(true);
    expect(renders('F = \\underline{x}_{j} + c')).toBe(true);
    expect(renders('m = n, \\qquad k = l')).toBe(true);
    expect(renders('c = \\binom{n}{k} + \\iint g \\, dA')).toBe(true);
    // the rows' equation numbers are taken with them, not left as text
    expect(written).not.toMatch(/\(1\)|\(2\)/);
  });

  it('reads a split formula as one aligned display, stacked and side-by-side limits, and math alphabets from their fonts', async () => {
    const source = String.raw`\documentclass[11pt]{article}\usepackage{amsmath,amssymb}\pagestyle{empty}\begin{document}
A formula broken over two rows, aligned at its relations and numbered once:
\begin{equation}
\begin{split}
h(u,v) &= v + \lambda_{0} u - \mu_{r} u^r v^2 \\
&= v + c q^{-1} u - c q^{-(r+2)} u^r v^2
\end{split}
\end{equation}
a sum over two conditions set one under the other,
\begin{equation*}
S = \sum_{\substack{1 \le a \le r \\ b < a}} W(a,b)
\end{equation*}
a sum and a product whose limits touch, after a fraction,
\begin{equation*}
G = \frac{3}{2m} \sum_{a=1}^{m} a^{q+1} \sum_{b_1+\dots+b_q=a} \prod_{c=1}^{q} \binom{m_c}{b_c}
\end{equation*}
an expectation in bold before an integral with a small script on its limit,
\begin{equation*}
g = \lambda \mathbf{P}_{y} \int_0^{s_\lambda} M_{y} \, dr
\end{equation*}
a double integral over a region named under it,
\begin{equation*}
V = \iint\limits_D h(u,v) \, du \, dv
\end{equation*}
and letters of the sans-serif and Fraktur alphabets:
\begin{equation*}
\mathsf{F} = m \mathbf{a} + \mathfrak{g}
\end{equation*}
\end{document}`;
    const written = await pages.read('alphabets', source);
    const renders = (reference: string) => findFormula(reference, renderFormula(reference)!, written).passed;
    expect(renders('\\begin{split} h(u,v) &= v + \\lambda_{0} u - \\mu_{r} u^r v^2 \\\\ &= v + c q^{-1} u - c q^{-(r+2)} u^r v^2 \\end{split}')).toBe(true);
    expect(renders('S = \\sum_{\\substack{1 \\le a \\le r \\\\ b < a}} W(a,b)')).toBe(true);
    expect(renders('G = \\frac{3}{2m} \\sum_{a=1}^{m} a^{q+1} \\sum_{b_1+\\dots+b_q=a} \\prod_{c=1}^{q} \\binom{m_c}{b_c}')).toBe(true);
    expect(renders('g = \\lambda \\mathbf{P}_{y} \\int_0^{s_\\lambda} M_{y} \\, dr')).toBe(true);
    expect(renders('\\mathsf{F} = m \\mathbf{a} + \\mathfrak{g}')).toBe(true);
    expect(renders('V = \\iint\\limits_D h(u,v) \\, du \\, dv')).toBe(true);
    // the split is one display, its number taken with it
    expect(written.match(/\$\$/g)).toHaveLength(12);
    expect(written).not.toContain('(1)');
  });

  it('takes no integral for a drop cap, and reads the extension font\'s wide hat as an accent that hangs nowhere', async () => {
    // at 10pt the display integral is twice the size of its limit's script-script epsilon, as a drop cap would be
    const source = String.raw`\documentclass{article}\usepackage{amsmath}\pagestyle{empty}\begin{document}
The mean over the interval is an integral whose upper limit carries a small script,
\begin{equation*}
g = \int_0^{s_\lambda} M(r) \, dr
\end{equation*}
and on the completion $\widehat{U}$ the product of two generators commutes,
\begin{equation*}
\hat{u}_a \hat{u}_b = \hat{u}_b \hat{u}_a , \quad \widehat{U} = \{ \hat{u}_1 , \dots , \hat{u}_m \}
\end{equation*}
\end{document}`;
    const written = await pages.read('wide-hat', source);
    const renders = (reference: string) => findFormula(reference, renderFormula(reference)!, written).passed;
    expect(renders('g = \\int_0^{s_\\lambda} M(r) \\, dr')).toBe(true);
    expect(renders('\\hat{u}_a \\hat{u}_b = \\hat{u}_b \\hat{u}_a , \\quad \\widehat{U} = \\{ \\hat{u}_1 , \\dots , \\hat{u}_m \\}')).toBe(true);
    expect(written).toContain('on the completion $\\widehat{U}$ the product of two generators commutes,');
    expect(written.match(/\$\$/g)).toHaveLength(4);
  });

  it('keeps the words of a wide display between short one-line paragraphs, the column\'s edge read from the prose further off', async () => {
    const source = String.raw`\documentclass{article}\usepackage{amsmath}\pagestyle{empty}\begin{document}
The mean and the variance of a sample are read from the spread of its values around the centre, and
the long paragraph here sets the edges of the column that the display below is centred in. Each line
of it runs from the left edge of the column to its right edge, as prose does.
\vspace{5\baselineskip}

The first display is:
\begin{equation}
\int_{0}^{1} x^{2} \, dx = \frac{1}{3} \quad\text{and}\quad \int_{0}^{\pi} \sin x \, dx = 2.
\end{equation}
Both are read off a table.
\vspace{5\baselineskip}

The long paragraph after the display sets the column's edges again: each of its lines runs from the
left edge of the column to its right edge, as prose does, and it ends the page.
\end{document}`;
    const written = await pages.read('short-lines', source);
    const renders = (reference: string) => findFormula(reference, renderFormula(reference)!, written).passed;
    expect(renders('\\int_{0}^{1} x^{2} \\, dx = \\frac{1}{3} \\quad\\text{and}\\quad \\int_{0}^{\\pi} \\sin x \\, dx = 2')).toBe(true);
    expect(written).toContain('The first display is:');
    expect(written).toContain('Both are read off a table.');
  });

  it('reads an inline script whose font holds one digit as a script, not code', async () => {
    const source = String.raw`\documentclass{article}\pagestyle{empty}\begin{document}The variance $\sigma^2$ of a sample.\end{document}`;
    expect(await pages.read('variance', source)).toBe('The variance $\\sigma^{2}$ of a sample.');
  });
  it('keeps the words of a display as \\text, reads a piecewise definition as cases, and joins annotations beside aligned rows', async () => {
    const source = String.raw`\documentclass[11pt]{article}\usepackage{amsmath}\pagestyle{empty}\begin{document}
The number of arrangements is defined piecewise, and it vanishes for all other values of the index
as the following display shows for every choice of the parameters involved in it:
\begin{equation*}
A_l = \begin{cases} n!, & \text{if } l = 1 \\ 0, & \text{otherwise}. \end{cases}
\end{equation*}
Two lists are the same exactly when their entries agree up to the shuffle, which we write as
\begin{equation*}
u = v \quad \text{if and only if} \quad u_j = v_{\sigma(j)}
\end{equation*}
and the chain of equalities below is justified line by line by the results quoted beside it:
\begin{align*}
w &= a_1 - a_2 + a_3 && \text{by the first lemma} \\
  &= b \circ b^* && \text{by the second lemma}
\end{align*}
The last line of this paragraph holds for all $x \in X$.
\end{document}`;
    const written = await pages.read('text-in-math', source);
    const renders = (reference: string) => findFormula(reference, renderFormula(reference)!, written).passed;
    expect(renders('A_l = \\begin{cases} n!, & \\text{if } l = 1 \\\\ 0, & \\text{otherwise}. \\end{cases}')).toBe(true);
    expect(renders("u = v \\quad \\text{if and only if} \\quad u_j = v_{\\sigma(j)}")).toBe(true);
    expect(renders('w = a_1 - a_2 + a_3 \\qquad \\text{by the first lemma}')).toBe(true);
    expect(renders("= b \\circ b^* \\qquad \\text{by the second lemma}")).toBe(true);
    // a paragraph's last line, at the column's edge, stays prose though it has few words and some math
    expect(written).toContain('The last line of this paragraph holds for all $x \\in X$.');
    expect(written.match(/\$\$/g)).toHaveLength(8);
  });
});
