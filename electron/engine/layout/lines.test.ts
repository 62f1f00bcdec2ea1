import { describe, expect, it } from 'vitest';
import { groupRows, joinFragments, splitRow } from './lines.js';
import { textRun } from './text-run-fixtures.js';

describe('lines', () => {
  it('groups runs on one baseline into a row, superscripts included, and keeps the next line apart', () => {
    const rows = groupRows([textRun('x', 60, 0), textRun('2', 65, -3, { size: 7 }), textRun('Body', 0, 0), textRun('Next', 0, 12)]);
    expect(rows.map((row) => row.map((r) => r.text).sort())).toEqual([['2', 'Body', 'x'], ['Next']]);
  });

  it('cuts a row at a column gutter, even where a large heading starts the next column', () => {
    const row = [textRun('citation lists', 0, 0), textRun('2 Document structures', 80, -2, { size: 14 })];
    expect(splitRow(row)).toHaveLength(2);
  });

  it('keeps a list marker with its text across a wide gap, and word spaces inside a fragment', () => {
    expect(splitRow([textRun('•', 0, 0), textRun('Lamp oil', 25, 0)])).toHaveLength(1);
    expect(splitRow([textRun('two', 0, 0), textRun('words', 18, 0)])).toHaveLength(1);
  });

  it('drops a run painted twice to fake bold', () => {
    const [line] = splitRow([textRun('Bold', 0, 0), textRun('Bold', 0.3, 0)]);
    expect(line!.runs).toHaveLength(1);
  });

  it('joins the fragments of one column row back into a line, top to bottom', () => {
    const fragments = [...splitRow([textRun('b', 0, 12)]), ...splitRow([textRun('a1', 0, 0), textRun('a2', 40, 0)])];
    expect(joinFragments(fragments).map((l) => l.runs.map((r) => r.text))).toEqual([['a1', 'a2'], ['b']]);
  });
});
