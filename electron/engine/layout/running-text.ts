/**
 * Running headers, footers and page numbers: text in the top or bottom band of the page that
 * repeats, digits aside, at about the same place on a neighbouring page, and lone page numbers
 * there ("3", "Page 3 of 10", "- 3 -", "iv").
 */

import type { Box } from './geometry.js';

export type Band = 'top' | 'bottom';
/** Where running text was found: a band, or the side margin (line numbers), which is never a header or footer. */
export type RunningPlace = Band | 'side';

/** A light signature of one line in a page's top or bottom band, kept per page for neighbours. */
export interface BandLine {
  key: string;
  /** Vertical centre in the frame, points. */
  y: number;
  band: Band;
}

export interface BandCandidate<T extends Box> {
  item: T;
  text: string;
  band: Band;
}

/** Share of the page height that counts as the top or bottom band (LaTeX's page numbers sit 14% up). */
const BAND = 0.15;
/** How far (share of page height) a repeated line may move between pages. */
const POSITION_TOLERANCE = 0.02;
/** Share of the page height, from the text's own top and bottom, that counts as a band too. */
const CONTENT_BAND = 0.08;

const PAGE_NUMBER = [
  /^\d{1,4}$/,
  /^[-–—]\s*\d{1,4}\s*[-–—]$/,
  /^(page|p\.|pg\.?|seite|página|pagina)\s*\d{1,4}(\s*(of|\/|de|von)\s*\d{1,4})?$/i,
  /^\d{1,4}\s*(\/|of)\s*\d{1,4}$/i,
  /^(?=[ivxlcdm])m{0,3}(cm|cd|d?c{0,3})(xc|xl|l?x{0,3})(ix|iv|v?i{0,3})$/i,
];

export function isPageNumber(text: string): boolean {
  const t = text.trim();
  return PAGE_NUMBER.some((pattern) => pattern.test(t));
}

/** Lower case, digits folded, spaces collapsed: "Page 3" and "Page 4" share a key. */
export function bandKey(text: string): string {
  return text.toLowerCase().replace(/\d+/g, '#').replace(/\s+/g, ' ').trim();
}

/**
 * The band a line is in: the page's top or bottom 15%, or, on a page whose text sits well inside
 * the sheet (a book page printed on a larger sheet), the topmost or bottommost line of the text
 * (`content`: the extent of all the page's lines) within 8% of the page's height of its edge.
 */
export function bandOf(box: Box, pageHeight: number, content?: { y0: number; y1: number }): Band | undefined {
  if (box.y1 <= pageHeight * BAND) return 'top';
  if (box.y0 >= pageHeight * (1 - BAND)) return 'bottom';
  if (!content) return undefined;
  const outermost = 0.5 * (box.y1 - box.y0);
  if (box.y0 - content.y0 < outermost && box.y1 <= content.y0 + pageHeight * CONTENT_BAND) return 'top';
  if (content.y1 - box.y1 < outermost && box.y0 >= content.y1 - pageHeight * CONTENT_BAND) return 'bottom';
  return undefined;
}

/** The vertical extent of a page's lines, for bandOf. */
export function contentExtent(boxes: readonly Box[]): { y0: number; y1: number } | undefined {
  if (boxes.length === 0) return undefined;
  return { y0: Math.min(...boxes.map((b) => b.y0)), y1: Math.max(...boxes.map((b) => b.y1)) };
}

export function toBandLine(text: string, box: Box, band: Band): BandLine {
  return { key: bandKey(text), y: (box.y0 + box.y1) / 2, band };
}

/** Overlapping by half the shorter one's height: side by side on one row. */
export function sameRow(a: Box, b: Box): boolean {
  const overlap = Math.min(a.y1, b.y1) - Math.max(a.y0, b.y0);
  return overlap > 0.5 * Math.min(a.y1 - a.y0, b.y1 - b.y0);
}

/**
 * What a single page tells of its margins, without neighbours: lines that match the patterns of
 * banners, download stamps and identifiers, and in the top band lines set smaller than the body
 * with nothing but such lines between them and the page edge.
 */
