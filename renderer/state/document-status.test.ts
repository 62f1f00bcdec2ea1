import { describe, expect, it } from 'vitest';
import type { PageState, WorkspaceDocument } from '../../shared/workspace.js';
import { documentStatus, ordinal, queuePosition } from './document-status.js';

function documentWith(id: string, states: PageState[], converting: boolean, reviewed = 0): WorkspaceDocument {
  return {
    id,
    path: `/tmp/${id}.pdf`,
    name: `${id}.pdf`,
    kind: 'pdf',
    addedAt: '2026-01-01T00:00:00Z',
    info: { pageCount: states.length },
    converting,
    pages: states.map((state, index) => ({ page: index + 1, state, engineMarkdown: '', reviewed: index < reviewed })),
  };
}

describe('ordinal', () => {
  it('writes English ordinals, the teens included', () => {
    expect([1, 2, 3, 4, 10, 11, 12, 13, 21, 22, 23, 101, 111, 112].map(ordinal)).toEqual([
      '1st', '2nd', '3rd', '4th', '10th', '11th', '12th', '13th', '21st', '22nd', '23rd', '101st', '111th', '112th',
    ]);
  });
});

describe('queuePosition', () => {
  it('counts the documents waiting, not the one converting', () => {
    const queue = ['long', 'a', 'b'];
    expect(queuePosition('long', queue)).toBeNull();
    expect(queuePosition('a', queue)).toBe(1);
    expect(queuePosition('b', queue)).toBe(2);
    expect(queuePosition('other', queue)).toBeNull();
    expect(queuePosition('a', undefined)).toBeNull();
  });
});

describe('documentStatus', () => {
  const queue = ['long', 'a', 'b'];

  it('says which document converts and where each waiting one stands in line', () => {
    expect(documentStatus(documentWith('long', ['done', 'converting', 'queued'], true), queue)).toEqual({ text: 'Converting · 1/3 pages', tone: 'converting' });
    expect(documentStatus(documentWith('a', ['queued'], true), queue)).toEqual({ text: 'Queued (1st)', tone: 'queued' });
    expect(documentStatus(documentWith('b', ['queued', 'queued'], true), queue)).toEqual({ text: 'Queued (2nd)', tone: 'queued' });
  });

  it('offers to resume a document stopped part-way, by a cancel or a crash', () => {
    const stopped = documentWith('long', [...Array<PageState>(83).fill('done'), 'failed', ...Array<PageState>(35).fill('pending')], false, 2);
    expect(documentStatus(stopped, [])).toEqual({ text: 'Stopped · 83/119 pages · 1 failed · 2 reviewed', tone: 'stopped', action: 'resume' });
  });

  it('offers to convert a document never converted, and says a finished one is done', () => {
    expect(documentStatus(documentWith('a', ['pending', 'pending'], false), [])).toEqual({ text: 'Not converted', tone: 'pending', action: 'convert' });
    expect(documentStatus(documentWith('a', ['done', 'done'], false, 1), [])).toEqual({ text: '2/2 pages · 1 reviewed', tone: 'done' });
    expect(documentStatus(documentWith('a', ['done', 'failed'], false), [])).toEqual({ text: '1/2 pages · 1 failed', tone: 'failed' });
  });

  it('says when a document is still opening or could not be opened', () => {
    const opening = { ...documentWith('a', [], false), info: undefined };
    expect(documentStatus(opening, []).text).toBe('Opening…');
    expect(documentStatus({ ...opening, failure: { code: 'damaged', message: 'no' } }, []).text).toBe('Could not open');
    expect(documentStatus({ ...opening, failure: { code: 'encrypted', message: 'no' } }, []).text).toBe('Needs its password');
  });
});
