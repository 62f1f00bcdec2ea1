/**
 * Quality of the text engine on the project's fixtures: every fixture PDF is converted in-process
 * with the `text` engine and scored against its expectation (all checks must pass, and the edit
 * distance to the expected Markdown must stay under the fixture's limit).
 */

import { afterAll, describe, expect, it } from 'vitest';
import { EngineRouter } from '../electron/engine/router.js';
import { fixturePdfPath, listFixtureNames } from './fixtures/build-fixtures.js';
import { loadExpectation } from './fixtures/fixture.js';
import { convertToMarkdown } from './convert-to-markdown.js';
import { KNOWN_FAILURES } from './text-engine-known-failures.js';
import { formatReport } from './scoring/report.js';
import { parseMarkdown } from './scoring/markdown-document.js';
import { runCheck } from './scoring/checks.js';
import { scoreDocument, type DocumentScore } from './scoring/score.js';

const names = await listFixtureNames();
const router = new EngineRouter();
const scores: DocumentScore[] = [];

describe('text engine on the fixtures', () => {
  afterAll(() => {
    // The whole table, failing checks listed per fixture: what to read when this suite fails.
    console.log(`\n${formatReport(scores.sort((a, b) => a.name.localeCompare(b.name)))}\n`);
  });

  for (const name of names) {
    const known = KNOWN_FAILURES[name];
    const test = known === undefined ? it : it.fails;
    const title = known === undefined ? `${name}: meets every check and stays close to the expected Markdown` : `${name}: still fails, as known (${known})`;
    test(title, async () => {
      const expectation = await loadExpectation(name);
      const markdown = await convertToMarkdown(router, fixturePdfPath(name));
      const score = scoreDocument(name, markdown, expectation);
      scores.push(score);
      expect(score.passed, formatReport([score])).toBe(true);
    });
  }

  it('keeps running headers, footers and page numbers when asked to', async () => {
    const doc = parseMarkdown(await convertToMarkdown(router, fixturePdfPath('running-headers'), { keepHeaders: true }));
    const kept = ['Northport Harbour Board', 'Works Programme 2027', 'Page 1 of 4', 'Page 4 of 4'].map((text) => runCheck({ kind: 'present', text }, doc));
    expect(kept.filter((r) => !r.passed).map((r) => r.check)).toEqual([]);
  });
});
