import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HAS_PDFLATEX, printLatex, textEngineMarkdown } from '../../../test/latex-page.js';

let folder: string;

describe.skipIf(!HAS_PDFLATEX)('glyphs of TeX fonts read by the text engine', () => {
  beforeAll(async () => {
    folder = await mkdtemp(path.join(os.tmpdir(), 'folio-tex-glyphs-'));
  });
  afterAll(async () => {
    await rm(folder, { recursive: true, force: true });
  });

  it('reads a character beyond the Basic Multilingual Plane as one character', async () => {
    // The math italic epsilon of \LaTeXe mapped to U+1D700, as LuaTeX's unicode-math maps it.
    const source = String.raw`\pdfgentounicode=1 \pdfglyphtounicode{epsilon}{1D700}
\documentclass{article}\pagestyle{empty}\begin{document}Typeset with \LaTeXe{} by the authors.\end{document}`;
    expect(await textEngineMarkdown(await printLatex(folder, 'non-bmp', source))).toBe('Typeset with LATEX 2𝜀 by the authors.');
  }, 30_000);
});
