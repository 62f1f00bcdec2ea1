/**
 * What the PDF itself says, read by poppler's pdftotext: each page's text, to find on which page a
 * piece of ground truth is printed (and that the text layer has it at all), and which pages set
 * their text in two columns. Used only while building the benchmark; the converters under test
 * never see it.
 */

import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { decodeHtmlText } from '../../../shared/html-entities.js';

const run = promisify(execFile);

interface PageLine {
  text: string;
  /** Top and bottom, in points from the top of the page. */
  yMin: number;
  yMax: number;
}

export interface PdfText {
  /** Each page's text (index 0 is page 1), in pdftotext's reading order. */
  pages: string[];
  /** Each page's lines, top to bottom. */
  lines: PageLine[][];
  /** 1-based numbers of the pages whose lines sit in two columns. */
  twoColumnPages: Set<number>;
}

export async function readPdfText(file: string): Promise<PdfText> {
  const options = { maxBuffer: 512 * 1024 * 1024 };
  const [{ stdout: text }, { stdout: layout }] = await Promise.all([
    run('pdftotext', ['-q', '-enc', 'UTF-8', file, '-'], options),
    run('pdftotext', ['-q', '-bbox-layout', file, '-'], options),
  ]);
  // pdftotext ends every page with a form feed.
  const pages = text.split('\f');
  pages.pop();
  return { pages, lines: pageLines(layout), twoColumnPages: twoColumnPages(layout) };
}

/** The lines of each page of pdftotext's `-bbox-layout` output, sorted top to bottom. */
function pageLines(bboxLayout: string): PageLine[][] {
  return bboxLayout
    .split(/<page /)
    .slice(1)
    .map((page) =>
      [...page.matchAll(/<line xMin="[\d.]+" yMin="([\d.]+)" xMax="[\d.]+" yMax="([\d.]+)">([\s\S]*?)<\/line>/g)]
        .map((match) => ({
          text: [...match[3]!.matchAll(/<word[^>]*>([^<]*)<\/word>/g)].map((word) => decodeHtmlText(word[1]!)).join(' '),
          yMin: Number(match[1]),
          yMax: Number(match[2]),
        }))
        .sort((a, b) => a.yMin - b.yMin),
    );
}

/**
 * Pages where most lines lie wholly in the left or the right half, with enough of each: the lines of
 * a one-column page cross the middle, a two-column page's do not (its title and full-width floats aside).
 */
function twoColumnPages(bboxLayout: string): Set<number> {
  const found = new Set<number>();
  const pages = bboxLayout.split(/<page /).slice(1);
  pages.forEach((page, index) => {
    const width = Number(/width="([\d.]+)"/.exec(page)?.[1] ?? 0);
    if (!width) return;
    let left = 0;
    let right = 0;
    let lines = 0;
    for (const match of page.matchAll(/<line xMin="([\d.]+)" yMin="[\d.]+" xMax="([\d.]+)"/g)) {
      const [xMin, xMax] = [Number(match[1]), Number(match[2])];
      lines++;
      if (xMax <= width * 0.52) left++;
      else if (xMin >= width * 0.48) right++;
    }
    if (left >= 8 && right >= 8 && left + right >= 0.6 * lines) found.add(index + 1);
  });
  return found;
}

/**
 * The letters and digits of a text, lower-cased, without accents or ligatures: what is compared to
 * find a piece of ground truth in pdftotext's output, whatever the hyphenation, spacing, quotes,
 * accents (TeX's separate accent glyphs) or ligatures.
 */
export function letterKey(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .replace(/[^\p{L}\p{N}]+/gu, '')
    .toLowerCase();
}

/** A document's pages by letter key, for finding where a text is printed. */
export class PageFinder {
  private readonly keys: string[];
  /** The pages' keys joined, for what runs across a page break. */
  private readonly all: string;

  /** Each page's text without its white space, lower case, with each character's place in the page. */
  private readonly squeezed: ({ text: string; places: number[] } | undefined)[] = [];

  constructor(private readonly texts: readonly string[]) {
    this.keys = texts.map(letterKey);
    this.all = this.keys.join('');
  }

