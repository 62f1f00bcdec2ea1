import { describe, expect, it } from 'vitest';
import { failure } from '../../shared/failure.js';
import type { Workspace, WorkspaceDocument, WorkspacePage } from '../../shared/workspace.js';
import { stoppedNoticeText, stoppedPartWay } from './interrupted-work.js';

function page(number: number, state: WorkspacePage['state']): WorkspacePage {
  return { page: number, state, engineMarkdown: state === 'done' ? 'text' : '', reviewed: false };
}

function document(id: string, states: WorkspacePage['state'][], extra: Partial<WorkspaceDocument> = {}): WorkspaceDocument {
  return {
    id,
    name: `${id}.pdf`,
    path: `/${id}.pdf`,
    kind: 'pdf',
    addedAt: '2026-01-01T00:00:00Z',
    info: { pageCount: states.length },
    converting: false,
    pages: states.map((state, index) => page(index + 1, state)),
    ...extra,
  };
}

describe('work a restart found stopped part-way', () => {
  it('is the documents with pages done and pages left, not those finished, never started, failed to open or converting', () => {
    const workspace: Workspace = {
      documents: [
        document('part', ['done', 'pending', 'pending']),
        document('finished', ['done', 'done']),
        document('untouched', ['pending', 'pending']),
        document('failed-page', ['failed', 'pending']),
        document('running', ['done', 'pending'], { converting: true }),
        document('broken', ['done', 'pending'], { failure: failure('damaged', 'bad') }),
      ],
    };
    expect(stoppedPartWay(workspace)).toEqual(['part', 'failed-page']);
  });

  it('says how many', () => {
    expect(stoppedNoticeText(1)).toBe('1 document was stopped part-way and waits to be resumed.');
    expect(stoppedNoticeText(3)).toBe('3 documents were stopped part-way and wait to be resumed.');
  });
});
