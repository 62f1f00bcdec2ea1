import { describe, expect, it } from 'vitest';
import { formatReport } from './report.js';
import { normalisedEditDistance, normaliseMarkdown, scoreDocument } from './score.js';

const expected = `# Ferry Timetable

- 07:15 Morven
- 09:40 Skerry Lass
`;

describe('scoreDocument and its report', () => {
  it('passes output equal to the expectation up to Markdown syntax variants', () => {
    const score = scoreDocument('ferry', '# Ferry Timetable\n\n* 07:15 Morven\n* 09:40 Skerry Lass', {
      markdown: expected,
      checks: [{ kind: 'heading', text: 'Ferry Timetable', level: 1 }],
      maxEditDistance: 0,
    });
    expect(score).toMatchObject({ passed: true, editDistance: 0 });
  });

  it('fails on a failing check or an edit distance over the limit, and the report names both', () => {
    const score = scoreDocument('ferry', 'Ferry Timetable\n\n07:15 Morven 09:40 Skerry Lass', {
      markdown: expected,
      checks: [
        { kind: 'heading', text: 'Ferry Timetable', level: 1 },
        { kind: 'present', text: 'Skerry Lass' },
      ],
      maxEditDistance: 0.05,
    });
    expect(score.passed).toBe(false);
    expect(score.editDistance).toBeGreaterThan(0.05);
    const report = formatReport([score]);
    expect(report).toMatch(/^ferry +1\/2 +0\.\d{3} \(0\.050\) +FAIL$/m);
    expect(report).toContain('- heading level 1 "Ferry Timetable": present, but not as a heading');
    expect(report).toMatch(/- edit distance 0\.\d{3} above 0\.050/);
    expect(report).not.toContain('Skerry Lass":');
  });
});

describe('normaliseMarkdown and the edit distance', () => {
  it('treats bullet characters, emphasis markers and table padding as the same Markdown', () => {
    const a = '* one\n+ two\n\n__bold__ _it_\n\n|  A |B|\n|:---|---:|\n| 1 |  2 |';
    const b = '- one\n- two\n\n**bold** *it*\n\n| A | B |\n| --- | --- |\n| 1 | 2 |';
    expect(normaliseMarkdown(a)).toBe(normaliseMarkdown(b));
    expect(normaliseMarkdown('- one')).not.toBe(normaliseMarkdown('- won'));
  });

  it('normalises by the longer text, from 0 (identical) to 1 (nothing shared), and caps the compared length', () => {
    expect(normalisedEditDistance('abcd', 'abcd')).toBe(0);
    expect(normalisedEditDistance('abcd', 'wxyz')).toBe(1);
    expect(normalisedEditDistance('abcd', '')).toBe(1);
    expect(normalisedEditDistance('', '')).toBe(0);
    expect(normalisedEditDistance('a'.repeat(50), 'a'.repeat(10) + 'b'.repeat(40), 10)).toBe(0);
  });
});