/** What a reader's or a server's download adds to every page: never what the page itself says. */
const STAMP_PATTERNS = [
  /^(downloaded|download date|accessed|retrieved|printed)\b/i,
  /\bdoi\.org\/|^doi:?\s*10\.\d{4,}/i,
  /^\S*(https?:\/\/|www\.)\S+$/i,
  /\bpage\s+\d+\s+of\s+\d+\b/i,
];
const MARGIN_PATTERNS = [
  ...STAMP_PATTERNS,
  /\b(vol\.?|volume)\s*\d+.*\b(no\.?|issue|nr\.?)\s*\d+/i,
  /\b\d+\s*\(\d+\)\s*[,:]\s*(pp?\.\s*)?\d+\s*[-–]\s*\d+\b/,
  /©|\bcopyright\b|\ball rights reserved\b/i,
  /\bISSN\b|\bISBN\b/,
];

export function isMarginText(text: string): boolean {
  return MARGIN_PATTERNS.some((pattern) => pattern.test(text.trim()));
}

/** A download stamp, a DOI or URL line, "Page 1 of 3": margin matter a page never holds alone of its own. */
export function isStampText(text: string): boolean {
  return STAMP_PATTERNS.some((pattern) => pattern.test(text.trim()));
}

/** Facts about one candidate that only its page's layout tells. */
export interface CandidateFacts {
  /** Set like the body and spaced like its lines: the body's first or last line, never running. */
  continuesBody: boolean;
  /** Set clearly smaller than the page's body text. */
  smallerThanBody: boolean;
  /** Set clearly larger than the page's body text: a title or heading, never a running head. */
  largerThanBody?: boolean;
  /** Blank space between it and the next line towards the page's middle, in its own heights (Infinity: none). */
  gapInward?: number;
  /** The next line towards the page's middle when it is of the same paragraph (its size, at line spacing, aligned). */
  wrapsInto?: Box;
}

/**
 * The candidates that are running text: lines whose signature a neighbour page repeats at about
 * the same height, lines whose text or size marks them as margin matter (see MARGIN_PATTERNS),
 * and lone page numbers. A number counts as a page number only when the rest of its row is
 * running text too: in a table row at the page foot, the numbers sit beside cells that are not
 * ("2021  Hollin Brook  34"). A line that continues the body is never running text.
 */
