/**
 * Running text on real pages whose neighbours do not show it (real-docs, read at test time): the
 * journal's line numbers down the margin, a running head beside its folio on the last page, and a
 * page number centred under references set in its own size. The body stays.
 */

import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { needs, REAL_DOCS } from '../environment.js';
import { textEngineMarkdown } from '../text-engine-markdown.js';
import { REAL_DOCS_DIR, realDocsProblem } from './real-docs-folder.js';

const SAMPLES = path.join(REAL_DOCS_DIR, 'texlive/texlive-publishers-doc/latex');

describe('running text of real pages', needs(REAL_DOCS, realDocsProblem), () => {
  it('leaves out line numbers and the running heads of a journal sample whose neighbours are table pages', async () => {
    const markdown = await textEngineMarkdown(path.join(SAMPLES, 'aastex/sample631.pdf'), 'all');
    // lineno numbers every line of the manuscript: no paragraph of the output is a bare number
    expect(markdown.split('\n\n').filter((block) => /^\d+$/.test(block.trim()))).toEqual([]);
    expect(markdown).not.toContain('AASTeX v6.31 Sample article');
    expect(markdown).toContain('Authors have the option to include names in Chinese, Japanese, or Korean (CJK) characters');
  }, 300_000);

  it("leaves out the line numbers and page numbers of a manuscript, also under references set in the page number's size", async () => {
    const markdown = await textEngineMarkdown(path.join(SAMPLES, 'acmart/samples/sample-manuscript.pdf'), 'all');
    // page 5's lone "1" under a table is the table's own; page numbers run 1-11, line numbers to 572
    const bare = markdown.split('\n\n').filter((block) => /^\d+$/.test(block.trim()));
    expect(bare.filter((number) => Number(number) > 1)).toEqual([]);
    expect(markdown).toContain('As noted in the introduction, the');
  }, 300_000);
});
