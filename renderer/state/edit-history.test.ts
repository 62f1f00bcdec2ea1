import { describe, expect, it } from 'vitest';
import { EMPTY_HISTORY, recordEdit, redoEdit, undoEdit } from './edit-history.js';

describe('edit history', () => {
  it('undoes and redoes changes in order', () => {
    let history = recordEdit(EMPTY_HISTORY, { docId: 'a', page: 1, before: null, after: 'one', at: 0 });
    history = recordEdit(history, { docId: 'a', page: 2, before: null, after: 'two', at: 10 });
    const first = undoEdit(history)!;
    expect(first.change).toMatchObject({ page: 2, before: null });
    const second = undoEdit(first.history)!;
    expect(second.change).toMatchObject({ page: 1, after: 'one' });
    expect(undoEdit(second.history)).toBeNull();
    const again = redoEdit(second.history)!;
    expect(again.change).toMatchObject({ page: 1, after: 'one' });
  });

  it('folds quick typing on one page into one step', () => {
    let history = recordEdit(EMPTY_HISTORY, { docId: 'a', page: 1, before: null, after: 'o', at: 0 });
    history = recordEdit(history, { docId: 'a', page: 1, before: 'o', after: 'on', at: 500 });
    history = recordEdit(history, { docId: 'a', page: 1, before: 'on', after: 'one', at: 1000 });
    expect(history.done).toEqual([{ docId: 'a', page: 1, before: null, after: 'one', at: 1000, typing: true }]);
    history = recordEdit(history, { docId: 'a', page: 1, before: 'one', after: 'one!', at: 5000 });
    expect(history.done).toHaveLength(2);
  });

  it('keeps a revert as its own step, however soon after typing', () => {
    let history = recordEdit(EMPTY_HISTORY, { docId: 'a', page: 1, before: null, after: 'typed', at: 0 });
    history = recordEdit(history, { docId: 'a', page: 1, before: 'typed', after: null, at: 100 }, false);
    expect(undoEdit(history)!.change).toMatchObject({ before: 'typed', after: null });
  });

  it('forgets what was undone once a new change is made', () => {
    let history = recordEdit(EMPTY_HISTORY, { docId: 'a', page: 1, before: null, after: 'x', at: 0 });
    history = undoEdit(history)!.history;
    history = recordEdit(history, { docId: 'a', page: 3, before: null, after: 'y', at: 9000 });
    expect(redoEdit(history)).toBeNull();
  });
});
