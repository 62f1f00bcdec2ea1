/**
 * Ordered lists of real pages (real-docs, read at test time): items marked "(1)", "(2)" read as an
 * ordered list, while an equation number in the running text ("(3.12)") is no marker.
 */

import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { needs, REAL_DOCS } from '../environment.js';
import { textEngineMarkdown } from '../text-engine-markdown.js';
import { REAL_DOCS_DIR, realDocsProblem } from './real-docs-folder.js';

const MANUAL = path.join(REAL_DOCS_DIR, 'texlive/texlive-science-doc/latex/delimseasy/delimseasyMan.pdf');

describe('ordered lists of real pages', needs(REAL_DOCS, realDocsProblem), () => {
  it('reads workarounds numbered "(1)", "(2)", "(3)" as an ordered list', async () => {
    const lines = (await textEngineMarkdown(MANUAL, 2)).split('\n');
    expect(lines).toContain('1) Rewrite. If you don’t like the looks of');
    expect(lines).toContain('2) Use one-sided versions.');
    expect(lines.some((line) => line.startsWith('3) Use '))).toBe(true);
    expect(lines.some((line) => line.includes('putting (3.12)-(3.36) together') && !/^\d+\) /.test(line))).toBe(true);
  }, 120_000);
});
