/**
 * A benchmark folder's test files scored against an engine's page outputs: the verdict of every
 * test, then the pass rates by test file and by test type, and the failures. A page with no output
 * (it failed to convert) fails each of its tests, as a missing output fails in olmOCR-Bench.
 */

import { BENCH_TEST_TYPES, BenchTestError, parseBenchTest, runBenchTest, type BenchTest, type BenchTestType } from './bench-test.js';

export interface TestFile {
  /** The file's name, e.g. `tables.jsonl`. */
  name: string;
  tests: BenchTest[];
}

/** Parses a `*.jsonl` test file; blank lines are skipped. */
export function parseTestFile(name: string, text: string): TestFile {
  const tests: BenchTest[] = [];
  text.split('\n').forEach((line, index) => {
    if (!line.trim()) return;
    const where = `${name}:${index + 1}`;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (error) {
      throw new BenchTestError(`${where}: not JSON (${error instanceof Error ? error.message : String(error)})`);
    }
    tests.push(parseBenchTest(value, where));
  });
  return { name, tests };
}

/** Test ids must be unique across the whole benchmark, as olmOCR requires. */
export function checkUniqueIds(files: readonly TestFile[]): void {
  const seen = new Map<string, string>();
  for (const file of files) {
    for (const test of file.tests) {
      const other = seen.get(test.id);
      if (other !== undefined) throw new BenchTestError(`test id "${test.id}" appears twice (${other} and ${file.name})`);
      seen.set(test.id, file.name);
    }
  }
}

/**
 * olmOCR adds, for each PDF of the benchmark's `pdfs/` folder (`pdfs`, relative to it) with no
 * baseline test of its own, a default baseline test of its first page in a group of its own named
 * `baseline`, which counts as one more file in the mean of the files.
 */
export function withDefaultBaselines(files: readonly TestFile[], pdfs: readonly string[]): TestFile[] {
  const covered = new Set(files.flatMap((f) => f.tests).filter((t) => t.type === 'baseline').map((t) => t.pdf));
  const uncovered = [...new Set(pdfs)].filter((pdf) => !covered.has(pdf)).sort();
  if (uncovered.length === 0) return [...files];
  const baselines = uncovered.map((pdf) => parseBenchTest({ id: `${pdf}_baseline`, pdf, page: 1, type: 'baseline' }, `default baseline of ${pdf}`));
  return [...files, { name: 'baseline', tests: baselines }];
}

/**
 * What a converter made of one page: its Markdown; several outputs of the same page (olmOCR's
 * `_repeat<R>` files), each scored; or why there is none.
 */
export type PageOutput = { markdown: string } | { repeats: string[] } | { failure: string };

export interface TestOutcome {
  file: string;
  test: BenchTest;
  /** Passed on more than half of the page's outputs, as olmOCR decides a test with repeats. */
  passed: boolean;
  /** The share of the page's outputs it passed on (0 or 1 for a single output). */
  score: number;
  /** Why it failed (on the first output it failed on). */
  detail?: string;
}

export function scoreTests(files: readonly TestFile[], outputOf: (pdf: string, page: number) => PageOutput): TestOutcome[] {
  return files.flatMap((file) =>
    file.tests.map((test): TestOutcome => {
      const output = outputOf(test.pdf, test.page);
      if ('failure' in output) return { file: file.name, test, passed: false, score: 0, detail: `page not converted: ${output.failure}` };
      const verdicts = ('repeats' in output ? output.repeats : [output.markdown]).map((markdown) => runBenchTest(test, markdown));
      const score = verdicts.filter((v) => v.passed).length / verdicts.length;
      const failed = verdicts.find((v): v is Extract<typeof v, { passed: false }> => !v.passed);
      return { file: file.name, test, passed: score > 0.5, score, ...(failed && { detail: failed.detail }) };
    }),
  );
}

export interface Tally {
  /** By test type and overall, the sum of the tests' scores (fractional only with repeats); by file, the tests passed. */
  passed: number;
  total: number;
}

export interface BenchFailure {
  file: string;
  id: string;
  type: BenchTestType;
  pdf: string;
  page: number;
  detail: string;
}

export interface BenchReport {
  /** By test file name. */
  files: Record<string, Tally>;
  /** By test type; only the types the benchmark uses. */
  types: Partial<Record<BenchTestType, Tally>>;
  /** Every test counted once. */
  overall: Tally;
  /** The mean of the test files' pass rates, olmOCR-Bench's headline figure. */
  fileAverage: number;
  failures: BenchFailure[];
}

export function summarise(outcomes: readonly TestOutcome[]): BenchReport {
  const files: Record<string, Tally> = {};
  const types: Partial<Record<BenchTestType, Tally>> = {};
  const overall: Tally = { passed: 0, total: 0 };
  const failures: BenchFailure[] = [];
  for (const outcome of outcomes) {
    // As olmOCR: a file's rate counts the tests passed, a type's rate averages the tests' scores.
    const add = (tally: Tally, value: number) => {
      tally.total++;
      tally.passed += value;
    };
    add((files[outcome.file] ??= { passed: 0, total: 0 }), outcome.passed ? 1 : 0);
    add((types[outcome.test.type] ??= { passed: 0, total: 0 }), outcome.score);
    add(overall, outcome.score);
    if (outcome.score < 1) {
      const { id, type, pdf, page } = outcome.test;
      failures.push({ file: outcome.file, id, type, pdf, page, detail: outcome.detail ?? '' });
    }
  }
  const rates = Object.values(files).map(rate);
  return { files, types, overall, fileAverage: rates.length ? rates.reduce((a, b) => a + b, 0) / rates.length : 0, failures };
}

export function rate(tally: Tally): number {
  return tally.total === 0 ? 0 : tally.passed / tally.total;
}

/** The report as a person reads it: pass rates by file, by type, overall, then each failure. */
export function formatBenchReport(report: BenchReport): string {
  const count = (n: number) => (Number.isInteger(n) ? String(n) : n.toFixed(1));
  const line = (name: string, tally: Tally, width: number) =>
    `  ${name.padEnd(width)}  ${`${count(tally.passed)}/${tally.total}`.padStart(9)}  ${(100 * rate(tally)).toFixed(1).padStart(5)}%`;
  const fileNames = Object.keys(report.files).sort();
  const typeNames = BENCH_TEST_TYPES.filter((t) => report.types[t]);
  const width = Math.max(8, ...fileNames.map((n) => n.length));
  const lines = ['By test file:', ...fileNames.map((n) => line(n, report.files[n]!, width)), '', 'By test type:'];
  lines.push(...typeNames.map((t) => line(t, report.types[t]!, width)));
  lines.push('', line('all tests', report.overall, width), `  ${'mean of the files'.padEnd(width)}  ${''.padStart(9)}  ${(100 * report.fileAverage).toFixed(1).padStart(5)}%`);
  if (report.failures.length) {
    lines.push('', `Failures (${report.failures.length}):`);
    for (const f of report.failures) lines.push(`  ${f.file} ${f.id} [${f.type}] ${f.pdf} p${f.page}: ${f.detail}`);
  }
  return `${lines.join('\n')}\n`;
}
