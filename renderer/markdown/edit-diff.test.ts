import { describe, expect, it } from 'vitest';
import { editDiff, foldUnchanged } from './edit-diff.js';

describe('editDiff', () => {
  it('marks the changed words of a corrected line', () => {
    const diff = editDiff('# Title\n\nThe quick brwn fox.\n', '# Title\n\nThe quick brown fox.\n');
    expect(diff.added).toBe(1);
    expect(diff.removed).toBe(1);
    const removed = diff.lines.find((line) => line.kind === 'removed')!;
    const added = diff.lines.find((line) => line.kind === 'added')!;
    expect(removed.spans.filter((span) => span.changed).map((span) => span.text)).toEqual(['brwn']);
    expect(added.spans.filter((span) => span.changed).map((span) => span.text)).toEqual(['brown']);
    expect(diff.lines.filter((line) => line.kind === 'same').map((line) => line.spans[0]!.text)).toEqual(['# Title', '']);
  });

  it('counts whole lines added and removed', () => {
    const diff = editDiff('a\nb\n', 'a\nb\nc\nd\n');
    expect(diff).toMatchObject({ added: 2, removed: 0 });
    expect(diff.lines.map((line) => line.kind)).toEqual(['same', 'same', 'added', 'added']);
    expect(editDiff('a\nb\nc\n', 'a\n')).toMatchObject({ added: 0, removed: 2 });
  });

  it('shows no change for identical text', () => {
    const diff = editDiff('same\n', 'same\n');
    expect(diff).toMatchObject({ added: 0, removed: 0 });
    expect(diff.lines).toHaveLength(1);
  });

  it('keeps extra lines of an uneven replacement', () => {
    const diff = editDiff('x\ny\n', 'z\n');
    expect(diff.lines.map((line) => line.kind)).toEqual(['removed', 'added', 'removed']);
  });
});

describe('foldUnchanged', () => {
  it('folds long unchanged runs and keeps two lines of context around a change', () => {
    const engine = Array.from({ length: 20 }, (_, i) => `line ${i}`).join('\n') + '\n';
    const edited = engine.replace('line 10\n', 'line ten\n');
    const rows = foldUnchanged(editDiff(engine, edited).lines);
    expect(rows.map((row) => (row.kind === 'gap' ? `gap ${row.hidden}` : row.kind))).toEqual([
      'gap 8',
      'same',
      'same',
      'removed',
      'added',
      'same',
      'same',
      'gap 7',
    ]);
  });
});
