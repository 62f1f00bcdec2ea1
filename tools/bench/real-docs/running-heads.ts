/**
 * Absent checks for what a class or a typesetter prints on every page outside the text: running
 * heads and feet (a line at the top or bottom of many pages, alike but for its numbers) and page
 * numbers (a lone number there that keeps pace with the page index). Read from the PDF's own lines
 * by position, since the source does not hold them; lines the ground truth holds as text (a
 * table's heading row repeated on each page) are kept out by `isContent`.
 */

import type { BuiltCheck } from './bench-check.js';
import { spread } from './bench-check.js';
import { letterKey, type PageFinder, type PdfText } from './pdf-text.js';

/** Lines looked at on the top and the bottom row of a page (a head's text and its number may be two). */
const EDGE_LINES = 3;

interface EdgeLine {
  page: number;
  text: string;
  top: boolean;
}

/**
 * A float's caption or its label ("Table 3", "Figure 2: …"): numbered by the document, so one at
 * the top of each of a few pages in a row can keep pace with the page by chance.
 */
const CAPTION_LABEL = /^(?:table|figure|fig\.|tab\.|algorithm|listing|scheme)\s*\d+(?:\.\d+)*[.:]?(?:\s|$)/i;

const template = (text: string) => text.replace(/\d+/g, '#').replace(/\s+/g, ' ').trim().toLowerCase();
const isNumber = (text: string) => /^(?:\d{1,4}|[ivxlc]{1,7})$/i.test(text.trim());

function romanValue(text: string): number {
  const values: Record<string, number> = { i: 1, v: 5, x: 10, l: 50, c: 100 };
  const digits = [...text.toLowerCase()].map((c) => values[c] ?? 0);
  return digits.reduce((sum, value, i) => sum + (value < (digits[i + 1] ?? 0) ? -value : value), 0);
}

/**
 * The running lines and page numbers of a document, as absent checks (at most `limit`, spread over
 * the pages), each only where the page prints its text once.
 */
export function runningLineChecks(pdf: PdfText, pages: PageFinder, isContent: (text: string) => boolean, limit: number): BuiltCheck[] {
  const { lines } = pdf;
  const edges: EdgeLine[] = [];
  lines.forEach((pageLines, index) => {
    const kept = pageLines.filter((line) => line.text.trim() !== '');
    const [first, last] = [kept[0], kept.at(-1)];
    if (!first || !last) return;
    // the lines that share the first line's row, and the last line's
    const top = kept.filter((line) => line.yMin < first.yMax).slice(0, EDGE_LINES);
    const bottom = kept.filter((line) => line.yMax > last.yMin && !top.includes(line)).slice(-EDGE_LINES);
    for (const line of top) edges.push({ page: index + 1, text: line.text.trim(), top: true });
    for (const line of bottom) edges.push({ page: index + 1, text: line.text.trim(), top: false });
  });
  const pageCount = lines.length;
  const enough = Math.max(3, Math.ceil(0.3 * pageCount));

  const byTemplate = new Map<string, EdgeLine[]>();
  for (const edge of edges) {
    const key = `${edge.top}:${template(edge.text)}`;
    byTemplate.set(key, [...(byTemplate.get(key) ?? []), edge]);
  }
  /** The template's lines print the same numbers everywhere, or one of their numbers keeps pace with the page (a caption's table number does not). */
  const steady = (lines: readonly EdgeLine[]) => {
    const numbers = lines.map((line) => (line.text.match(/\d+/g) ?? []).map(Number));
    if (new Set(lines.map((line) => line.text)).size === 1) return true;
    const width = Math.min(...numbers.map((n) => n.length));
    for (let i = 0; i < width; i++) {
      const offsets = new Map<number, number>();
      lines.forEach((line, j) => offsets.set(numbers[j]![i]! - line.page, (offsets.get(numbers[j]![i]! - line.page) ?? 0) + 1));
      if (Math.max(...offsets.values()) >= 0.75 * lines.length) return true;
    }
    return false;
  };
  const runningTemplates = new Set<string>();
  for (const [key, lines] of byTemplate) {
    const shape = key.slice(key.indexOf(':') + 1);
    const letters = shape.replace(/[^\p{L}]/gu, '').length;
    // text, or numbers set apart as a page count is ("3 / 233", "111:4"), not a section number
    if (letters < 3 && !/^[-–(\[]?\s*#\s*[/:–-]\s*#\s*[-–)\]]?$/.test(shape)) continue;
    if (new Set(lines.map((line) => line.page)).size >= enough && steady(lines)) runningTemplates.add(key);
  }
  const running = (edge: EdgeLine) =>
    !isNumber(edge.text) && !CAPTION_LABEL.test(edge.text) && runningTemplates.has(`${edge.top}:${template(edge.text)}`) && !isContent(edge.text);

  // Page numbers: lone numbers at an edge whose difference from the page index most of them share.
  const numbers = edges.filter((edge) => isNumber(edge.text));
  const offsets = new Map<number, number>();
  const offsetOf = (edge: EdgeLine) => (/^\d+$/.test(edge.text) ? Number(edge.text) : romanValue(edge.text)) - edge.page;
  for (const edge of numbers) offsets.set(offsetOf(edge), (offsets.get(offsetOf(edge)) ?? 0) + 1);
  const [offset, count] = [...offsets].sort((a, b) => b[1] - a[1])[0] ?? [0, 0];
  const pageNumber = (edge: EdgeLine) => count >= enough && isNumber(edge.text) && offsetOf(edge) === offset;

  const checks: BuiltCheck[] = [];
  for (let page = 1; page <= pageCount; page++) {
    const onPage = edges.filter((edge) => edge.page === page);
    const removed = onPage.filter((edge) => running(edge) || pageNumber(edge));
    if (removed.length === 0) continue;
    const truth = bodyText(pdf.pages[page - 1] ?? '', removed);
    for (const edge of removed) {
      if (running(edge)) {
        if (pages.occurrencesOn(page, edge.text) !== 1) continue;
        checks.push({ page, spec: { type: 'absent', text: edge.text }, truth });
        continue;
      }
      // A lone number is looked for only at the end of the page it was printed at, so the
      // numbers of the text itself do not count, and only where the text there has none.
      const window = edge.text.length + 3;
      const end = edge.top ? Array.from(truth).slice(0, window).join('') : Array.from(truth).slice(-window).join('');
      if (end.includes(edge.text)) continue;
      checks.push({ page, spec: edge.top ? { type: 'absent', text: edge.text, first_n: window } : { type: 'absent', text: edge.text, last_n: window }, truth });
    }
  }
  return spread(checks, limit);
}

/** The page's text (pdftotext's reading order) without its running lines: what a correct conversion keeps. */
function bodyText(pageText: string, removed: readonly EdgeLine[]): string {
  const gone = new Set(removed.map((edge) => letterKey(edge.text)));
  return pageText
    .split('\n')
    .map((line) => line.trim())
    .filter((text) => text !== '' && !gone.has(letterKey(text)))
    .join('\n');
}
