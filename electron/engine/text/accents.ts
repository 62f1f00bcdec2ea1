/**
 * Letters with diacritics as one character. TeX and some other producers set an accent as its own
 * spacing glyph (´ ˇ ¨ ˜ `) kerned back over the letter that follows, so the text layer reads
 * `J´an`; pdftotext composes such pairs by position, and so do we: the accent becomes the
 * combining mark on that letter, then the text is NFC-normalised. A pair with no precomposed
 * letter (`´t`) is left as it was.
 */

import { overlapRatio, type TextRun } from '../layout/geometry.js';

/** Spacing accents and the combining marks they stand for. */
const COMBINING: Readonly<Record<string, string>> = {
  '\u00B4': '\u0301', // acute
  '\u02CA': '\u0301',
  '\u0060': '\u0300', // grave
  '\u02CB': '\u0300',
  '\u02C7': '\u030C', // caron
  '\u00A8': '\u0308', // diaeresis
  '\u02DC': '\u0303', // tilde
  '\u02C6': '\u0302', // circumflex
  '\u02D8': '\u0306', // breve
  '\u02DA': '\u030A', // ring
  '\u02D9': '\u0307', // dot above
  '\u02DD': '\u030B', // double acute
  '\u00AF': '\u0304', // macron
  '\u00B8': '\u0327', // cedilla
  '\u02DB': '\u0328', // ogonek
};

const ACCENT_THEN_LETTER = /([\u00B4\u02CA\u0060\u02CB\u02C7\u00A8\u02DC\u02C6\u02D8\u02DA\u02D9\u02DD\u00AF\u00B8\u02DB])(\p{L})/gu;
/** `it´s`, `don´t`: an acute or grave standing in for an apostrophe before an English ending. */
const APOSTROPHE_ENDING = /^(?:s|t|d|m|ll|re|ve)(?!\p{L})/u;
const ACCENT_AT_END = /([\u00B4\u02CA\u0060\u02CB\u02C7\u00A8\u02DC\u02C6\u02D8\u02DA\u02D9\u02DD\u00AF\u00B8\u02DB])$/u;

/**
 * ASCII's circumflex and tilde stand for the accents only where a glyph of them is drawn over a
 * letter (a font whose accents map to them), never in running text (`a^b`, `~/path`).
 */
const OVER_LETTER_ONLY: Readonly<Record<string, string>> = { '^': '\u0302', '~': '\u0303' };

/** Whether `text` is an accent glyph that may be drawn over (or under) a letter. */
export function isAccentGlyph(text: string): boolean {
  return Object.hasOwn(COMBINING, text) || Object.hasOwn(OVER_LETTER_ONLY, text);
}

/**
 * `letter` with the accent drawn over (or under) it, as one character: for a glyph placed on the
 * letter, so ASCII `^` and `~` count too. Undefined when `accent` is none or Unicode has no such letter.
 */
export function letterWithAccent(letter: string, accent: string): string | undefined {
  const mark = COMBINING[accent] ?? OVER_LETTER_ONLY[accent];
  return mark === undefined ? undefined : composed(letter, mark);
}

/** One letter with one mark as a single character, or undefined when Unicode has none. */
function composed(letter: string, mark: string): string | undefined {
  // TeX accents i and j over their dotless forms (\'\i): the accented letter is the dotted one's.
  const base = letter === '\u0131' ? 'i' : letter === '\u0237' ? 'j' : letter;
  const joined = (base + mark).normalize('NFC');
  return [...joined].length === 1 ? joined : undefined;
}

/** A run's text with accent-then-letter pairs composed and NFC applied. */
export function composeAccents(text: string): string {
  const result = text.replace(ACCENT_THEN_LETTER, (pair, accent: string, letter: string, offset: number, whole: string) => {
    const before = whole[offset - 1] ?? '';
    const after = whole.slice(offset + 1);
    if ((accent === '\u00B4' || accent === '\u0060') && /\p{L}/u.test(before) && APOSTROPHE_ENDING.test(after)) return pair;
    return composed(letter, COMBINING[accent]!) ?? pair;
  });
  return result.normalize('NFC');
}

/**
 * The same across runs: a producer that kerns back over the letter often ends the text item
 * with the accent and starts the next one, on the same row, at or before the accent's right edge.
 */
export function composeAccentsAcrossRuns(runs: readonly TextRun[]): TextRun[] {
  const result = [...runs];
  for (let i = 0; i < result.length; i++) {
    const run = result[i]!;
    const accent = ACCENT_AT_END.exec(run.text)?.[1];
    if (!accent) continue;
    const j = result.findIndex(
      (other) =>
        other !== run &&
        /^\p{L}/u.test(other.text) &&
        other.x0 >= run.x1 - 0.6 * run.fontSize &&
        other.x0 <= run.x1 + 0.2 * run.fontSize &&
        overlapRatio(other.y0, other.y1, run.y0, run.y1) > 0.5,
    );
    if (j === -1) continue;
    const next = result[j]!;
    const before = run.text.slice(0, -accent.length);
    const [letter = '', ...rest] = [...next.text];
    const apostrophe = (accent === '\u00B4' || accent === '\u0060') && /\p{L}$/u.test(before) && APOSTROPHE_ENDING.test(next.text);
    const joined = apostrophe ? undefined : composed(letter, COMBINING[accent]!);
    if (!joined) continue;
    result[i] = { ...run, text: before };
    result[j] = { ...next, text: joined + rest.join('') };
  }
  return result.filter((run) => run.text.trim().length > 0);
}
