import { describe, expect, it } from 'vitest';
import type { EngineName } from './engine-name.js';
import type { PageResult } from './page.js';
import { currentVersion, MAX_PAGE_VERSIONS, pageVersions, prune, withEdit, withResult, withVersionKept, type PageVersion } from './page-versions.js';
import { pageMarkdown, type WorkspacePage } from './workspace.js';

function result(markdown: string, engine: EngineName = 'text', model?: string): PageResult {
  return { page: 1, width: 612, height: 792, markdown, blocks: [], images: [], stats: { engine, device: 'cpu', timeMs: 5, chars: markdown.length, ...(model && { model }) } };
}

const blank: WorkspacePage = { page: 1, state: 'converting', engineMarkdown: '', reviewed: false };

function done(page: WorkspacePage, markdown: string, engine: EngineName = 'text', model?: string, at = '2026-12-03T10:00:00Z'): WorkspacePage {
  return { ...withResult(page, result(markdown, engine, model), at), state: 'done' };
}

function summary(page: WorkspacePage) {
  return pageVersions(page).map((version) => `${version.id}${version.edited ? ` edited of ${version.base}` : ` ${version.engine}`}: ${version.markdown}`);
}

describe('page versions', () => {
  it('keeps every result, with its engine, model and time; the newest is shown', () => {
    const first = done(blank, 'The cat sat.', 'text', undefined, '2026-12-03T10:31:00Z');
    const second = done(first, 'Th3 c@t s4t.', 'vlm', 'nano-demo', '2026-12-03T10:42:00Z');
    expect(summary(second)).toEqual(['1 text: The cat sat.', '2 vlm: Th3 c@t s4t.']);
    expect(pageVersions(second)[1]).toMatchObject({ engine: 'vlm', model: 'nano-demo', at: '2026-12-03T10:42:00Z', edited: false });
    expect(pageMarkdown(second)).toBe('Th3 c@t s4t.');
    expect(second.result?.stats.engine).toBe('vlm');
    // the earlier one comes back whole, its blocks and stats with it
    const back = withVersionKept(second, 1);
    expect(pageMarkdown(back)).toBe('The cat sat.');
    expect(back.result?.stats.engine).toBe('text');
    expect(back.currentVersion).toBe(1);
    expect(summary(back)).toEqual(summary(second));
  });

  it('a re-run that reads nothing keeps the text the page had, and holds its empty result as a version', () => {
    const first = done(blank, 'Total: 42');
    const empty = done(first, '   \n', 'vlm', 'nano-demo');
    expect(pageMarkdown(empty)).toBe('Total: 42');
    expect(empty.held).toBe(2);
    expect(currentVersion(empty)?.id).toBe(1);
    expect(summary(empty)).toEqual(['1 text: Total: 42', '2 vlm:    \n']);
  });

  it('an edit is its own version; typing changes it, a re-run does not displace it, and each version can be kept again', () => {
    const first = done(blank, 'teh cat');
    const typed = withEdit(withEdit(first, 'the cat', '2026-12-03T10:44:00Z'), 'the cat.', '2026-12-03T10:45:00Z');
    expect(summary(typed)).toEqual(['1 text: teh cat', '2 edited of 1: the cat.']);
    expect(pageVersions(typed)[1]!.at).toBe('2026-12-03T10:45:00Z');
    expect(typed.editedMarkdown).toBe('the cat.');
    expect(typed.engineMarkdown).toBe('teh cat');

    // the edit stays shown, now against the new result; the first result stays a version
    const rerun = done(typed, 'the cot', 'vlm', 'nano-demo');
    expect(pageMarkdown(rerun)).toBe('the cat.');
    expect(rerun.engineMarkdown).toBe('the cot');
    expect(summary(rerun)).toEqual(['1 text: teh cat', '2 edited of 3: the cat.', '3 vlm: the cot']);

    // chosen, the first result is shown; the edit is still a version and comes back with its result
    const first2 = withVersionKept(rerun, 1);
    expect(pageMarkdown(first2)).toBe('teh cat');
    expect(first2.editedMarkdown).toBeUndefined();
    expect(first2.result?.stats.engine).toBe('text');
    const again = withVersionKept(first2, 2);
    expect(pageMarkdown(again)).toBe('the cat.');
    expect(again.engineMarkdown).toBe('the cot');
    expect(again.result?.stats.engine).toBe('vlm');
  });

  it('a result equal to the edit ends the edit as current, keeping it as a version', () => {
    const typed = withEdit(done(blank, 'teh cat'), 'the cat', undefined);
    const rerun = done(typed, 'the cat', 'vlm');
    expect(currentVersion(rerun)).toMatchObject({ id: 3, edited: false });
    expect(summary(rerun)).toHaveLength(3);
  });

  it('a revert keeps the edit as a version, and an undo of the revert brings that version back rather than a copy', () => {
    const typed = withEdit(done(blank, 'teh cat'), 'the cat', undefined);
    const reverted = withEdit(typed, null, undefined);
    expect(pageMarkdown(reverted)).toBe('teh cat');
    expect(reverted.editedMarkdown).toBeUndefined();
    expect(summary(reverted)).toEqual(['1 text: teh cat', '2 edited of 1: the cat']);
    const undone = withEdit(reverted, 'the cat', undefined);
    expect(summary(undone)).toEqual(summary(reverted));
    expect(undone.currentVersion).toBe(2);
    // typing something else on the engine's text starts a new edited version
    const other = withEdit(reverted, 'teh cat!', undefined);
    expect(summary(other)).toEqual([...summary(reverted), '3 edited of 1: teh cat!']);
  });

  it('an edit shown before it is saved takes the time main saved it at, without becoming another version', () => {
    const shown = withEdit(done(blank, 'teh cat'), 'the cat', undefined);
    const saved = withEdit(shown, 'the cat', '2026-12-03T10:45:00Z');
    expect(summary(saved)).toEqual(summary(shown));
    expect(currentVersion(saved)?.at).toBe('2026-12-03T10:45:00Z');
    expect(withEdit(saved, 'the cat', '2026-12-03T10:45:00Z')).toBe(saved);
  });

  it('re-running the same engine to the same text refreshes the version instead of adding one', () => {
    const first = done(blank, 'Same text.', 'text', undefined, '2026-12-03T10:00:00Z');
    const again = done(first, 'Same text.', 'text', undefined, '2026-12-03T11:00:00Z');
    expect(summary(again)).toEqual(['1 text: Same text.']);
    expect(pageVersions(again)[0]!.at).toBe('2026-12-03T11:00:00Z');
  });

  it(`keeps at most ${MAX_PAGE_VERSIONS} versions, dropping the oldest results but never an edit, the one shown, or an edit's base`, () => {
    let page = withEdit(done(blank, 'first read'), 'first read, corrected', undefined);
    page = withVersionKept(done(page, 'second read', 'vlm'), 3);
    for (let run = 0; run < 12; run++) page = done(page, `run ${run}`, run % 2 === 0 ? 'lite' : 'vlm');
    const versions = pageVersions(page);
    expect(versions).toHaveLength(MAX_PAGE_VERSIONS);
    expect(versions.find((version) => version.edited)?.markdown).toBe('first read, corrected');
    expect(pageMarkdown(page)).toBe('run 11');
    expect(versions.at(-1)!.id).toBe(15);
    // pruned results are the oldest that nothing needs
    // the edit (2) and the result it stands against since the re-run that kept it (3) stay
    expect(versions.map((version) => version.id)).toEqual([2, 3, 8, 9, 10, 11, 12, 13, 14, 15]);
    // an edited version is kept however many there are
    const edits: PageVersion[] = Array.from({ length: 12 }, (_, index) => ({ id: index + 1, edited: true, markdown: `edit ${index}` }));
    expect(prune(edits, 12)).toHaveLength(12);
  });

  it('a page saved before versions existed gets them from its result and edit', () => {
    const legacy: WorkspacePage = { page: 1, state: 'done', engineMarkdown: 'old', editedMarkdown: 'old, fixed', result: result('old'), reviewed: true };
    expect(summary(legacy)).toEqual(['1 text: old', '2 edited of 1: old, fixed']);
    expect(currentVersion(legacy)?.id).toBe(2);
    const rerun = done(legacy, 'new', 'vlm');
    expect(pageMarkdown(rerun)).toBe('old, fixed');
    expect(summary(rerun)).toEqual(['1 text: old', '2 edited of 3: old, fixed', '3 vlm: new']);
  });

  it('keeping a result of a page whose re-run failed shows it as done', () => {
    const failed: WorkspacePage = { ...done(done(blank, 'good'), 'also good', 'vlm'), state: 'failed', failure: { code: 'engine-crashed', message: 'crashed' } };
    const kept = withVersionKept(failed, 1);
    expect(kept).toMatchObject({ state: 'done', engineMarkdown: 'good' });
    expect(kept.failure).toBeUndefined();
    expect(withVersionKept(failed, 99)).toBe(failed);
  });
});
