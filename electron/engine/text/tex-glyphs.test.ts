import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { needs, PROGRAMS } from '../../../test/environment.js';
import { latexPages, PDFLATEX_PROBLEM } from '../../../test/latex-page.js';

/** A Type 1 re-encoding as older pdfTeX wrote TeX's fonts: glyph names in /Differences, no ToUnicode map. */
function encoding(name: string, slots: Record<number, string>): string {
  const names = Array.from({ length: 256 }, (_, slot) => `/${slots[slot] ?? '.notdef'}`);
  return `/${name} [\n${names.join('\n')}\n] def\n`;
}

const SYMBOL_NAMES = { 1: 'periodcentered', 5: 'diamondmath', 13: 'circlecopyrt', 20: 'lessequal', 50: 'element', 104: 'angbracketleft', 105: 'angbracketright', 107: 'bardbl' };
const ITALIC_NAMES = { 11: 'alpha', 15: 'epsilon1', 34: 'epsilon', 35: 'theta1', 37: 'rho1', 39: 'phi1', 58: 'period', 59: 'comma', 64: 'partialdiff', 96: 'lscript', 120: 'x', 121: 'y', 125: 'weierstrass' };

const NAMED_GLYPHS = String.raw`\pdfmapline{=cmsy10 CMSY10 "SymbolNames ReEncodeFont" <symbol-names.enc <cmsy10.pfb}
\pdfmapline{=cmmi10 CMMI10 "ItalicNames ReEncodeFont" <italic-names.enc <cmmi10.pfb}
\documentclass[11pt]{article}
\pagestyle{empty}\pdfgentounicode=0
\begin{document}
Typeset with \LaTeXe{}, \ooalign{\hfil\raise.07ex\hbox{c}\hfil\crcr$\mathchar"20D$} 2024 by the authors.

The pair $\langle x, y \rangle$ has $\epsilon \vartheta \varphi \varrho \ell \partial \wp$ and $\alpha \in y \leq x$ and $\|x\| \diamond y \cdot x$.
\end{document}
`;

describe('glyphs of TeX fonts read by the text engine', needs(PROGRAMS, PDFLATEX_PROBLEM), () => {
  const pages = latexPages('folio-tex-glyphs-');

  it('reads a character beyond the Basic Multilingual Plane as one character', async () => {
    // The math italic epsilon of \LaTeXe mapped to U+1D700, as LuaTeX's unicode-math maps it.
    const source = String.raw`\pdfgentounicode=1 \pdfglyphtounicode{epsilon}{1D700}
\documentclass{article}\pagestyle{empty}\begin{document}Typeset with \LaTeXe{} by the authors.\end{document}`;
    expect(await pages.read('non-bmp', source)).toBe('Typeset with LATEX 2𝜀 by the authors.');
  }, 30_000);

  it('reads the glyphs of TeX fonts named only in their encoding, by slot or by width', async () => {
    await writeFile(path.join(pages.folder(), 'symbol-names.enc'), encoding('SymbolNames', SYMBOL_NAMES));
    await writeFile(path.join(pages.folder(), 'italic-names.enc'), encoding('ItalicNames', ITALIC_NAMES));
    const markdown = await pages.read('named-glyphs', NAMED_GLYPHS);
    // plain TeX's copyright sign, a c inside CMSY's big circle, is one ©
    expect(markdown).toContain('Typeset with LATEX 2ε, © 2024 by the authors.');
    // read as inline math, each glyph as the command for the symbol it draws
    expect(markdown).toContain(String.raw`The pair $\langle x , y \rangle$ has $\epsilon \vartheta \varphi \varrho \ell \partial \wp$ and $\alpha \in y \leq x$ and $‖ x ‖ \, ⋄ \, y \cdot x$.`);
  }, 30_000);

  it('tells TeX\'s phi from varphi and epsilon from varepsilon in a file without a ToUnicode map, at each size and in bold', async () => {
    // the Adobe glyph list, which readers name these glyphs by, has them the other way round
    const source = String.raw`\pdfgentounicode=0
\documentclass{article}\pagestyle{empty}\begin{document}
The angles $\phi, \varphi$ and bounds $\epsilon, \varepsilon$ of the model.

Small: $x_{\phi \varphi \epsilon \varepsilon}$ and $y_{z_{\phi \varphi}}$; bold: {\boldmath $\phi \varphi \epsilon \varepsilon$}.
\end{document}`;
    const markdown = await pages.read('phi-variants', source);
    expect(markdown).toContain(String.raw`The angles $\phi , \varphi$ and bounds $\epsilon , \varepsilon$ of the model.`);
    expect(markdown).toMatch(/x_\{\\phi \\varphi \\epsilon \\varepsilon\}/);
    expect(markdown).toMatch(/z_\{\\phi \\varphi\}/);
    expect(markdown).toContain(String.raw`bold: $\boldsymbol{\phi} \boldsymbol{\varphi} \boldsymbol{\epsilon} \boldsymbol{\varepsilon}$`);
  }, 30_000);
});
