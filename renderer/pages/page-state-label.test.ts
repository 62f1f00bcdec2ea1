import { describe, expect, it } from 'vitest';
import type { PageResult } from '../../shared/page.js';
import type { WorkspacePage } from '../../shared/workspace.js';
import { pageStateLabel } from './page-state-label.js';

function done(flags?: PageResult['stats']['flags'], reviewed = false): WorkspacePage {
  const result: PageResult = { page: 1, width: 600, height: 800, markdown: 'eele', blocks: [], images: [], stats: { engine: 'lite', device: 'cpu', timeMs: 900, chars: 4, flags } };
  return { page: 1, state: 'done', engineMarkdown: 'eele', reviewed, result };
}

describe('pageStateLabel', () => {
  it('says a flagged page needs review until it is marked reviewed', () => {
    expect(pageStateLabel(done(['low-confidence']))).toBe('done, needs review');
    expect(pageStateLabel(done(['low-confidence'], true))).toBe('done, reviewed');
    expect(pageStateLabel(done())).toBe('done');
  });
});
