/**
 * Tables set by LaTeX's `tabular` with booktabs rules and no vertical lines (pdflatex, at test
 * time): figures aligned on their decimal point (dcolumn sets them in math mode, the point from
 * the math italic font), header cells with footnote marks, subscripts and math, and lowercase
 * function names over columns of figures. Each must come out as a table with its header row.
 */

import { beforeAll, describe, expect, it } from 'vitest';
import { needs, PROGRAMS } from '../../../test/environment.js';
import { latexPages, PDFLATEX_PROBLEM } from '../../../test/latex-page.js';
import { tableCheck } from '../../../test/bench-verdicts.js';

const DECIMAL_COLUMNS = String.raw`\documentclass[11pt]{article}
\usepackage{dcolumn,booktabs}
\newcolumntype{d}{D{.}{.}{2}}
\pagestyle{empty}
\begin{document}
Drag was measured on three bodies in the tunnel, each at the same speed, and the mean of ten runs is given below with the coefficient at the highest Reynolds number.
\begin{table}[h]
\centering
\caption{Drag of three bodies}
\begin{tabular}{lldd}
\toprule
Body & Flow$^{*}$ & \multicolumn{1}{c}{Mean} & \multicolumn{1}{c}{$C_D(\mathit{Re})$} \\
\midrule
sphere & laminar & 0.47 & 10.55 \\
cube & turbulent & 1.05 & 33.12 \\
cone & mixed & 10.5 & 45.1 \\
\bottomrule
\end{tabular}
\end{table}
\end{document}
`;

const FUNCTION_TABLE = String.raw`\documentclass[11pt]{article}
\usepackage{booktabs}
\pagestyle{empty}
\begin{document}
The hyperbolic tangent and secant are tabulated below for a few arguments, rounded to five places.
\begin{table}[h]
\centering
\caption{Two hyperbolic functions}
\begin{tabular}{ccc}
\toprule
$x$ & tanh$(x)$ & sech$(x)$ \\
\midrule
0.0 & 0.00000 & 1.00000 \\
0.1 & 0.09967 & 0.99502 \\
0.2 & 0.19738 & 0.98033 \\
0.3 & 0.29131 & 0.95663 \\
\bottomrule
\end{tabular}
\end{table}
A display between paragraphs stays a formula:
\[ \mathrm{sech}(x) \, \mathrm{cosh}(x) = 1 \]
for every real $x$.
\end{document}
`;

const CENTRED_HEADERS = String.raw`\documentclass[11pt]{article}
\pagestyle{empty}
\begin{document}
The specimens cored from the test road are described in the table below, with their layers and sizes.
\begin{table}[h]
\centering
\caption{Specimens}
\begin{tabular}{l l}
\hline\hline
\multicolumn{1}{c}{Specimen property} & \multicolumn{1}{c}{Values} \\
\multicolumn{1}{c}{(1)} & \multicolumn{1}{c}{(2)} \\
\hline
Number of layers & 12 \\
Binder & Bitumen \\
Thickness range & 20 mm to 45 mm \\
Air void ratio & 0.046 \\
Core diameter & 150 mm \\
\hline\hline
\end{tabular}
\end{table}
\end{document}
`;

const COMMAND_TABLE = String.raw`\documentclass[11pt]{article}
\usepackage{booktabs}
\pagestyle{empty}
\begin{document}
The commands for vectors are listed below with what each prints; two of them share one box of the table.

\begin{tabular}{l | l | l}\toprule
\verb=\norm{v}= & $\|v\| = (v \cdot v)^{1/2}$ & Length of a vector \\ \midrule
\verb=\abs{x}= & $|x|$ & Absolute value \\ \midrule
\verb=\inner{u}{v}= & $\langle u, v \rangle$ & Inner product \\
\verb=\outer{u}{v}= & $u \otimes v$ & Outer product \\ \midrule
\verb=\trace{A}= & $\mathrm{tr}\, A$ & Trace of a matrix \\ \midrule
\verb=\rank{A}= & $\mathrm{rk}\, A$ & Rank of a matrix \\ \bottomrule
\end{tabular}

\end{document}
`;

// Ruled off only after the label column: the four columns of words right of it share one ruled column.
const LABEL_RULED = String.raw`\documentclass[11pt]{article}
\pagestyle{empty}
\begin{document}
The weather of a few cities by season is summed up in the table below, in a word for each.

\begin{tabular}{|l|llll|}\hline
\textbf{city} & \textbf{spring} & \textbf{summer} & \textbf{autumn} & \textbf{winter} \\ \hline
Oslo & Mild days & Warm & & Snow \\ \hline
Rome & Warm & Hot and dry & Mild & Rain \\ \hline
Cairo & & Very hot & & \\ \hline
Lima & Fog & & Fog & \\ \hline
Quito & & Showers & & Cool \\ \hline
\end{tabular}
\end{document}
`;

// No rules at all: commands, what they print, and lowercase phrases saying what they mean, one wrapped in its p column.
const PHRASE_TABLE = String.raw`\documentclass[11pt]{article}
\pagestyle{empty}
\begin{document}
The operators of vector calculus have commands of their own, listed below with what each prints and what it means.

\begin{center}
\begin{tabular}{l l p{5cm}}
\verb=\grad{f}= & $\nabla f$ & gradient of a scalar field \\
\verb=\divergence{F}= & $\nabla \cdot F$ & divergence of a vector field, which is written with a dot as a product \\
\verb=\curl{F}= & $\nabla \times F$ & curl of a vector field \\
\verb=\laplacian{f}= & $\nabla^2 f$ & scalar laplacian \\
\verb=\dd{x}= & $\mathrm{d}x$ & upright differential \\
\end{tabular}
\end{center}
All of them work in inline and display math alike.
\end{document}
`;