export function runningText<T extends Box>(
  candidates: readonly BandCandidate<T>[],
  neighbours: readonly (readonly BandLine[])[],
  pageHeight: number,
  factsOf: (candidate: BandCandidate<T>) => CandidateFacts = () => ({ continuesBody: false, smallerThanBody: false }),
): Set<T> {
  const tolerance = Math.max(6, pageHeight * POSITION_TOLERANCE);
  const repeated = new Set<BandCandidate<T>>();
  const numbers = new Set<BandCandidate<T>>();
  const facts = new Map(candidates.map((c) => [c, factsOf(c)]));
  for (const candidate of candidates) {
    if (facts.get(candidate)!.continuesBody) continue;
    if (isPageNumber(candidate.text)) {
      numbers.add(candidate);
      continue;
    }
    const line = toBandLine(candidate.text, candidate.item, candidate.band);
    if (line.key.replace(/[^\p{L}\p{N}#]/gu, '').length === 0) continue;
    const seen = neighbours.some((page) =>
      page.some((other) => other.band === line.band && other.key === line.key && Math.abs(other.y - line.y) <= tolerance),
    );
    if (seen) repeated.add(candidate);
  }
  // Figures alone ("12.5", "0.05 0.056") repeat by chance from a table on the next page: like a
  // page number, they are running text only where the rest of their row is.
  for (const candidate of repeated) {
    if (/\p{L}/u.test(candidate.text)) continue;
    const rowMates = candidates.filter((c) => c !== candidate && sameRow(c.item, candidate.item));
    if (!rowMates.every((c) => repeated.has(c) || isPageNumber(c.text))) repeated.delete(candidate);
  }
  // Margin matter by its own look stands alone on its row: beside a title or a cell it is content.
  const marginal = new Set([...candidates.filter((c) => !facts.get(c)!.continuesBody && isMarginText(c.text)), ...outermostSmall(candidates, facts)]);
  for (const candidate of contentAmongRepeated(candidates, repeated, marginal, facts)) repeated.delete(candidate);
  for (const candidate of marginal) {
    const rowMates = candidates.filter((c) => c !== candidate && sameRow(c.item, candidate.item));
    if (rowMates.every((c) => marginal.has(c) || repeated.has(c) || isPageNumber(c.text))) repeated.add(candidate);
  }
  const running = new Set<T>([...repeated].map((c) => c.item));
  for (const number of numbers) {
    const rowMates = candidates.filter((c) => c !== number && sameRow(c.item, number.item));
    if (rowMates.every((c) => repeated.has(c))) running.add(number.item);
    else if (isFolioRow(number, rowMates, candidates, running, facts)) for (const c of [number, ...rowMates]) running.add(c.item);
  }
  // An article's page ("214:7") is a folio only beside a running title, never alone (a time, a ratio).
  for (const number of candidates.filter((c) => ARTICLE_PAGE.test(c.text.trim()) && !facts.get(c)!.continuesBody)) {
    const rowMates = candidates.filter((c) => c !== number && sameRow(c.item, number.item));
    if (rowMates.length > 0 && isFolioRow(number, rowMates, candidates, running, facts)) for (const c of [number, ...rowMates]) running.add(c.item);
  }
  for (const candidate of candidates) {
    if (running.has(candidate.item) || !hasFolioInText(candidate.text.trim())) continue;
    const row = candidates.filter((c) => c === candidate || sameRow(c.item, candidate.item));
    if (isHeadWithFolio(row, candidates, running, facts)) for (const c of row) running.add(c.item);
  }
  for (const footer of outermostMarginRows(candidates, running, facts, pageHeight)) running.add(footer.item);
  for (const under of underFolios(candidates, running, facts)) running.add(under.item);
  return running;
}

/** Points a line under a folio may reach back over it (rounding of boxes). */
const UNDER_SLACK = 1;

/**
 * Lines under the page's number at its foot, between it and the sheet's edge: a publisher's name
 * under "3 of 8". A page's own text, footnotes included, lies above its number. Only under a
 * number set well apart from the text above it (FOOT_GAP lines: a chart's lone tick label sits
 * closer to its neighbours), and only short lines, no larger than the body and no caption.
 */
function underFolios<T extends Box>(
  candidates: readonly BandCandidate<T>[],
  running: ReadonlySet<T>,
  facts: ReadonlyMap<BandCandidate<T>, CandidateFacts>,
): BandCandidate<T>[] {
  const folios = candidates.filter((c) => c.band === 'bottom' && running.has(c.item) && isPageNumber(c.text) && (facts.get(c)!.gapInward ?? 0) >= FOOT_GAP);
  return candidates.filter((c) => {
    const fact = facts.get(c)!;
    const text = c.text.trim();
    if (c.band !== 'bottom' || running.has(c.item) || fact.continuesBody || fact.largerThanBody || text.length > RUNNING_HEAD_CHARS || CAPTION_LABEL.test(text)) return false;
    return folios.some((folio) => !sameRow(folio.item, c.item) && c.item.y0 >= folio.item.y1 - UNDER_SLACK);
  });
}

/**
 * Repeated lines that are the page's own text: a running head neither runs on into the page's text
 * nor has any above it. A line is content when its row wraps into a line of the same paragraph that
 * no neighbour repeats (a continued table's title, "…by month: 2019" over "through
 * 2026—Continued"), and in the top band when content lies above it (the same table's subtitle and
 * column headings under that title, at the same heights on every page of the table).
 */
function contentAmongRepeated<T extends Box>(
  candidates: readonly BandCandidate<T>[],
  repeated: ReadonlySet<BandCandidate<T>>,
  marginal: ReadonlySet<BandCandidate<T>>,
  facts: ReadonlyMap<BandCandidate<T>, CandidateFacts>,
): Set<BandCandidate<T>> {
  const content = new Set<BandCandidate<T>>();
  const running = (c: BandCandidate<T>) => (repeated.has(c) && !content.has(c)) || marginal.has(c) || isPageNumber(c.text);
  const rowOf = (c: BandCandidate<T>) => candidates.filter((o) => o === c || sameRow(o.item, c.item));
  const byItem = new Map(candidates.map((c) => [c.item as Box, c]));
  for (let changed = true; changed; ) {
    changed = false;
    for (const candidate of repeated) {
      if (content.has(candidate)) continue;
      const row = rowOf(candidate);
      const wraps = row.some((c) => {
        const next = facts.get(c)!.wrapsInto;
        const inward = next && byItem.get(next);
        return inward !== undefined && !running(inward);
      });
      if (!wraps) continue;
      for (const c of row) if (repeated.has(c)) content.add(c);
      changed = true;
    }
  }
  const top = candidates.filter((c) => c.band === 'top').sort((a, b) => a.item.y0 - b.item.y0);
  for (const candidate of top) {
    if (!repeated.has(candidate) || content.has(candidate)) continue;
    const above = top.filter((o) => o.item.y1 <= candidate.item.y0 + 0.5 * (o.item.y1 - o.item.y0) && !sameRow(o.item, candidate.item));
    if (above.some((o) => !running(o))) content.add(candidate);
  }
  return content;
}

/** A page number this many of its row's heights from the text beside it is set apart, as a folio is. */
const FOLIO_GAP = 3;
/** Words of a running head beside its folio: a title, author or journal line, never a paragraph. */
const RUNNING_HEAD_CHARS = 100;
/** A journal article's page: article 111, page 9. */
const ARTICLE_PAGE = /^\d{1,4}:\d{1,4}$/;
/**
 * A running head's own text that ends with its page number ("Hale 2", "Title • 214:7"), or begins
 * with it and a separator ("2 / DRAFT FOR COMMENT"), never with a note's mark (a footnote is
 * "1 The map…"); up to three digits, so that a year ("Works Programme 2027") is none.
 */
function hasFolioInText(text: string): boolean {
  return LEADING_FOLIO.test(text) || (TRAILING_FOLIO.test(text) && !NOTE_MARK.test(text));
}
const LEADING_FOLIO = /^\d{1,3}(?::\d{1,4})?\s*[/|•·]\s*\p{L}/u;
const TRAILING_FOLIO = /\p{L}[.,]?\s*(?:[/|•·]\s*)?(?<!\d)\d{1,3}(?::\d{1,4})?$/u;
const NOTE_MARK = /^[\d¹²³⁰-⁹*†‡§¶]/u;
/** A float's caption label, which a page may begin or end with: "Table 2", "Figure 3". */
const CAPTION_LABEL = /^(?:table|figure|fig\.|tab\.|algorithm|listing|scheme|chart|plate|exhibit)\s*\d/i;
/** Blank space (in the row's heights) that sets a running head with its folio in its text apart from the body, as a folio row's. */
const HEAD_GAP = 1;

/**
 * A running head or foot whose page number is part of its own text ("Hale 2", "2 / DRAFT FOR
 * COMMENT"), read from the page alone: the outermost row of its band, no larger than the body and no
 * part of it, set apart from it by a line's height of blank space, short, and no caption.
 */
function isHeadWithFolio<T extends Box>(
  row: readonly BandCandidate<T>[],
  candidates: readonly BandCandidate<T>[],
  running: ReadonlySet<T>,
  facts: ReadonlyMap<BandCandidate<T>, CandidateFacts>,
): boolean {
  const band = row[0]!.band;
  if (row.some((c) => c.band !== band || facts.get(c)!.continuesBody || facts.get(c)!.largerThanBody)) return false;
  if (row.some((c) => c.text.length > RUNNING_HEAD_CHARS || CAPTION_LABEL.test(c.text.trim()))) return false;
  if (!row.some((c) => (facts.get(c)!.gapInward ?? 0) >= HEAD_GAP)) return false;
  return outermost(row, candidates, running);
}

/**
 * A running head or foot read from the page alone: the outermost row of its band, a page number at
 * one end set well apart from a short title or author line, no larger than the body, with blank
 * space between the row and the body ("18      Schwarz et al."). A table's last row has more than
 * one number, and a numbered heading's number sits beside its words.
 */
function isFolioRow<T extends Box>(
  number: BandCandidate<T>,
  rowMates: readonly BandCandidate<T>[],
  candidates: readonly BandCandidate<T>[],
  running: ReadonlySet<T>,
  facts: ReadonlyMap<BandCandidate<T>, CandidateFacts>,
): boolean {
  const row = [number, ...rowMates];
  const height = number.item.y1 - number.item.y0;
  if (row.some((c) => c.band !== number.band || facts.get(c)!.continuesBody || facts.get(c)!.largerThanBody)) return false;
  if (rowMates.some((c) => isPageNumber(c.text) || c.text.length > RUNNING_HEAD_CHARS)) return false;
  if (!row.some((c) => (facts.get(c)!.gapInward ?? 0) >= 1)) return false;
  const gap = Math.min(...rowMates.map((c) => Math.max(c.item.x0 - number.item.x1, number.item.x0 - c.item.x1)));
  if (gap < FOLIO_GAP * height) return false;
  return outermost(row, candidates, running);
}

/**
 * Nothing but running text between the row and its band's page edge. Compared by the row's own
 * edge, so a line rising a little above a neighbour of the row does not count as outside it.
 */
function outermost<T extends Box>(row: readonly BandCandidate<T>[], candidates: readonly BandCandidate<T>[], running: ReadonlySet<T>): boolean {
  const band = row[0]!.band;
  const inRow = new Set(row);
  const top = Math.min(...row.map((c) => c.item.y0));
  const bottom = Math.max(...row.map((c) => c.item.y1));
  return candidates.every((c) => {
    if (inRow.has(c) || running.has(c.item) || c.band !== band) return true;
    return band === 'top' ? c.item.y1 > top + 0.5 * (c.item.y1 - c.item.y0) : c.item.y0 < bottom - 0.5 * (c.item.y1 - c.item.y0);
  });
}

/**
 * What a page's foot says of the document rather than the page: a date, a revision, a part or
 * form number. Taken only from the outermost rows of the bottom band, where nothing else lies
 * between them and the page edge; elsewhere a date is a letter's or a report's own.
 */
const DATE = String.raw`(\d{1,2}[./-]\d{1,2}[./-]\d{2,4}|\d{1,2}[./]\d{4}|\d{4}-\d{2}-\d{2}|(\d{1,2}\s+)?(jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?\s+(\d{1,2},?\s+)?\d{4})`;
const FOOTER_PATTERNS = [
  // "Rev. 4.2", "Revision B, 03/2021", "Version 2 – March 2021": an identifier with a digit, or one letter
  new RegExp(String.raw`^(rev\.|rev|revision|version|ver\.)\s*[:#]?\s*(\d[\w.-]{0,8}|[a-z])(\s*[,;–-]?\s*${DATE})?$`, 'i'),
  /^(part|p\/n|doc(ument)?|form|cat(alog)?|ref(erence)?)\.?\s*(no\.?|number|#|nr\.?)?\s*[:#]?\s*[A-Z\d][\w./-]*\d[\w./-]*$/i,
  new RegExp(`^${DATE}$`, 'i'),
];

export function isFooterText(text: string): boolean {
  const t = text.trim();
  return FOOTER_PATTERNS.some((pattern) => pattern.test(t));
}

/** Blank space (in a line's heights) that sets a line above the sheet's bottom 15% apart from the text as its foot. */
const FOOT_GAP = 3;

/**
 * Rows at the page's foot (its bottom 15%, or set FOOT_GAP apart from the text above) counted up
 * while every line on them is footer or margin matter, a page number, or running text already
 * found: never above a line that is not. The last line of a short page's text (a title page's
 * date, a line or two below the author) ends its text, not its sheet.
 */
function outermostMarginRows<T extends Box>(
  candidates: readonly BandCandidate<T>[],
  running: ReadonlySet<T>,
  facts: ReadonlyMap<BandCandidate<T>, CandidateFacts>,
  pageHeight: number,
): BandCandidate<T>[] {
  const bottom = candidates.filter((c) => c.band === 'bottom').sort((a, b) => b.item.y1 - a.item.y1);
  const taken = new Set<BandCandidate<T>>();
  for (const candidate of bottom) {
    if (running.has(candidate.item)) continue;
    const fact = facts.get(candidate)!;
    const atFoot = candidate.item.y0 >= pageHeight * (1 - BAND) || (fact.gapInward ?? 0) >= FOOT_GAP;
    if (!atFoot || fact.continuesBody || !(isPageNumber(candidate.text) || isFooterText(candidate.text) || isMarginText(candidate.text))) break;
    taken.add(candidate);
  }
  // A row is taken whole or not at all, and a page number only beside footer matter.
  const rowOf = (c: BandCandidate<T>) => bottom.filter((o) => o !== c && sameRow(o.item, c.item));
  return [...taken].filter(
    (c) =>
      rowOf(c).every((o) => taken.has(o) || running.has(o.item)) &&
      (!isPageNumber(c.text) || rowOf(c).some((o) => taken.has(o) && !isPageNumber(o.text))),
  );
}

/**
 * Top-band lines set smaller than the body, counted from the page's top edge while every line met
 * is such a line (or a page number): a banner above the title, never an affiliation below it.
 */
function outermostSmall<T extends Box>(candidates: readonly BandCandidate<T>[], facts: ReadonlyMap<BandCandidate<T>, CandidateFacts>): BandCandidate<T>[] {
  const top = candidates.filter((c) => c.band === 'top').sort((a, b) => a.item.y0 - b.item.y0);
  const taken: BandCandidate<T>[] = [];
  for (const candidate of top) {
    const fact = facts.get(candidate)!;
    const rowTaken = taken.some((t) => sameRow(t.item, candidate.item));
    if (fact.continuesBody) break;
    if (fact.smallerThanBody) taken.push(candidate);
    else if (!isPageNumber(candidate.text) && !isMarginText(candidate.text) && !rowTaken) break;
  }
  return taken;
}
