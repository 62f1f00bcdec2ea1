/**
 * Tables found in an output the way olmOCR-Bench finds them: Markdown tables (any run of two or more
 * lines holding a `|`; first row the header row, first column the row headers) and HTML tables
 * (`<th>` cells and `<thead>` rows are headers; rowspan/colspan fill the grid as its scorer fills it).
 * Parsed without a DOM: a tolerant scan of the table tags, enough for what engines write.
 */

export interface TableData {
  /** Rows of cell texts, padded to one width. */
  cells: string[][];
  headerRows: Set<number>;
  headerCols: Set<number>;
  /** Column index to the header cells above it, as [row, text]. */
  colHeaders: Map<number, [number, string][]>;
  /** Row index to the header cells left of it, as [column, text]. */
  rowHeaders: Map<number, [number, string][]>;
}

export function parseMarkdownTables(content: string): TableData[] {
  const tables: TableData[] = [];
  let run: string[] = [];
  const flush = () => {
    if (run.length >= 2) {
      const rows = markdownRows(run);
      if (rows.length > 0) tables.push(markdownTable(rows));
    }
    run = [];
  };
  for (const line of content.trim().split('\n')) {
    if (line.includes('|')) run.push(line);
    else flush();
  }
  flush();
  return tables;
}

function markdownRows(lines: readonly string[]): string[][] {
  const separator = lines.findIndex((line) => {
    const inner = line.replaceAll('|', '').trim();
    return inner !== '' && /^[- :]+$/.test(inner);
  });
  const rows: string[][] = [];
  lines.forEach((line, i) => {
    if (i === separator) return;
    if (line.trim() !== '' && /^[- :|]+$/.test(line)) return;
    let cells = line.split('|').map((cell) => cell.trim());
    if (cells[0] === '') cells = cells.slice(1);
    if (cells.at(-1) === '') cells = cells.slice(0, -1);
    if (cells.length > 0) rows.push(cells);
  });
  return rows;
}

function markdownTable(rows: string[][]): TableData {
  const cells = pad(rows);
  const colHeaders = new Map<number, [number, string][]>();
  cells[0]!.forEach((text, col) => colHeaders.set(col, [[0, text]]));
  const rowHeaders = new Map<number, [number, string][]>();
  for (let row = 1; row < cells.length; row++) rowHeaders.set(row, [[0, cells[row]![0]!]]);
  return { cells, headerRows: new Set([0]), headerCols: new Set([0]), colHeaders, rowHeaders };
}

interface HtmlCell {
  header: boolean;
  text: string;
  rowSpan: number;
  colSpan: number;
}

interface HtmlRow {
  inHead: boolean;
  cells: HtmlCell[];
}

export function parseHtmlTables(content: string): TableData[] {
  return htmlTableSources(content)
    .map(htmlRows)
    .filter((rows) => rows.length > 0)
    .map(htmlTable);
}

/** The inner HTML of each `<table>`, outermost first; a nested table's rows also count for the outer one, as BeautifulSoup's find_all gives them. */
function htmlTableSources(content: string): string[] {
  const sources: string[] = [];
  const opens: number[] = [];
  for (const match of content.matchAll(/<(\/?)table\b[^>]*>/gi)) {
    if (match[1] === '') opens.push(match.index + match[0].length);
    else if (opens.length > 0) sources.push(content.slice(opens.pop(), match.index));
  }
  // Unclosed tables run to the end, as an HTML parser closes them.
  for (const start of opens) sources.push(content.slice(start));
  return sources;
}

function htmlRows(source: string): HtmlRow[] {
  const rows: HtmlRow[] = [];
  let inHead = false;
  let row: HtmlRow | undefined;
  let cell: { header: boolean; rowSpan: number; colSpan: number; start: number } | undefined;
  const closeCell = (at: number) => {
    if (cell && row) row.cells.push({ header: cell.header, text: cellText(source.slice(cell.start, at)), rowSpan: cell.rowSpan, colSpan: cell.colSpan });
    cell = undefined;
  };
  for (const match of source.matchAll(/<(\/?)(thead|tr|th|td)\b([^>]*)>/gi)) {
    const closing = match[1] === '/';
    const tag = match[2]!.toLowerCase();
    if (tag === 'thead') {
      inHead = !closing;
      continue;
    }
    if (tag === 'tr') {
      closeCell(match.index);
      if (!closing) rows.push((row = { inHead, cells: [] }));
      else row = undefined;
      continue;
    }
    closeCell(match.index);
    if (closing) continue;
    // a cell outside any <tr> opens one, as the HTML parser does
    if (!row) rows.push((row = { inHead, cells: [] }));
    cell = { header: tag === 'th', rowSpan: span(match[3]!, 'rowspan'), colSpan: span(match[3]!, 'colspan'), start: match.index + match[0].length };
  }
  closeCell(source.length);
  return rows;
}

