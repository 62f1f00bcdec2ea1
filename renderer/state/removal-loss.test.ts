import { describe, expect, it } from 'vitest';
import type { WorkspaceDocument, WorkspacePage } from '../../shared/workspace.js';
import { asksBeforeRemoving, lossPhrase, removalLoss } from './removal-loss.js';

function documentWith(pages: Partial<WorkspacePage>[]): WorkspaceDocument {
  return {
    id: 'd1',
    path: '/tmp/a.pdf',
    name: 'a.pdf',
    kind: 'pdf',
    addedAt: '2026-01-01T00:00:00Z',
    converting: false,
    pages: pages.map((page, index) => ({ page: index + 1, state: 'done', engineMarkdown: 'text', reviewed: false, ...page })),
  };
}

describe('removalLoss', () => {
  it('counts edited pages and review marks, a page that is both in each', () => {
    const loss = removalLoss(documentWith([{ editedMarkdown: 'mine' }, { editedMarkdown: 'mine too', reviewed: true }, { reviewed: true }, {}]));
    expect(loss).toEqual({ edited: 2, reviewed: 2 });
    expect(asksBeforeRemoving(loss)).toBe(true);
  });

  it('does not ask for a document with converted text only: converting again brings it back', () => {
    const loss = removalLoss(documentWith([{}, { state: 'failed' }, { state: 'pending' }]));
    expect(loss).toEqual({ edited: 0, reviewed: 0 });
    expect(asksBeforeRemoving(loss)).toBe(false);
  });

  it('says what will go in words, singular and plural', () => {
    expect(lossPhrase({ edited: 3, reviewed: 1 })).toBe('3 edited pages and 1 reviewed page');
    expect(lossPhrase({ edited: 1, reviewed: 0 })).toBe('1 edited page');
    expect(lossPhrase({ edited: 0, reviewed: 2 })).toBe('2 reviewed pages');
  });
});
