// The trouble detector on what the text engine really writes: formulas a PDF sets as loose italic
// glyphs are found, and clean pages (tables, display math, prose) of real documents are left alone.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeReviewPdf } from '../e2e/support/review-pdf.js';
import { markdownTrouble } from '../shared/page-trouble.js';
import { needs, REAL_DOCS } from './environment.js';
import { fixturePdfPath } from './fixtures/build-fixtures.js';
import { REAL_DOCS_DIR, realDocsProblem } from './real-docs/real-docs-folder.js';
import { textEngineMarkdown } from './text-engine-markdown.js';

const kinds = async (file: string, page: number) => markdownTrouble(await textEngineMarkdown(file, page)).map((trouble) => trouble.kind);

describe('page trouble in the text engine’s output of a made PDF', () => {
  let folder: string;
  beforeAll(async () => {
    folder = await mkdtemp(path.join(tmpdir(), 'folio-trouble-'));
  });
  afterAll(async () => {
    await rm(folder, { recursive: true, force: true });
  });

  it('flags the page whose formula is loose italic glyphs, and only that one', async () => {
    const file = path.join(folder, 'review.pdf');
    await writeReviewPdf(file, 3, [2]);
    expect(markdownTrouble(await textEngineMarkdown(file, 2))).toEqual([
      { kind: 'loose-math', reason: 'math is written as loose symbols, not as a formula: “*x* = *y* + *z*”' },
    ]);
    expect(await kinds(file, 1)).toEqual([]);
    expect(await kinds(file, 3)).toEqual([]);
  });

  it('leaves the fixture tables alone: their rows line up', async () => {
    for (const name of ['table-simple', 'table-spans', 'dense-table', 'financial-table', 'paper']) {
      expect({ name, kinds: await kinds(fixturePdfPath(name), 1) }).toEqual({ name, kinds: [] });
    }
  });
});

describe('page trouble in the text engine’s output of real documents', needs(REAL_DOCS, realDocsProblem), () => {
  const tex = (file: string) => path.join(REAL_DOCS_DIR, 'texlive', file);

  it('flags formulas the text layer leaves as glyphs: a² = b² + c² without its superscripts', async () => {
    const [pythagoras] = markdownTrouble(await textEngineMarkdown(tex('texlive-publishers-doc/latex/mnras/mnras_guide.pdf'), 3));
    expect(pythagoras?.kind).toBe('loose-math');
    expect(pythagoras?.reason).toContain('*a* 2 = *b* 2 + *c*');
  });

  it('leaves a page alone once its inline formula is written as math (Hψ = Eψ, flagged while it was loose glyphs)', async () => {
    const markdown = await textEngineMarkdown(tex('texlive-publishers-doc/latex/oup-authoring-template/oup-authoring-template.pdf'), 2);
    expect(markdown).toContain('$H \\psi$');
    expect(markdownTrouble(markdown)).toEqual([]);
  });

  it('leaves clean pages alone: display math, inline math, a table', async () => {
    expect(await kinds(tex('texlive-publishers-doc/latex/revtex/sample/aps/apssamp.pdf'), 3)).toEqual([]);
    expect(await kinds(tex('texlive-latex-base-doc/latex/amsmath/technote.pdf'), 2)).toEqual([]);
    expect(await kinds(path.join(REAL_DOCS_DIR, 'icdar2013/competition-dataset-eu/eu-001.pdf'), 1)).toEqual([]);
  });
});