function span(attributes: string, name: string): number {
  const value = new RegExp(`${name}\\s*=\\s*["']?(\\d+)`, 'i').exec(attributes)?.[1];
  const n = value === undefined ? 1 : Number.parseInt(value, 10);
  return Number.isFinite(n) && n >= 1 ? n : 1;
}

function cellText(html: string): string {
  return decodeEntities(html.replace(/<br\s*\/?>/gi, '\n').replace(/<[^>]*>/g, '')).trim();
}

const NAMED_ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0' };

function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, name: string) => {
    if (name[0] === '#') {
      const code = name[1] === 'x' || name[1] === 'X' ? Number.parseInt(name.slice(2), 16) : Number.parseInt(name.slice(1), 10);
      return Number.isFinite(code) && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    return NAMED_ENTITIES[name.toLowerCase()] ?? whole;
  });
}

/** The grid and header maps as olmOCR's parse_html_tables builds them, quirks included (a rowspan copies its text down; a colspan leaves blanks). */
function htmlTable(rows: HtmlRow[]): TableData {
  const headerRows = new Set<number>();
  const headerCols = new Set<number>();
  const colHeaders = new Map<number, [number, string][]>();
  const rowHeaders = new Map<number, [number, string][]>();
  const spanned = new Map<string, string>();
  const colSpanHeaders = new Map<string, Set<number>>();
  const rowSpanHeaders = new Map<string, Set<number>>();
  const data: string[][] = [];
  rows.forEach((row, r) => {
    if (row.inHead || row.cells.some((c) => c.header)) headerRows.add(r);
    const out: string[] = [];
    let col = 0;
    for (const cell of row.cells) {
      while (spanned.has(`${r},${col}`)) out.push(spanned.get(`${r},${col++}`)!);
      out.push(cell.text);
      for (let i = 0; i < cell.rowSpan; i++) {
        for (let j = 0; j < cell.colSpan; j++) {
          if (i === 0 && j === 0) continue;
          spanned.set(`${r + i},${col + j}`, j === 0 ? cell.text : '');
        }
      }
      if (cell.header) {
        for (let j = 0; j < cell.colSpan; j++) headerCols.add(col + j);
        for (let i = 1; i < cell.rowSpan; i++) if (r + i < rows.length) headerRows.add(r + i);
        for (let j = 0; j < cell.colSpan; j++) {
          push(colHeaders, col + j, [r, cell.text]);
          if (cell.text && cell.colSpan > 1) addTo(colSpanHeaders, cell.text, col + j);
        }
        if (cell.text && cell.rowSpan > 1) for (let i = 0; i < cell.rowSpan; i++) addTo(rowSpanHeaders, cell.text, r + i);
      }
      if (!cell.header && cell.rowSpan > 1 && headerCols.has(col)) {
        for (let i = 1; i < cell.rowSpan; i++) if (r + i < rows.length) push(rowHeaders, r + i, [col, cell.text]);
      }
      col += cell.colSpan;
    }
    data.push(out);
  });
  for (const [text, cols] of colSpanHeaders) {
    for (const col of cols) {
      data.forEach((row, r) => {
        if (headerRows.has(r)) return;
        for (let j = col; j < row.length; j++) {
          const headers = colHeaders.get(j) ?? [];
          if (headers.some(([, t]) => t === text)) continue;
          const headerRow = Math.min(...(colHeaders.get(col) ?? [[0, '']]).map(([hr]) => hr));
          colHeaders.set(j, [...headers, [headerRow, text]]);
        }
      });
    }
  }
  for (const [text, spannedRows] of rowSpanHeaders) {
    for (const r of spannedRows) {
      if (r >= data.length) continue;
      const headerCol = headerCols.size ? Math.min(...headerCols) : 0;
      const headers = rowHeaders.get(r) ?? [];
      if (!headers.some(([, t]) => t === text)) rowHeaders.set(r, [...headers, [headerCol, text]]);
    }
  }
  for (const col of headerCols) {
    data.forEach((row, r) => {
      const text = row[col];
      if (text === undefined || text.trim() === '') return;
      const headers = rowHeaders.get(r) ?? [];
      if (!headers.some(([, t]) => t === text)) rowHeaders.set(r, [...headers, [col, text]]);
    });
  }
  return { cells: pad(data), headerRows, headerCols, colHeaders, rowHeaders };
}

function pad(rows: string[][]): string[][] {
  const width = Math.max(0, ...rows.map((row) => row.length));
  return rows.map((row) => [...row, ...Array<string>(width - row.length).fill('')]);
}

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

function addTo<K, V>(map: Map<K, Set<V>>, key: K, value: V): void {
  const set = map.get(key);
  if (set) set.add(value);
  else map.set(key, new Set([value]));
}
