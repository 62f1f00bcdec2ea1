/**
 * olmOCR-Bench's test types, read from one line of a `*.jsonl` test file and run on the Markdown an
 * engine wrote for that test's page. The rules follow the public scorer (olmocr/bench/tests.py):
 * text checks use rapidfuzz's partial ratio against 1 - max_diffs / length, order checks
 * Levenshtein matches within max_diffs, table checks cell ratios of at least
 * max(0.5, 1 - max_diffs / length), math checks the formula exactly or by its rendering, and the
 * baseline check a non-empty page without runaway repetition or stray scripts; format and footnote
 * checks look at the raw Markdown/HTML markup.
 */

import { nearMatchStarts, partialRatio, ratio } from '../text-match/fuzzy-match.js';
import { checkFootnote, hasFormattedText, TEXT_FORMATS, type TextFormat } from './markup-checks.js';
import { findFormula, renderFormula, type RenderedFormula } from './math.js';
import { normaliseText, PYTHON_WHITESPACE } from '../text-match/normalise.js';
import { parseHtmlTables, parseMarkdownTables } from './tables.js';

export const BENCH_TEST_TYPES = ['present', 'absent', 'order', 'table', 'math', 'baseline', 'format', 'footnote'] as const;
export type BenchTestType = (typeof BENCH_TEST_TYPES)[number];

interface TestBase {
  id: string;
  /** The PDF, relative to the benchmark's `pdfs/` folder. */
  pdf: string;
  /** 1-based. */
  page: number;
  maxDiffs: number;
}

export interface TextPresenceTest extends TestBase {
  type: 'present' | 'absent';
  /** Normalised (and lower-cased unless case-sensitive) as loaded. */
  text: string;
  caseSensitive: boolean;
  firstN?: number;
  lastN?: number;
}

export interface TextOrderTest extends TestBase {
  type: 'order';
  before: string;
  after: string;
}

export interface TableTest extends TestBase {
  type: 'table';
  cell: string;
  up: string;
  down: string;
  left: string;
  right: string;
  topHeading: string;
  leftHeading: string;
  ignoreMarkdownTables: boolean;
}

export interface MathTest extends TestBase {
  type: 'math';
  math: string;
  /** Only `\\(...\\)` and `\\[...\\]` count as formulas. */
  ignoreDollarDelimited: boolean;
  /** The formula rendered, once at load. */
  rendered: RenderedFormula;
}

export interface BaselineTest extends TestBase {
  type: 'baseline';
  /** Set for pages expected to be blank: at most this many letters and digits. */
  maxLength?: number;
  maxLengthSkipsImageAltTags: boolean;
  maxRepeats: number;
  checkDisallowedCharacters: boolean;
}

export interface FormatTest extends TestBase {
  type: 'format';
  /** Normalised as loaded. */
  text: string;
  format: TextFormat;
  caseSensitive: boolean;
}

export interface FootnoteTest extends TestBase {
  type: 'footnote';
  marker: string;
  /** Normalised as loaded. */
  before?: string;
  after?: string;
}

export type BenchTest = TextPresenceTest | TextOrderTest | TableTest | MathTest | BaselineTest | FormatTest | FootnoteTest;

export type TestVerdict = { passed: true } | { passed: false; detail: string };

/** A test line that cannot be run as written. */
export class BenchTestError extends Error {
  override readonly name = 'BenchTestError';
}