  /**
   * `text` as page `page` prints it, where the page has spaces `text` lacks and capitals where it
   * has none, and prints it one way wherever it does (ICDAR's ground truth has lost spaces and
   * capitals the text layer has: `Northquay` for `North quay`, `norway`); else `text`.
   */
  printedAs(page: number, text: string): string {
    const raw = this.texts[page - 1];
    const target = text.replace(/\s+/g, '').toLowerCase();
    if (raw === undefined || target === '') return text;
    const squeezed = (this.squeezed[page - 1] ??= squeeze(raw));
    if (!squeezed) return text;
    const forms = new Set<string>();
    for (let at = squeezed.text.indexOf(target); at >= 0; at = squeezed.text.indexOf(target, at + 1)) {
      forms.add(raw.slice(squeezed.places[at]!, squeezed.places[at + target.length - 1]! + 1).replace(/\s+/g, ' '));
    }
    const form = forms.size === 1 ? [...forms][0]! : undefined;
    return form !== undefined && spacedLike(form, text.replace(/\s+/g, ' ').trim()) ? form : text;
  }

  get pageCount(): number {
    return this.keys.length;
  }

  /** 1-based numbers of the pages whose text holds `text`. */
  pagesWith(text: string): number[] {
    const key = letterKey(text);
    if (!key) return [];
    const pages: number[] = [];
    this.keys.forEach((page, index) => {
      if (page.includes(key)) pages.push(index + 1);
    });
    return pages;
  }

  /** How many times `text` occurs in the whole document (pages joined, so a text across a page break counts). */
  occurrences(text: string): number {
    const key = letterKey(text);
    if (!key) return 0;
    let count = 0;
    for (let at = this.all.indexOf(key); at >= 0; at = this.all.indexOf(key, at + 1)) count++;
    return count;
  }

  /** The one page holding `text`, when it is printed exactly once in the document. */
  uniquePage(text: string): number | undefined {
    const pages = this.pagesWith(text);
    return pages.length === 1 && this.occurrences(text) === 1 ? pages[0] : undefined;
  }

  /**
   * The one page holding these words in this order, at most `gap` letters or digits apart (what
   * the PDF prints between them: a reference's number, a formula's letters), when the document
   * holds them so only once.
   */
  uniquePageOfWords(words: readonly string[], gap: number): number | undefined {
    const keys = words.map(letterKey).filter(Boolean);
    if (keys.length === 0) return undefined;
    const pattern = new RegExp(keys.join(`[\\p{L}\\p{N}]{0,${gap}}`), 'gu');
    if ((this.all.match(pattern) ?? []).length !== 1) return undefined;
    const pages = this.keys.flatMap((key, index) => (new RegExp(pattern.source, 'u').test(key) ? [index + 1] : []));
    return pages.length === 1 ? pages[0] : undefined;
  }

  /** How many times `text` occurs on `page`. */
  occurrencesOn(page: number, text: string): number {
    const key = letterKey(text);
    const haystack = this.keys[page - 1] ?? '';
    if (!key) return 0;
    let count = 0;
    for (let at = haystack.indexOf(key); at >= 0; at = haystack.indexOf(key, at + 1)) count++;
    return count;
  }
}

/** A page's text without white space, lower case, each character with its place; undefined where lower case changes a length. */
function squeeze(raw: string): { text: string; places: number[] } | undefined {
  let text = '';
  const places: number[] = [];
  for (let i = 0; i < raw.length; i++) {
    const char = raw[i]!;
    if (/\s/.test(char)) continue;
    const lower = char.toLowerCase();
    if (lower.length !== 1) return undefined;
    text += lower;
    places.push(i);
  }
  return { text, places };
}

/** `printed` is `text` with spaces put in (never taken out), in any case. */
function spacedLike(printed: string, text: string): boolean {
  let j = 0;
  for (const char of printed) {
    if (j < text.length && char.toLowerCase() === text[j]!.toLowerCase()) j++;
    else if (char !== ' ') return false;
  }
  return j === text.length;
}
