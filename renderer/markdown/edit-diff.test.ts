import { describe, expect, it } from 'vitest';
import { editDiff } from './edit-diff.js';

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
