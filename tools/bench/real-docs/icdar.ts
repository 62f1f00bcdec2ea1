/**
 * Checks from the ICDAR 2013 table competition's ground truth (`*-str.xml`: each table's regions,
 * each region's cells with their grid slots): table checks and text-present checks on the page of
 * each region. What the README warns of is handled here: a region's cells take its row and column
 * increments; indices no cell uses are dropped (tables numbered from 1, hidden rows); `col-end` is
 * read as `end-col` (a typo in us-002); and where a second, alternative reading exists (`...b-str.xml`
 * for `...a.pdf`), only checks that hold in both readings are kept.
 */

import { readFile } from 'node:fs/promises';
import { XMLParser } from 'fast-xml-parser';
import type { BuiltCheck, CheckSpec } from './bench-check.js';
import { spread } from './bench-check.js';
import type { PageFinder } from './pdf-text.js';
import { tableChecks, tableHtml, type TruthCell, type TruthTable } from './truth-table.js';
import { passesOn } from './truth-check.js';

interface RawCell {
  row: number;
  col: number;
  endRow: number;
  endCol: number;
  text: string;
}

/** One table as printed on one page: the cells of its regions on that page. */
interface IcdarPageTable {
  table: string;
  page: number;
  /** Whether the table's first row is on this page (so its heading row is). */
  startsHere: boolean;
  truth: TruthTable;
}

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '',
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: false,
  isArray: (name) => ['table', 'region', 'cell'].includes(name),
});

type XmlNode = Record<string, unknown>;

function integer(node: XmlNode, name: string, fallback?: number): number {
  const raw = node[name];
  if (raw === undefined && fallback !== undefined) return fallback;
  const value = Number.parseInt(String(raw), 10);
  if (!Number.isInteger(value)) throw new Error(`attribute ${name}="${String(raw)}" is not a whole number`);
  return value;
}

function contentText(cell: XmlNode): string {
  const content = cell['content'];
  const text = typeof content === 'string' ? content : content && typeof content === 'object' ? String((content as XmlNode)['#text'] ?? '') : '';
  return text.replace(/\s+/g, ' ').trim();
}

/** The tables of a structure file, each split by the page its regions lie on. */
export function readStructure(xml: string, where: string): IcdarPageTable[] {
  const document = (parser.parse(xml) as XmlNode)['document'] as XmlNode | undefined;
  if (!document) throw new Error(`${where}: no <document> element`);
  const out: IcdarPageTable[] = [];
  for (const table of (document['table'] as XmlNode[] | undefined) ?? []) {
    const byPage = new Map<number, RawCell[]>();
    for (const region of (table['region'] as XmlNode[] | undefined) ?? []) {
      const page = integer(region, 'page');
      const rowIncrement = integer(region, 'row-increment', 0);
      const colIncrement = integer(region, 'col-increment', 0);
      const cells = byPage.get(page) ?? [];
      for (const cell of (region['cell'] as XmlNode[] | undefined) ?? []) {
        const row = integer(cell, 'start-row') + rowIncrement;
        const col = integer(cell, 'start-col') + colIncrement;
        // us-002 writes one end column as col-end.
        const endCol = integer(cell, 'end-col', integer(cell, 'col-end', col - colIncrement)) + colIncrement;
        const endRow = integer(cell, 'end-row', row - rowIncrement) + rowIncrement;
        cells.push({ row, col, endRow: Math.max(row, endRow), endCol: Math.max(col, endCol), text: contentText(cell) });
      }
      byPage.set(page, cells);
    }
    const firstRow = Math.min(...[...byPage.values()].flat().map((c) => c.row));
    for (const [page, cells] of [...byPage].sort(([a], [b]) => a - b)) {
      if (cells.length === 0) continue;
      const startsHere = cells.some((c) => c.row === firstRow);
      out.push({ table: String(table['id'] ?? out.length + 1), page, startsHere, truth: denseTable(cells, startsHere ? 1 : 0) });
    }
  }
  return out;
}

/** The cells renumbered so that only indices some cell covers remain, in order. */
function denseTable(cells: readonly RawCell[], headerRows: number): TruthTable {
  const ranks = (pick: (c: RawCell) => [number, number]) => {
    const used = new Set<number>();
    for (const cell of cells) {
      const [start, end] = pick(cell);
      for (let i = start; i <= end; i++) used.add(i);
    }
    return new Map([...used].sort((a, b) => a - b).map((index, rank) => [index, rank]));
  };
  const rows = ranks((c) => [c.row, c.endRow]);
  const cols = ranks((c) => [c.col, c.endCol]);
  const truthCells: TruthCell[] = cells.map((c) => ({
    row: rows.get(c.row)!,
    col: cols.get(c.col)!,
    rowSpan: rows.get(c.endRow)! - rows.get(c.row)! + 1,
    colSpan: cols.get(c.endCol)! - cols.get(c.col)! + 1,
    text: c.text,
    usable: c.text !== '',
  }));
  return { cells: truthCells, headerRows };
}

/** Table checks per table and page, at most this many. */
const TABLE_CHECKS = 8;
/** Text-present checks per table and page: the longer cells (row labels, headings). */
const PRESENT_CHECKS = 2;

/**
 * The checks of one ICDAR PDF from its structure file and, where there is one, the alternative
 * reading of the same PDF: each on the page its region is printed on, and only with texts that
 * pdftotext finds on that page.
 */
export async function icdarChecks(structureFile: string, alternativeFile: string | undefined, pages: PageFinder): Promise<BuiltCheck[]> {
  // cell texts as the page prints them where the ground truth lost their spaces or capitals
  const asPrinted = (tables: IcdarPageTable[]): IcdarPageTable[] =>
    tables.map((table) => ({ ...table, truth: { ...table.truth, cells: table.truth.cells.map((c) => ({ ...c, text: pages.printedAs(table.page, c.text) })) } }));
  const tables = asPrinted(readStructure(await readFile(structureFile, 'utf8'), structureFile));
  const alternative = alternativeFile ? asPrinted(readStructure(await readFile(alternativeFile, 'utf8'), alternativeFile)) : undefined;
  const checks: BuiltCheck[] = [];
  for (const { page, truth } of tables) {
    if (page > pages.pageCount) continue;
    const printed = (text: string) => pages.occurrencesOn(page, text) > 0;
    const html = tableHtml(truth);
    const alternativeHtml = alternative?.filter((t) => t.page === page).map((t) => tableHtml(t.truth)).join('\n\n');
    const holds = (spec: CheckSpec) => alternativeHtml === undefined || passesOn(spec, alternativeHtml);
    for (const spec of tableChecks(truth, printed, TABLE_CHECKS).filter(holds)) checks.push({ page, spec, truth: html });
    // (a text with &, < or > would not be found where a correct HTML table escapes it)
    const long = truth.cells.filter((c) => c.usable && !/[&<>]/.test(c.text) && c.text.split(' ').length >= 3 && c.text.replace(/[^\p{L}]/gu, '').length >= 12 && printed(c.text));
    for (const cell of spread(long, PRESENT_CHECKS)) {
      const spec: CheckSpec = { type: 'present', text: cell.text };
      if (holds(spec)) checks.push({ page, spec, truth: html });
    }
  }
  return checks;
}
