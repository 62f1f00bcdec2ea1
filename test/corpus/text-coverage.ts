/**
 * Text coverage over the corpus: the files whose text `pdftotext` reads (at least one word) but
 * of which the text engine writes no word. pdftotext is the reference because it prints whatever
 * text the PDF draws (form fields' appearances included), so a file it reads and Folio does not is
 * text lost, not a scan.
 */

/** Markdown image links name files, not text on the page. */
const IMAGE_LINK = /!\[[^\]]*\]\([^)]*\)/g;
const WORD = /[\p{L}\p{N}]+/gu;

/** Words (runs of letters and digits) in `text`, Markdown image links left out. */
export function wordCount(text: string): number {
  return text.replace(IMAGE_LINK, ' ').match(WORD)?.length ?? 0;
}

export interface CoverageEntry {
  file: string;
  /** Words pdftotext printed; undefined where it failed on the file. */
  referenceWords: number | undefined;
  /** Words Folio wrote; undefined where the file could not be converted at all. */
  folioWords: number | undefined;
}

export interface Coverage {
  /** Files pdftotext reads at least one word of. */
  read: number;
  /** Of those, files Folio writes words of. */
  written: number;
  /** Of those, the files Folio writes no word of, sorted. */
  lost: string[];
}

export function summariseCoverage(entries: readonly CoverageEntry[]): Coverage {
  const read = entries.filter((e) => (e.referenceWords ?? 0) > 0);
  const lost = read.filter((e) => (e.folioWords ?? 0) === 0).map((e) => e.file).sort();
  return { read: read.length, written: read.length - lost.length, lost };
}

export function formatCoverage(coverage: Coverage): string {
  const share = coverage.read ? ((100 * coverage.written) / coverage.read).toFixed(1) : '100.0';
  return `pdftotext reads text in ${coverage.read} files; Folio writes text for ${coverage.written} (${share}%), none for ${coverage.lost.length}`;
}
