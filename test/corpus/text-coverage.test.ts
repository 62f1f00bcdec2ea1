/**
 * Text coverage: how a file counts as read or lost (text-coverage.ts, `npm run bench:text-coverage`),
 * and a few named corpus files whose text pdftotext reads and the text engine once threw away: text
 * drawn by annotations (a text box, form fields) and text that pages repeat (a page's only line, a
 * template's pages). The corpus is looked for at `../shared/corpus/pdfjs` beside the clone; without
 * it those cases are skipped, but not in CI.
 */

import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { DEFAULT_CONVERT_OPTIONS } from '../../shared/protocol.js';
import { openPdf } from '../../electron/engine/pdf/open-pdf.js';
import { createTextEngine } from '../../electron/engine/text/text-engine.js';
import { formatCoverage, summariseCoverage, wordCount } from './text-coverage.js';

const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));
const CORPUS_DIR = path.resolve(REPO_ROOT, '../shared/corpus/pdfjs/pdfs');

describe('text coverage', () => {
  it('counts words as runs of letters and digits, image links aside', () => {
    expect(wordCount('Hello, world: 12 items')).toBe(4);
    expect(wordCount('![](folio-image:page-1-image-1.png)\n\n- | -')).toBe(0);
    expect(wordCount('Załącznik 你好世界')).toBe(2);
  });

  it('counts a file lost where pdftotext reads words and Folio writes none or cannot convert it', () => {
    const coverage = summariseCoverage([
      { file: 'b.pdf', referenceWords: 3, folioWords: 0 },
      { file: 'a.pdf', referenceWords: 5, folioWords: 5 },
      { file: 'c.pdf', referenceWords: 0, folioWords: 0 },
      { file: 'd.pdf', referenceWords: undefined, folioWords: 2 },
      { file: 'e.pdf', referenceWords: 1, folioWords: undefined },
    ]);
    expect(coverage).toEqual({ read: 3, written: 1, lost: ['b.pdf', 'e.pdf'] });
    expect(formatCoverage(coverage)).toBe('pdftotext reads text in 3 files; Folio writes text for 1 (33.3%), none for 2');
  });
});

/** Each file and text its pages show, which the text engine must write. */
const CASES: readonly { file: string; shows: string[] }[] = [
  { file: 'pr6531_2.pdf', shows: ['Bluebeam should be encrypting this.'] }, // a text box, the page's only text
  { file: 'bug1724918.pdf', shows: ['hello', 'world'] }, // the values of two choice fields
  { file: 'annotation-tx.pdf', shows: ['tx annotation'] }, // a text field with no appearance, drawn from its value
  { file: 'annotation-tx3.pdf', shows: ['tx annotation', 'Line2', 'Line4'] }, // a multi-line text field
  { file: 'doc_1_3_pages.pdf', shows: ['Document 1:Page 1', 'Document 1:Page 2', 'Document 1:Page 3'] }, // one line per page, repeated but for a number
  { file: 'bug1907000_reduced.pdf', shows: ['Page 1', 'Page 2'] }, // a page number as a page's only text
];

describe('text the corpus files show', () => {
  if (!existsSync(CORPUS_DIR)) {
    if (process.env.CI) it('finds the corpus', () => expect.fail(`no corpus at ${CORPUS_DIR}; CI must provide it`));
    else it.skip(`skipped: no corpus at ${CORPUS_DIR}`, () => {});
    return;
  }
  const engine = createTextEngine();
  for (const { file, shows } of CASES) {
    it(`writes the text of ${file}`, async () => {
      const { pdf } = await openPdf(path.join(CORPUS_DIR, file));
      const pages: string[] = [];
      try {
        for (let page = 1; page <= pdf.numPages; page++) {
          const content = await engine.convertPage({
            pdf,
            page,
            alsoConverts: () => false,
            options: { ...DEFAULT_CONVERT_OPTIONS, engine: 'text' },
            signal: new AbortController().signal,
            render: () => Promise.reject(new Error('the text engine reads no pixels')),
            emitDelta: () => {},
          });
          pages.push(content.markdown);
        }
      } finally {
        engine.forgetDocument(pdf);
        await pdf.destroy();
      }
      const markdown = pages.join('\n\n');
      for (const text of shows) expect(markdown, file).toContain(text);
    });
  }
});
