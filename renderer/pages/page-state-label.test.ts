import { describe, expect, it } from 'vitest';
import type { PageResult } from '../../shared/page.js';
import type { WorkspacePage } from '../../shared/workspace.js';
import { pageStateLabel, truncationNote } from './page-state-label.js';

function done(flags?: PageResult['stats']['flags'], reviewed = false, reason?: string): WorkspacePage {
  const result: PageResult = { page: 1, width: 600, height: 800, markdown: 'eele', blocks: [], images: [], stats: { engine: 'lite', device: 'cpu', timeMs: 900, chars: 4, flags, reason } };
  return { page: 1, state: 'done', engineMarkdown: 'eele', reviewed, result };
}

describe('pageStateLabel', () => {
  it('says a flagged page needs review until it is marked reviewed', () => {
    expect(pageStateLabel(done(['low-confidence']))).toBe('done, needs review');
    expect(pageStateLabel(done(['low-confidence'], true))).toBe('done, reviewed');
    expect(pageStateLabel(done())).toBe('done');
  });

  it('says a page cut at a length limit is cut short, reviewed or not', () => {
    expect(pageStateLabel(done(['truncated']))).toBe('done, cut short, needs review');
    expect(pageStateLabel(done(['truncated'], true))).toBe('done, cut short, reviewed');
  });
});

describe('truncationNote', () => {
  it('names the limit the engine gave, and what to do', () => {
    const remote = done(['truncated'], true, 'stopped at 200000 characters, the most Folio takes for one page');
    expect(truncationNote(remote)).toBe(
      'Cut short: the answer stopped at 200000 characters, the most Folio takes for one page, so the end of this page is missing from its text. Re-run the page (with a higher token limit if that was the limit), or add the rest by hand.',
    );
    const vlm = done(['truncated'], false, 'cpu (no GPU found); stopped at 40 characters, the most Folio takes for one page');
    expect(truncationNote(vlm)).toContain('Cut short: the answer stopped at 40 characters, the most Folio takes for one page, so');
    expect(truncationNote(done(['truncated']))).toContain('Cut short: the answer reached its length limit, so the end of this page is missing');
  });

  it('says nothing of a page that was not cut', () => {
    expect(truncationNote(done(['low-confidence']))).toBeNull();
    expect(truncationNote(done())).toBeNull();
  });
});
