import { describe, expect, it } from 'vitest';
import { checkUniqueIds, formatBenchReport, parseTestFile, scoreTests, summarise, withDefaultBaselines } from './bench-score.js';

const lines = (...rows: object[]) => rows.map((r) => JSON.stringify(r)).join('\n');

describe('scoring a benchmark', () => {
  const headers = parseTestFile(
    'headers.jsonl',
    lines(
      { id: 'h1', pdf: 'a.pdf', page: 1, type: 'absent', text: 'Journal of Things' },
      { id: 'h2', pdf: 'a.pdf', page: 1, type: 'present', text: 'The body sentence.' },
    ),
  );
  const tables = parseTestFile('tables.jsonl', `${lines({ id: 't1', pdf: 'b.pdf', page: 2, type: 'table', cell: '98', left: 'Net income' })}\n\n`);
  const outputs: Record<string, string> = { 'a.pdf#1': 'Journal of Things\n\nThe body sentence.', 'b.pdf#2': '| Item | 2024 |\n|---|---|\n| Net income | 98 |' };

  it('tallies by file and by type, and lists each failure with its reason', () => {
    const report = summarise(scoreTests([headers, tables], (pdf, page) => ({ markdown: outputs[`${pdf}#${page}`]! })));
    expect(report.files).toEqual({ 'headers.jsonl': { passed: 1, total: 2 }, 'tables.jsonl': { passed: 1, total: 1 } });
    expect(report.types).toEqual({ absent: { passed: 0, total: 1 }, present: { passed: 1, total: 1 }, table: { passed: 1, total: 1 } });
    expect(report.overall).toEqual({ passed: 2, total: 3 });
    expect(report.fileAverage).toBeCloseTo(0.75);
    expect(report.failures).toEqual([expect.objectContaining({ id: 'h1', type: 'absent', pdf: 'a.pdf', page: 1, detail: expect.stringContaining('found') })]);
    expect(formatBenchReport(report)).toMatch(/headers\.jsonl\s+1\/2\s+50\.0%[\s\S]*Failures \(1\):\n {2}headers\.jsonl h1 \[absent\] a\.pdf p1/);
  });

  it('fails every test of a page that was not converted', () => {
    const report = summarise(scoreTests([headers], () => ({ failure: 'the file is damaged' })));
    expect(report.overall).toEqual({ passed: 0, total: 2 });
    expect(report.failures.map((f) => f.detail)).toEqual(['page not converted: the file is damaged', 'page not converted: the file is damaged']);
  });

  it('names the line of a bad test and refuses duplicate ids', () => {
    expect(() => parseTestFile('x.jsonl', `${lines({ id: 'a', pdf: 'a.pdf', page: 1, type: 'present', text: 'x' })}\n{oops`)).toThrow(/^x\.jsonl:2: not JSON/);
    const again = parseTestFile('y.jsonl', lines({ id: 'h1', pdf: 'c.pdf', page: 1, type: 'baseline' }));
    expect(() => checkUniqueIds([headers, again])).toThrow('test id "h1" appears twice (headers.jsonl and y.jsonl)');
  });

  it('adds a default baseline test of page 1 for each PDF of the folder without one, in a group that counts in the mean', () => {
    const own = parseTestFile('baseline.jsonl', lines({ id: 'b1', pdf: 'a.pdf', page: 1, type: 'baseline' }));
    const files = withDefaultBaselines([headers, tables, own], ['a.pdf', 'b.pdf']);
    expect(files.map((f) => f.name)).toEqual(['headers.jsonl', 'tables.jsonl', 'baseline.jsonl', 'baseline']);
    expect(files[3]!.tests).toEqual([expect.objectContaining({ id: 'b.pdf_baseline', pdf: 'b.pdf', page: 1, type: 'baseline', maxRepeats: 30 })]);
    const report = summarise(scoreTests(files, (pdf, page) => ({ markdown: outputs[`${pdf}#${page}`] ?? '' })));
    // b.pdf page 1 has no text: the default baseline fails, and its group is a fourth file in the mean
    expect(report.files['baseline']).toEqual({ passed: 0, total: 1 });
    expect(report.fileAverage).toBeCloseTo((0.5 + 1 + 1 + 0) / 4);
    // a PDF the tests name but the folder lacks gets none, as olmOCR lists the folder
    expect(withDefaultBaselines([headers, tables, own], ['a.pdf']).map((f) => f.name)).toEqual(['headers.jsonl', 'tables.jsonl', 'baseline.jsonl']);
  });
});