/** One parsed JSON line of a test file; `where` (file:line) prefixes every error. */
export function parseBenchTest(value: unknown, where: string): BenchTest {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new BenchTestError(`${where}: a test must be a JSON object`);
  const fields = new TestFields(value as Record<string, unknown>, where);
  const type = fields.string('type');
  if (!(BENCH_TEST_TYPES as readonly string[]).includes(type)) throw new BenchTestError(`${where}: unknown test type "${type}" (one of ${BENCH_TEST_TYPES.join(', ')})`);
  const base: TestBase = { id: fields.string('id'), pdf: fields.string('pdf'), page: fields.integer('page', 1), maxDiffs: fields.optionalInteger('max_diffs', 0) ?? 0 };
  switch (type as BenchTestType) {
    case 'present':
    case 'absent': {
      const caseSensitive = fields.optionalBoolean('case_sensitive') ?? true;
      const text = normaliseText(fields.string('text'));
      if (!text.trim()) throw new BenchTestError(`${where}: "text" is empty`);
      return {
        ...base,
        type: type as 'present' | 'absent',
        text: caseSensitive ? text : text.toLowerCase(),
        caseSensitive,
        firstN: fields.optionalInteger('first_n', 1),
        lastN: fields.optionalInteger('last_n', 1),
      };
    }
    case 'order': {
      const before = normaliseText(fields.string('before'));
      const after = normaliseText(fields.string('after'));
      if (!before.trim() || !after.trim()) throw new BenchTestError(`${where}: "before" and "after" must not be empty`);
      if (base.maxDiffs > Math.floor(before.length / 2) || base.maxDiffs > Math.floor(after.length / 2)) {
        throw new BenchTestError(`${where}: max_diffs ${base.maxDiffs} is more than half of "before" or "after"`);
      }
      return { ...base, type: 'order', before, after };
    }
    case 'table': {
      const text = (name: string) => normaliseText(fields.optionalString(name) ?? '');
      return {
        ...base,
        type: 'table',
        cell: normaliseText(fields.string('cell')),
        up: text('up'),
        down: text('down'),
        left: text('left'),
        right: text('right'),
        topHeading: text('top_heading'),
        leftHeading: text('left_heading'),
        ignoreMarkdownTables: fields.optionalBoolean('ignore_markdown_tables') ?? false,
      };
    }
    case 'math': {
      const math = fields.string('math');
      if (!math.trim()) throw new BenchTestError(`${where}: "math" is empty`);
      const rendered = renderFormula(math);
      if (rendered === undefined) throw new BenchTestError(`${where}: the formula ${math} does not render with KaTeX`);
      return { ...base, type: 'math', math, ignoreDollarDelimited: fields.optionalBoolean('ignore_dollar_delimited') ?? false, rendered };
    }
    case 'format': {
      const text = normaliseText(fields.string('text'));
      if (!text.trim()) throw new BenchTestError(`${where}: "text" is empty`);
      const format = fields.string('format');
      if (!(TEXT_FORMATS as readonly string[]).includes(format)) throw new BenchTestError(`${where}: "format" must be one of ${TEXT_FORMATS.join(', ')}`);
      return { ...base, type: 'format', text, format: format as TextFormat, caseSensitive: fields.optionalBoolean('case_sensitive') ?? true };
    }
    case 'footnote': {
      const marker = fields.string('marker');
      if (marker.includes(' ')) throw new BenchTestError(`${where}: "marker" must not contain spaces`);
      const near = (name: string) => {
        const raw = fields.optionalString(name);
        if (!raw) return undefined;
        const text = normaliseText(raw);
        if (!text.trim()) throw new BenchTestError(`${where}: "${name}" is blank`);
        return text;
      };
      return { ...base, type: 'footnote', marker, before: near('appears_before_marker'), after: near('appears_after_marker') };
    }
    case 'baseline':
      return {
        ...base,
        type: 'baseline',
        maxLength: fields.optionalInteger('max_length', 0),
        maxLengthSkipsImageAltTags: fields.optionalBoolean('max_length_skips_image_alt_tags') ?? false,
        maxRepeats: fields.optionalInteger('max_repeats', 1) ?? 30,
        checkDisallowedCharacters: fields.optionalBoolean('check_disallowed_characters') ?? true,
      };
  }
}

/** Runs one test on the Markdown of its page. */
export function runBenchTest(test: BenchTest, content: string): TestVerdict {
  switch (test.type) {
    case 'present':
    case 'absent':
      return runPresence(test, content);
    case 'order':
      return runOrder(test, content);
    case 'table':
      return runTable(test, content);
    case 'math':
      return findFormula(test.math, test.rendered, content, test.ignoreDollarDelimited);
    case 'baseline':
      return runBaseline(test, content);
    case 'format':
      return hasFormattedText(content, test.format, test.text, test.caseSensitive, test.maxDiffs)
        ? { passed: true }
        : { passed: false, detail: `"${shorten(test.text)}" not found as ${test.format === 'heading' ? 'a heading' : `${test.format} text`}` };
    case 'footnote':
      return checkFootnote(content, { marker: test.marker, before: test.before, after: test.after, maxDiffs: test.maxDiffs });
  }
}

