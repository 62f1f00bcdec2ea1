/**
 * Checks from a TeX Live sample paper or manual and the LaTeX source it was built from: sentences
 * of running text present, consecutive paragraphs in order on two-column pages, display formulas
 * of standard LaTeX, `tabular` cells with their neighbours, and running heads and page numbers
 * absent. Each is placed on the page whose text holds it (once in the whole document), so code
 * shown beside its output, text across a page break and anything the text layer garbles are left out.
 */

import type { BuiltCheck } from './bench-check.js';
import { spread, textMaxDiffs } from './bench-check.js';
import { displayRows, isStandardFormula } from './display-math.js';
import { readTexDocument, readTexSource } from './latex-source.js';
import { letterKey, type PageFinder, type PdfText } from './pdf-text.js';
import { runningLineChecks } from './running-heads.js';
import { readTabular } from './tex-tabular.js';
import { texToText } from './tex-text.js';
import { passesOn } from './truth-check.js';
import { tableChecks, tableHtml } from './truth-table.js';

/** At most this many checks of each kind per document, spread over its pages. */
const TEXLIVE_LIMITS = { present: 30, order: 15, math: 40, table: 30, absent: 30 } as const;
const PRESENT_PER_PAGE = 2;
/** Table checks per table. */
const TABLE_CHECKS = 6;
/** Rows of one multi-row display that are checked. */
const ROWS_PER_DISPLAY = 3;

/** Sentence ends: `.`, `?` or `!` (a closing quote or bracket may follow), then space and a capital. */
const SENTENCE_END = /(?<=[.?!](?:''|'|\)|\})?)\s+(?=``|\(|\\emph\{|\\text[a-z]{2}\{|\{\\(?:em|bf|it)\s|[A-Z])/;

/** A sentence worth checking: long enough to be distinctive, short enough to be one. */
function isSentence(text: string): boolean {
  const words = text.split(' ').length;
  return words >= 6 && words <= 60 && text.replace(/[^\p{L}]/gu, '').length >= 25;
}

export function sentences(paragraph: string): string[] {
  return paragraph.split(SENTENCE_END).map((raw) => raw.trim()).filter(Boolean);
}

/** The longest run of words at the end (or start) of `raw`, at most 15, that prints with certainty and is worth finding. */
function cleanEdge(raw: string, end: 'last' | 'first'): string | undefined {
  const words = raw.replace(/\\FOLIO[A-Z]+/g, ' ').trim().split(/\s+/);
  for (let n = Math.min(15, words.length); n >= 6; n--) {
    const text = texToText((end === 'last' ? words.slice(-n) : words.slice(0, n)).join(' '));
    if (text !== undefined && text.replace(/[^\p{L}]/gu, '').length >= 25) return text;
  }
  return undefined;
}

/**
 * The page of a display formula: the page printing the last words of the text before it (TeX does
 * not break a page before a display). Words only: inline math, references and citations print
 * otherwise, so they are dropped and may stand between the words.
 */
function displayPage(before: string, pages: PageFinder): number | undefined {
  const text = before
    .replace(/\$[^$]*\$|\\\([\s\S]*?\\\)/g, ' ')
    .replace(/\\(?:ref|eqref|cite|citep|citet|pageref|label|lemref|autoref|cref|Cref)\*?\s*(?:\[[^\]]*\])?\s*\{[^}]*\}/g, ' ')
    .replace(/\\[a-zA-Z]+\*?/g, ' ');
  const words = text.match(/[A-Za-z]{3,}/g) ?? [];
  for (const count of [8, 6, 5]) {
    const last = words.slice(-count);
    if (last.length < count || last.join('').length < 20) continue;
    const page = pages.uniquePageOfWords(last, 40);
    if (page !== undefined) return page;
  }
  return undefined;
}