// Ruled in groups of rows, no rule between the rows of a group.
const GROUPED_ROWS = String.raw`\documentclass[11pt]{article}
\pagestyle{empty}
\begin{document}
Each flag of the drawing command changes what it does, as the table below lists in groups.

\begin{center}
\begin{tabular}{|c|l|}\hline
Flag & Meaning \\ \hline
a & opens a group \\
b & opens a group with a title \\
c & closes the group that is open, whatever its title is, and every group inside it \\ \hline
d & draws a line \\
e & draws a dashed line \\ \hline
\end{tabular}
\end{center}
\end{document}
`;

describe('booktabs tables of a LaTeX page', needs(PROGRAMS, PDFLATEX_PROBLEM), () => {
  const pages = latexPages('folio-tex-tables-');
  let decimal = '';
  let functions = '';
  let centred = '';
  let commands = '';
  let seasons = '';
  let phrases = '';
  let groups = '';
  beforeAll(async () => {
    commands = await pages.read('commands', COMMAND_TABLE);
    seasons = await pages.read('seasons', LABEL_RULED);
    phrases = await pages.read('phrases', PHRASE_TABLE);
    groups = await pages.read('groups', GROUPED_ROWS);
    decimal = await pages.read('decimal', DECIMAL_COLUMNS);
    functions = await pages.read('functions', FUNCTION_TABLE);
    centred = await pages.read('centred', CENTRED_HEADERS);
  }, 60_000);

  it('reads figures aligned on the decimal point as cells, not as display formulas', () => {
    expect(decimal).not.toContain('$$');
    expect(tableCheck(decimal, { cell: '0.47', left: 'laminar', right: '10.55', down: '1.05' })).toBe('passed');
    expect(tableCheck(decimal, { cell: '45.1', left: '10.5', up: '33.12' })).toBe('passed');
  });

  it('keeps a header row with a footnote mark and a subscript whole, each cell over its column', () => {
    expect(tableCheck(decimal, { cell: 'Mean', left: 'Flow∗', down: '0.47' })).toBe('passed');
    expect(tableCheck(decimal, { cell: '33.12', top_heading: 'CD(Re)' })).toBe('passed');
    expect(tableCheck(decimal, { cell: 'mixed', top_heading: 'Flow∗' })).toBe('passed');
  });

  it('takes a header row of lowercase function names between the top rule and the midrule as the header, not as a display', () => {
    expect(tableCheck(functions, { cell: 'tanh(x)', left: 'x', right: 'sech(x)', down: '0.00000' })).toBe('passed');
    expect(tableCheck(functions, { cell: '0.99502', left: '0.09967', top_heading: 'sech(x)' })).toBe('passed');
  });

  it('leaves a display formula between paragraphs a formula', () => {
    expect(functions).toMatch(/\$\$\n.*sech.*= 1\n\$\$/);
  });

  it('keeps two header rows centred over columns set flush left whole, above every body row', () => {
    expect(tableCheck(centred, { cell: '(2)', left: '(1)', up: 'Values', down: '12' })).toBe('passed');
    expect(tableCheck(centred, { cell: '0.046', left: 'Air void ratio', top_heading: 'Values' })).toBe('passed');
    expect(tableCheck(centred, { cell: 'Core diameter', up: 'Air void ratio', top_heading: 'Specimen property' })).toBe('passed');
    expect(centred).toContain('<tr><td>Number of layers</td><td>12</td></tr>');
  });

  it('reads two rows a rule left out between as two rows', () => {
    expect(tableCheck(commands, { cell: 'Inner product', up: 'Absolute value', down: 'Outer product' })).toBe('passed');
    expect(tableCheck(commands, { cell: 'Outer product', down: 'Trace of a matrix' })).toBe('passed');
  });

  it('writes a table whose cell holds a bar as HTML, since a pipe table reader would split the row there', () => {
    expect(commands).toMatch(/<td>\\abs\{x\}<\/td><td>\|.+\|<\/td><td>Absolute value<\/td>/u);
    expect(tableCheck(commands, { cell: 'Absolute value', up: 'Length of a vector', down: 'Inner product' })).toBe('passed');
  });

  it('parts one ruled column holding several columns of words at the gaps its headings keep to', () => {
    expect(tableCheck(seasons, { cell: 'Hot and dry', left: 'Warm', right: 'Mild', top_heading: 'summer' })).toBe('passed');
    expect(tableCheck(seasons, { cell: 'Rain', up: 'Snow', left: 'Mild', top_heading: 'winter' })).toBe('passed');
    expect(tableCheck(seasons, { cell: 'spring', left: 'city', right: 'summer' })).toBe('passed');
  });

  it('reads an unruled table whose last column holds lowercase phrases as a table, a wrapped phrase whole in its cell', () => {
    expect(tableCheck(phrases, { cell: 'curl of a vector field', left: '∇ × F', up: 'divergence of a vector field, which is written with a dot as a product', down: 'scalar laplacian' })).toBe('passed');
    expect(tableCheck(phrases, { cell: 'upright differential', up: 'scalar laplacian', left: 'dx' })).toBe('passed');
    expect(phrases).toContain('All of them work in inline and display math alike.');
  });

  it('parts the rows of a ruled group that no rule parts, a wrapped cell kept whole', () => {
    expect(tableCheck(groups, { cell: 'opens a group with a title', left: 'b', up: 'opens a group', top_heading: 'Meaning' })).toBe('passed');
    expect(tableCheck(groups, { cell: 'c', up: 'b', down: 'd', right: 'closes the group that is open, whatever its title is, and every group inside it' })).toBe('passed');
  });
});
