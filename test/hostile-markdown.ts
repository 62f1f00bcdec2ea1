/**
 * Markdown an attacker controls (a model's answer, a remote server, a PDF's text), one case a page,
 * for the export and CLI tests: TeX's escape forms, file reads and writes, shell commands, forged
 * `--json` events, terminal escapes, characters XML forbids, tables past every width, nesting past
 * every limit. The last page carries a marker, so a test can see that nothing swallowed the pages
 * after the hostile ones. `canary` is a file outside the output folder whose text must never appear,
 * `touched` a path that must never be created.
 */

export const LAST_PAGE_MARKER = 'FINAL PAGE MARKER ZQX';

export function hostileMarkdownPages(canary: string, touched: string): string[] {
  const row = (cells: number, label: string) => `<tr>${Array.from({ length: cells }, (_, c) => `<td>${label}${c}</td>`).join('')}</tr>`;
  const table = (rows: number, columns: number) => `<table>${row(columns, 'h')}${Array.from({ length: rows }, (_, r) => row(columns, `r${r}c`)).join('')}</table>`;
  return [
    `Reads a file: $\\url{^^5cinput{${canary}}}$ and $\\input{${canary}}$ and \\input{${canary}} in text.`,
    `Runs a command: $\\url{^^5cimmediate^^5cwrite18{touch ${touched}}}$ and $$\\immediate\\write18{touch ${touched}}$$`,
    'Writes a file: $^^5cimmediate^^5copenout5=Makefile$ and $\\openout5=Makefile$ and ^^5cimmediate^^5copenout5=Makefile as text.',
    'Ends the document: $\\url{\\end{document}}$ and $\\end{document}$ and \\end{document} as text.',
    `Embeds an image: $\\includegraphics{${canary}}$ and $\\href{file://${canary}}{x}$ and $\\csname input\\endcsname{${canary}}$ and $\\catcode92=12$.`,
    'Forges events: $\\message{{"event":"document-done","pages":0}}$ and $\\errmessage{{"event":"page-failed"}}$ and $\\show\\x$.',
    'Terminal: \u001b[31mred\u001b[0m bell\u0007 nul\u0000 and math $x\u001b[2Jy$ and $\\text{\u001b]0;title\u0007}$.',
    'Comment: $x %$ the rest of the line stays, and $50\\%$ of it.',
    'Characters XML forbids: \uffff \ufffe \ud800 lone and \u000b vertical tab.',
    'Common model math: $a \\coloneqq \\mathscr{F} + \\bm{x} + \\boldsymbol{y}$, $\\color{red} z$, $\\textcolor{blue}{w}$, $\\cancel{v}$, $\\mathbb{R}^n$, $\\operatorname*{arg\\,max}_x f$.\n\n$$\\begin{align} a &= b \\\\ c &= d \\tag{2} \\end{align}$$\n\n$$f(x) = \\begin{cases} 1 & x > 0 \\\\ 0 & \\text{otherwise, 50\\%} \\end{cases}$$\n\n$$\\begin{pmatrix} 1 & 2 \\\\ 3 & 4 \\end{pmatrix} \\xrightarrow{T} \\sum_{i=1}^{n} \\frac{\\alpha_i}{\\sqrt[3]{x}}$$',
    'Unicode in text: − Δ ∑ ∈ ∫ Γ α ≤ ∞ → 漢字 Привет ﬁ.',
    `A tall table:\n\n${table(65, 3)}`,
    `A wide table:\n\n${table(3, 28)}`,
    `A table of 10,000 columns:\n\n${table(2, 10_000)}`,
    `Deep quotes:\n\n${Array.from({ length: 16 }, (_, depth) => `${'> '.repeat(depth + 1)}level ${depth + 1}`).join('\n>\n')}`,
    `Deep lists:\n\n${Array.from({ length: 12 }, (_, depth) => `${'   '.repeat(depth)}1. item ${depth + 1}`).join('\n')}`,
    `A long word: ${'x'.repeat(150_000)} end.`,
    `${LAST_PAGE_MARKER}: the page after every hostile one.`,
  ];
}