function runPresence(test: TextPresenceTest, content: string): TestVerdict {
  // Python slices and measures strings by code point.
  let text = Array.from(normaliseText(content));
  if (!test.caseSensitive) text = Array.from(text.join('').toLowerCase());
  if (test.firstN && test.lastN) text = [...text.slice(0, test.firstN), ...text.slice(-test.lastN)];
  else if (test.firstN) text = text.slice(0, test.firstN);
  else if (test.lastN) text = text.slice(-test.lastN);
  const length = Array.from(test.text).length;
  const quoted = `"${shorten(test.text)}"`;
  // As olmOCR: an output shorter than the text less max_diffs cannot hold it (partial ratio would
  // otherwise score a lone space inside the text as a perfect match).
  if (text.length < length - test.maxDiffs) {
    return test.type === 'absent' ? { passed: true } : { passed: false, detail: `${quoted} not found (the output has only ${text.length} characters)` };
  }
  const threshold = 1 - test.maxDiffs / (length || 1);
  const best = partialRatio(test.text, text.join(''));
  const found = best >= threshold;
  if (found === (test.type === 'present')) return { passed: true };
  return test.type === 'present'
    ? { passed: false, detail: `${quoted} not found (best match ${best.toFixed(3)}, needs ${threshold.toFixed(3)})` }
    : { passed: false, detail: `${quoted} found (match ${best.toFixed(3)}, must stay under ${threshold.toFixed(3)})` };
}

function runOrder(test: TextOrderTest, content: string): TestVerdict {
  const text = normaliseText(content);
  const before = nearMatchStarts(test.before, text, test.maxDiffs);
  if (!before) return { passed: false, detail: `"${shorten(test.before)}" (before) not found` };
  const after = nearMatchStarts(test.after, text, test.maxDiffs);
  if (!after) return { passed: false, detail: `"${shorten(test.after)}" (after) not found` };
  return before.first < after.last ? { passed: true } : { passed: false, detail: `"${shorten(test.after)}" comes before "${shorten(test.before)}"` };
}

function cellThreshold(expected: string, maxDiffs: number): number {
  return Math.max(0.5, 1 - maxDiffs / (Array.from(expected).length || 1));
}

const RELATIONS = [
  ['up', 'up', 'up'],
  ['down', 'down', 'down'],
  ['left', 'left', 'left'],
  ['right', 'right', 'right'],
  ['leftHeading', 'leftHeading', 'left heading'],
  ['topHeading', 'topHeading', 'top heading'],
] as const;

function runTable(test: TableTest, content: string): TestVerdict {
  const tables = [...(test.ignoreMarkdownTables ? [] : parseMarkdownTables(content)), ...parseHtmlTables(content)];
  if (tables.length === 0) return { passed: false, detail: 'no tables in the output' };
  const reasons: string[] = [];
  const threshold = cellThreshold(test.cell, test.maxDiffs);
  for (const table of tables) {
    const texts = new Map([...table.cellText].map(([key, text]) => [key, normaliseText(text)]));
    for (const [key, text] of texts) {
      if (ratio(test.cell, text) < threshold) continue;
      // As olmOCR: each relation asked for must be met by one of the cell's cells in that direction; none there fails it.
      const wrong: string[] = [];
      for (const [field, relation, words] of RELATIONS) {
        const expected = test[field];
        if (!expected) continue;
        let best = { text: '', score: 0 };
        for (const other of table[relation].get(key) ?? []) {
          const found = texts.get(other) ?? '';
          const score = ratio(expected, found);
          if (score > best.score) best = { text: found, score };
        }
        if (best.score < cellThreshold(expected, test.maxDiffs)) wrong.push(best.text ? `${words} is "${shorten(best.text)}", not "${shorten(expected)}"` : `no ${words} like "${shorten(expected)}"`);
      }
      if (wrong.length === 0) return { passed: true };
      reasons.push(...wrong);
    }
  }
  if (reasons.length === 0) return { passed: false, detail: `no cell like "${shorten(test.cell)}" in ${tables.length} table(s)` };
  return { passed: false, detail: `cells like "${shorten(test.cell)}" found, but ${reasons.slice(0, 3).join('; ')}${reasons.length > 3 ? `; and ${reasons.length - 3} more` : ''}` };
}

