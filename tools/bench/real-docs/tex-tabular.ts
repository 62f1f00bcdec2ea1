/**
 * A LaTeX `tabular` body as a ground-truth table: rows at `\\`, cells at `&`, `\multicolumn` and
 * `\multirow` as spans (the empty cells a `\multirow` leaves below it are its own slots), rules
 * dropped. A cell's text is usable only when it prints with certainty (tex-text.ts).
 */

import { readArgument, splitTopLevel, texToText } from './tex-text.js';
import type { TruthCell, TruthTable } from './truth-table.js';

const RULES = /\\(?:hline|toprule|midrule|bottomrule|colrule|hhline|cline|cmidrule|addlinespace|specialrule|endhead|endfirsthead|endfoot|endlastfoot|noalign)\b(?:\([^)]*\))?(?:\s*\{[^}]*\})*(?:\s*\[[^\]]*\])?/g;

interface SourceCell {
  text: string;
  usable: boolean;
  rowSpan: number;
  colSpan: number;
}

function readCell(source: string): SourceCell {
  let content = source.trim();
  let rowSpan = 1;
  let colSpan = 1;
  for (;;) {
    const multi = /^\\(multicolumn|multirow)\b/.exec(content);
    if (!multi) break;
    let at = multi[0].length;
    const count = readArgument(content, at);
    if (!count) break;
    at = count.end;
    // \multirow[vpos]{n}[bigstruts]{width}[fixup]{text}; \multicolumn{n}{spec}{text}
    const skipOptional = () => {
      const optional = /^\s*\[[^\]]*\]/.exec(content.slice(at));
      if (optional) at += optional[0].length;
    };
    skipOptional();
    const middle = readArgument(content, at);
    if (!middle) break;
    at = middle.end;
    skipOptional();
    const text = readArgument(content, at);
    if (!text) break;
    const n = Number.parseInt(count.text, 10);
    if (multi[1] === 'multicolumn') colSpan = Number.isInteger(n) && n > 0 ? n : 1;
    else rowSpan = Number.isInteger(n) && n > 0 ? n : 1;
    content = (text.text + content.slice(text.end)).trim();
  }
  const text = texToText(content);
  const loose = content.replace(/\\[a-zA-Z]+\*?/g, ' ').replace(/[{}$\\]/g, ' ').replace(/\s+/g, ' ').trim();
  return text === undefined ? { text: loose, usable: false, rowSpan, colSpan } : { text, usable: true, rowSpan, colSpan };
}

export function readTabular(body: string): TruthTable | undefined {
  const source = body.replace(RULES, ' ').replace(/\\tabularnewline\b/g, '\\\\');
  const rows = splitTopLevel(source, '\\\\')
    .map((row) => row.replace(/^\s*\[[^\]]*\]/, ''))
    .filter((row) => row.trim() !== '')
    .map((row) => splitTopLevel(row, '&').map(readCell));
  if (rows.length < 2) return undefined;
  const cells: TruthCell[] = [];
  const covered: boolean[][] = [];
  rows.forEach((row, r) => {
    let col = 0;
    for (const cell of row) {
      // the empty cell a \multirow above leaves in its column is that \multirow's own slot
      if (covered[r]?.[col]) {
        if (cell.text === '' && cell.colSpan === 1) {
          col++;
          continue;
        }
        while (covered[r]?.[col]) col++;
      }
      if (cell.text !== '' || cell.rowSpan > 1 || cell.colSpan > 1) {
        const rowSpan = Math.min(cell.rowSpan, rows.length - r);
        cells.push({ row: r, col, rowSpan, colSpan: cell.colSpan, text: cell.text, usable: cell.usable && cell.text !== '' });
        for (let rr = r; rr < r + rowSpan; rr++) for (let cc = col; cc < col + cell.colSpan; cc++) (covered[rr] ??= [])[cc] = true;
      }
      col += cell.colSpan;
    }
  });
  return cells.length >= 4 ? { cells, headerRows: 1 } : undefined;
}