export async function texliveChecks(texFile: string, pdf: PdfText, pages: PageFinder): Promise<BuiltCheck[]> {
  const doc = readTexDocument(await readTexSource(texFile));
  const checks: BuiltCheck[] = [];

  // Present: whole sentences, printed once.
  const present: BuiltCheck[] = [];
  const perPage = new Map<number, number>();
  for (const paragraph of doc.paragraphs) {
    if (paragraph === undefined) continue;
    for (const raw of sentences(paragraph)) {
      const text = texToText(raw);
      if (text === undefined || !isSentence(text)) continue;
      const page = pages.uniquePage(text);
      if (page === undefined || (perPage.get(page) ?? 0) >= PRESENT_PER_PAGE) continue;
      perPage.set(page, (perPage.get(page) ?? 0) + 1);
      present.push({ page, spec: { type: 'present', text, max_diffs: textMaxDiffs(text) }, truth: text });
    }
  }
  checks.push(...spread(present, TEXLIVE_LIMITS.present));

  // Order: the end of a paragraph before the start of the next, on a two-column page.
  const order: BuiltCheck[] = [];
  for (let i = 0; i + 1 < doc.paragraphs.length; i++) {
    const [first, second] = [doc.paragraphs[i], doc.paragraphs[i + 1]];
    if (first === undefined || second === undefined) continue;
    const before = cleanEdge(first, 'last');
    const after = cleanEdge(second, 'first');
    if (before === undefined || after === undefined) continue;
    const page = pages.uniquePage(before);
    if (page === undefined || page !== pages.uniquePage(after) || !pdf.twoColumnPages.has(page)) continue;
    const maxDiffs = Math.min(textMaxDiffs(before), textMaxDiffs(after));
    order.push({ page, spec: { type: 'order', before, after, max_diffs: maxDiffs }, truth: `${before}\n\n${after}` });
  }
  checks.push(...spread(order, TEXLIVE_LIMITS.order));

  // Math: rows of displays in standard LaTeX, on the page of the text just before them (TeX
  // does not break a page before a display).
  const math: BuiltCheck[] = [];
  if (!doc.packages.has('nath')) {
    for (const display of doc.displays) {
      const page = displayPage(display.before, pages);
      if (page === undefined) continue;
      const rows = displayRows(display.environment, display.body).filter((row) => isStandardFormula(row, doc.defined));
      for (const row of rows.slice(0, ROWS_PER_DISPLAY)) {
        const truth = `$$\n${row}\n$$`;
        const spec = { type: 'math' as const, math: row };
        if (passesOn(spec, truth)) math.push({ page, spec, truth });
      }
    }
  }
  checks.push(...spread(math, TEXLIVE_LIMITS.math));

  // Tables: on the page where most of their cells are printed.
  const table: BuiltCheck[] = [];
  const cellKeys = new Set<string>();
  for (const body of doc.tabulars) {
    const truth = readTabular(body);
    if (!truth) continue;
    for (const cell of truth.cells) cellKeys.add(letterKey(cell.text));
    const page = tablePage(truth.cells.filter((c) => c.usable).map((c) => c.text), pages);
    if (page === undefined) continue;
    const html = tableHtml(truth);
    const printed = (text: string) => pages.occurrencesOn(page, text) > 0;
    for (const spec of tableChecks(truth, printed, TABLE_CHECKS)) table.push({ page, spec, truth: html });
  }
  checks.push(...spread(table, TEXLIVE_LIMITS.table));

  // Absent: running heads and page numbers, not what the source holds as text (a table's heading
  // row or a test document's sentence repeated on each page).
  const sourceKey = letterKey([...doc.paragraphs, ...doc.tabulars].join(' '));
  const isContent = (line: string) => {
    const key = letterKey(line);
    return cellKeys.has(key) || (key.length >= 6 && sourceKey.includes(key));
  };
  checks.push(...runningLineChecks(pdf, pages, isContent, TEXLIVE_LIMITS.absent));
  return checks;
}

/** The page printing most of a table's distinctive cells, when that is most of them. */
function tablePage(texts: readonly string[], pages: PageFinder): number | undefined {
  const distinctive = texts.filter((text) => letterKey(text).length >= 4);
  const votes = new Map<number, number>();
  for (const text of distinctive) for (const page of pages.pagesWith(text)) votes.set(page, (votes.get(page) ?? 0) + 1);
  const [page, count] = [...votes].sort((a, b) => b[1] - a[1] || a[0] - b[0])[0] ?? [undefined, 0];
  return page !== undefined && count >= 2 && count >= 0.6 * distinctive.length ? page : undefined;
}