const DISALLOWED = /[\u4e00-\u9fff\u3040-\u309f\u30a0-\u30ff\u{1f600}-\u{1f64f}\u{1f300}-\u{1f5ff}\u{1f680}-\u{1f6ff}\u{1f1e0}-\u{1f1ff}]/gu;
const MAX_NGRAM = 5;

function runBaseline(test: BaselineTest, content: string): TestVerdict {
  if (test.maxLength !== undefined) {
    const counted = test.maxLengthSkipsImageAltTags ? content.replace(/!\[.*?\]\(.*?\)/g, '') : content;
    const length = alphanumericCount(counted);
    return length > test.maxLength ? { passed: false, detail: `${length} letters and digits on a page expected to be blank (at most ${test.maxLength})` } : { passed: true };
  }
  if (alphanumericCount(content) === 0) return { passed: false, detail: 'the page has no letters or digits' };
  const repeats = trailingRepeats(content);
  const runaway = repeats.findIndex((count) => count > test.maxRepeats);
  if (runaway >= 0) return { passed: false, detail: `the text ends with ${repeats[runaway]} repeats of a ${runaway + 1}-character sequence` };
  const stray = content.match(DISALLOWED);
  if (test.checkDisallowedCharacters && stray) return { passed: false, detail: `characters from scripts not expected here: ${[...new Set(stray)].slice(0, 8).join(' ')}` };
  return { passed: true };
}

function alphanumericCount(text: string): number {
  return (text.match(/[\p{L}\p{N}]/gu) ?? []).length;
}

/** For n = 1..5: how many times the text's last n characters repeat back to back at its end, whitespace runs as one space (olmOCR's RepeatDetector). */
export function trailingRepeats(content: string): number[] {
  const text = Array.from(content.replace(PYTHON_WHITESPACE, ' '));
  return Array.from({ length: MAX_NGRAM }, (_, index) => {
    const size = index + 1;
    if (text.length < size) return 0;
    const target = text.slice(-size).join('');
    let count = 0;
    for (let pos = text.length - size; pos >= 0 && text.slice(pos, pos + size).join('') === target; pos -= size) count++;
    return count;
  });
}

function shorten(text: string): string {
  return text.length > 48 ? `${text.slice(0, 45)}...` : text;
}

/** Reads the fields of one test line, saying which field is wrong and where. */
class TestFields {
  constructor(
    private readonly record: Record<string, unknown>,
    private readonly where: string,
  ) {}

  string(name: string): string {
    const value = this.record[name];
    if (typeof value !== 'string' || value === '') throw new BenchTestError(`${this.where}: "${name}" must be a non-empty string`);
    return value;
  }

  optionalString(name: string): string | undefined {
    const value = this.record[name];
    if (value === undefined || value === null) return undefined;
    if (typeof value !== 'string') throw new BenchTestError(`${this.where}: "${name}" must be a string`);
    return value;
  }

  integer(name: string, min: number): number {
    const value = this.optionalInteger(name, min);
    if (value === undefined) throw new BenchTestError(`${this.where}: "${name}" is missing`);
    return value;
  }

  optionalInteger(name: string, min: number): number | undefined {
    const value = this.record[name];
    if (value === undefined || value === null) return undefined;
    if (typeof value !== 'number' || !Number.isInteger(value) || value < min) throw new BenchTestError(`${this.where}: "${name}" must be a whole number of at least ${min}`);
    return value;
  }

  optionalBoolean(name: string): boolean | undefined {
    const value = this.record[name];
    if (value === undefined || value === null) return undefined;
    if (typeof value !== 'boolean') throw new BenchTestError(`${this.where}: "${name}" must be true or false`);
    return value;
  }
}
