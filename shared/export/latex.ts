/**
 * The LaTeX export: a `.tex` that pdflatex compiles with TeX Live's base, recommended and extra sets
 * (Debian's texlive-latex-base, -recommended and -extra: amsmath, amssymb, mathtools, bm, xcolor,
 * cancel, longtable, graphicx). Tables become `longtable`s that break across pages, set smaller as
 * they widen and cut into parts of at most 16 columns; a row span keeps its text in its first row and
 * leaves the rule out below it. Formulas are rewritten from an allow-list (latex-math.ts); text is
 * written with LaTeX's special characters escaped and control characters dropped, so nothing a page
 * says becomes a command. No input can stop the PDF from being made: lines stay short for TeX's
 * input buffer, lists and quotes stay within LaTeX's nesting, a table's columns keep a width.
 */

import type { Element, ElementContent, RootContent } from 'hast';
import type { ExportWarning } from './export-warning.js';
import type { ImageLookup } from './exported-image.js';
import { describeCharacter, MATRIX_COLUMNS, safeMath } from './latex-math.js';
import { TEXT_SPECIALS, UNICODE_MATH } from './latex-symbols.js';
import { formulaOf, isElement, markdownTree, textOf } from './markdown-tree.js';
import { tableGrid, type TableGrid } from './table-grid.js';
import { tableParts } from './table-parts.js';

export interface LatexOptions {
  title: string;
  image: ImageLookup;
  /** Each page after the first starts on a new PDF page. */
  pageBreaks?: boolean;
}

const HEADINGS: Record<string, string> = {
  h1: 'section*',
  h2: 'subsection*',
  h3: 'subsubsection*',
  h4: 'paragraph*',
  h5: 'subparagraph*',
  h6: 'subparagraph*',
};
const STYLES: Record<string, string> = { em: 'emph', i: 'emph', strong: 'textbf', b: 'textbf', code: 'texttt', kbd: 'texttt' };
const BLOCK_TAGS = new Set(['p', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'ul', 'ol', 'pre', 'blockquote', 'hr', 'table', 'div', 'section', 'figure', 'details', 'dl']);
/** Columns in one part of a wide table; the first column is repeated in each part as its rows' labels. */
const PART_COLUMNS = 16;
/** LaTeX's own limits: 4 levels of itemize or enumerate, 6 list-like environments (quote is one) in all. */
const MAX_LIST_DEPTH = 4;
const MAX_NESTING = 6;
/** Escaped text gets a line break (a comment's end, which TeX reads as nothing) at least this often. */
const TEXT_LINE = 500;
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

export function documentLatex(pages: readonly { page: number; markdown: string }[], options: LatexOptions): { text: string; warnings: ExportWarning[] } {
  const writer = new LatexWriter(options.image);
  const body = [...pages]
    .sort((a, b) => a.page - b.page)
    .map((page) => writer.addPage(page.page, page.markdown))
    .filter((text) => text.trim() !== '')
    .join(options.pageBreaks ? '\n\n\\newpage\n\n' : '\n\n');
  const packages = ['amsmath', 'amssymb', 'mathtools', 'bm', 'xcolor', 'cancel', 'longtable', 'array', ...(writer.usesGraphics ? ['graphicx'] : [])];
  const text = `% Written by Folio
\\documentclass{article}
\\usepackage[utf8]{inputenc}
${packages.map((name) => `\\usepackage{${name}}`).join('\n')}
\\setcounter{MaxMatrixCols}{${MATRIX_COLUMNS}}
\\title{${escapeLatex(options.title, () => undefined)}}
\\date{}
\\begin{document}
\\maketitle

${body}

\\end{document}
`;
  return { text, warnings: writer.warnings };
}

class LatexWriter {
  readonly warnings: ExportWarning[] = [];
  usesGraphics = false;
  private currentPage = 0;
  /** List-like environments open around what is being written (LaTeX counts quote among them). */
  private lists: ('itemize' | 'enumerate' | 'quote')[] = [];
  /** How many tables (or footnotes) are open around what is being written: a longtable cannot be inside one. */
  private boxed = 0;
  private footnotes = new Map<string, Element>();
  private unsetCharacters = new Set<string>();

  constructor(private readonly image: ImageLookup) {}

  addPage(page: number, markdown: string): string {
    this.currentPage = page;
    this.unsetCharacters = new Set();
    const tree = markdownTree(markdown);
    this.footnotes = new Map();
    const section = tree.children.find((node): node is Element => node.type === 'element' && node.tagName === 'section' && 'dataFootnotes' in node.properties);
    for (const item of section?.children.find((child): child is Element => isElement(child, 'ol'))?.children ?? []) {
      if (isElement(item, 'li')) this.footnotes.set(String(item.properties['id']), item);
    }
    const text = this.blocks(tree.children);
    const dropped = [...this.unsetCharacters].filter((character) => CONTROL.test(character));
    const unset = [...this.unsetCharacters].filter((character) => !CONTROL.test(character));
    if (unset.length > 0) {
      this.warn(`pdflatex cannot set the characters ${unset.slice(0, 20).join(' ')}${unset.length > 20 ? ` and ${unset.length - 20} more` : ''} with TeX Live's Latin fonts; each was written as its code, such as ${codeOf(unset[0]!)} (the .md and the Word and HTML exports keep them).`);
    }
    if (dropped.length > 0) this.warn(`control characters (${dropped.slice(0, 10).map(describeCharacter).join(', ')}) were left out.`);
    return text;
  }

  private warn(message: string): void {
    this.warnings.push({ page: this.currentPage, message });
  }

  private escape(text: string): string {
    return escapeLatex(text, (character) => this.unsetCharacters.add(character));
  }

  private blocks(nodes: readonly (ElementContent | RootContent)[]): string {
    const out: string[] = [];
    let inline: ElementContent[] = [];
    const flush = () => {
      const text = this.inline(inline).trim();
      if (text !== '') out.push(text);
      inline = [];
    };
    for (const node of nodes) {
      if (node.type === 'element' && (BLOCK_TAGS.has(node.tagName) || isDisplayMath(node))) {
        flush();
        const text = this.block(node);
        if (text.trim() !== '') out.push(text);
      } else if (node.type === 'element' || node.type === 'text') {
        inline.push(node);
      }
    }
    flush();
    return out.join('\n\n');
  }

  private block(element: Element): string {
    const tag = element.tagName;
    const heading = HEADINGS[tag];
    if (heading) return `\\${heading}{${this.inline(element.children).trim()}}`;
    switch (tag) {
      case 'p':
        return this.inline(element.children).trim();
      case 'ul':
      case 'ol':
        return this.list(element, tag === 'ol' ? 'enumerate' : 'itemize');
      case 'pre':
        return this.code(textOf(element));
      case 'blockquote':
        return this.nested('quote', () => this.blocks(element.children), (text) => `\\begin{quote}\n${text}\n\\end{quote}`, (text) => text);
      case 'hr':
        return '\\noindent\\rule{\\linewidth}{0.4pt}';
      case 'table':
        return this.table(element);
      case 'section':
        return 'dataFootnotes' in element.properties ? '' : this.blocks(element.children);
      case 'span':
        return this.inline([element]);
      default:
        return this.blocks(element.children);
    }
  }

  private list(element: Element, environment: 'itemize' | 'enumerate'): string {
    const items = element.children.filter((child): child is Element => isElement(child, 'li'));
    if (items.length === 0) return '';
    return this.nested(
      environment,
      () => items.map((item, index) => ({ index, text: this.blocks(item.children) })),
      (written) => `\\begin{${environment}}\n${written.map(({ text }) => `\\item ${text}`).join('\n')}\n\\end{${environment}}`,
      // past LaTeX's depth the items are paragraphs that keep their marks
      (written) => written.map(({ index, text }) => `\\noindent ${environment === 'enumerate' ? `${index + 1}.` : '--'}~${text}`).join('\n\n'),
    );
  }

  /** Writes inside a list-like environment, or flat once LaTeX's nesting limit is reached ("Too deeply nested"). */
  private nested<T>(kind: 'itemize' | 'enumerate' | 'quote', write: () => T, wrap: (written: T) => string, flat: (written: T) => string): string {
    const sameKind = this.lists.filter((open) => open === kind).length;
    const fits = this.lists.length < MAX_NESTING && (kind === 'quote' || sameKind < MAX_LIST_DEPTH);
    if (!fits) {
      this.warnOnce(`quotes and lists nested deeper than LaTeX allows (${MAX_NESTING} in all, ${MAX_LIST_DEPTH} lists of a kind) were written as plain paragraphs.`);
      return flat(write());
    }
    this.lists.push(kind);
    try {
      return wrap(write());
    } finally {
      this.lists.pop();
    }
  }

  private warnOnce(message: string): void {
    if (!this.warnings.some((warning) => warning.page === this.currentPage && warning.message === message)) this.warn(message);
  }

  /** Code as typewriter text, line by line: a verbatim environment would end early at a line that ends it. */
  private code(text: string): string {
    const lines = text.replace(/\n$/, '').split('\n').map((line) => (line === '' ? '~' : this.escape(line).replace(/ /g, '~')));
    return `\\begin{flushleft}\\ttfamily\n${lines.join('\\\\\n')}\n\\end{flushleft}`;
  }

  private table(element: Element): string {
    const whole = tableGrid(element);
    for (const problem of whole.problems) this.warn(`a table's ${problem}; the span was cut to fit.`);
    if (whole.columns === 0) return '';
    const parts = tableParts(whole, PART_COLUMNS);
    if (parts.length > 1) {
      this.warn(`a table of ${whole.columns} columns is wider than a page; it was written in ${parts.length} parts of at most ${PART_COLUMNS} columns, each beginning with the table's first column.`);
    }
    // a longtable cannot sit in a table cell, a footnote or a list; those tables stay tabulars
    const long = this.boxed === 0 && this.lists.length === 0;
    this.boxed++;
    try {
      return parts.map((grid, index) => this.tablePart(grid, long, parts.length > 1 ? `Table, part ${index + 1} of ${parts.length}` : undefined)).join('\n\n');
    } finally {
      this.boxed--;
    }
  }

  private tablePart(grid: TableGrid, long: boolean, caption: string | undefined): string {
    // wider tables are set smaller, with less space between columns, so each column keeps a width
    const size = grid.columns <= 6 ? '' : grid.columns <= 10 ? '\\footnotesize' : '\\scriptsize';
    const separation = grid.columns <= 6 ? '6pt' : grid.columns <= 10 ? '4pt' : '2pt';
    const column = `p{${columnWidth(1, grid.columns)}}`;
    // rows still covered by a span from above: those columns get no rule under the row before them
    const coveredBelow = grid.rows.map(() => new Array<boolean>(grid.columns).fill(false));
    grid.rows.forEach((row, r) => {
      for (const cell of row) {
        for (let below = r + 1; below < r + cell.rowSpan; below++) {
          for (let c = cell.column; c < cell.column + cell.colSpan; c++) coveredBelow[below]![c] = true;
        }
      }
    });
    const lines = grid.rows.map((row, r) => {
      const cells: string[] = [];
      let next = 0;
      for (const cell of row) {
        // a slot covered from above is an empty cell of its own
        while (next < cell.column) {
          cells.push('');
          next++;
        }
        let text = cell.element ? this.cellText(cell.element) : '';
        if (cell.header && text !== '') text = `\\textbf{${text}}`;
        cells.push(cell.colSpan > 1 ? this.multicolumn(cell.column, cell.colSpan, grid.columns, text) : text);
        next = cell.column + cell.colSpan;
      }
      while (next < grid.columns) {
        cells.push('');
        next++;
      }
      const line = `${cells.join('\n& ')} \\\\\n${this.rule(coveredBelow[r + 1])}`;
      // a longtable repeats its header rows at the top of each page
      return long && grid.headerRows > 0 && r === grid.headerRows - 1 ? `${line}\n\\endhead` : line;
    });
    const preamble = `{|${Array.from({ length: grid.columns }, () => column).join('|')}|}`;
    if (long) {
      const label = caption ? `\\multicolumn{${grid.columns}}{l}{\\emph{${caption}}} \\\\\n` : '';
      return `\\begingroup${size}\\setlength{\\tabcolsep}{${separation}}\n\\begin{longtable}${preamble}\n${label}\\hline\n${lines.join('\n')}\n\\end{longtable}\n\\endgroup`;
    }
    return `\\begin{center}${size}\\setlength{\\tabcolsep}{${separation}}\n${caption ? `\\emph{${caption}}\\\\\n` : ''}\\begin{tabular}${preamble}\n\\hline\n${lines.join('\n')}\n\\end{tabular}\n\\end{center}`;
  }

  /** A cell across columns: one paragraph column as wide as those it covers, with their rules. */
  private multicolumn(column: number, span: number, columns: number, text: string): string {
    return `\\multicolumn{${span}}{${column === 0 ? '|' : ''}p{${columnWidth(span, columns)}}|}{${text}}`;
  }

  /** `\hline`, or `\cline`s around columns a span continues into. */
  private rule(covered: readonly boolean[] | undefined): string {
    if (!covered || !covered.some(Boolean)) return '\\hline';
    const segments: string[] = [];
    let start: number | undefined;
    covered.forEach((isCovered, c) => {
      if (!isCovered && start === undefined) start = c;
      if ((isCovered || c === covered.length - 1) && start !== undefined) {
        const end = isCovered ? c - 1 : c;
        segments.push(`\\cline{${start + 1}-${end + 1}}`);
        start = undefined;
      }
    });
    return segments.join('');
  }

  private cellText(cell: Element): string {
    return this.blocks(cell.children).replace(/\n\n+/g, ' \\newline ').replace(/\n/g, ' ');
  }

  private inline(nodes: readonly ElementContent[]): string {
    return nodes
      .map((node) => {
        if (node.type === 'text') return this.escape(node.value.replace(/\s*\n\s*/g, ' '));
        return node.type === 'element' ? this.inlineElement(node) : '';
      })
      .join('');
  }

  private inlineElement(element: Element): string {
    const tag = element.tagName;
    const command = STYLES[tag];
    if (command) return `\\${command}{${this.inline(element.children)}}`;
    // a footnote mark is already raised, and a footnote cannot sit inside a superscript
    if (tag === 'sup') return element.children.some((child) => isElement(child, 'a') && 'dataFootnoteRef' in child.properties) ? this.inline(element.children) : `\\textsuperscript{${this.inline(element.children)}}`;
    if (tag === 'sub') return `$_{\\text{${this.inline(element.children)}}}$`;
    if (tag === 'br') return '\\newline ';
    if (tag === 'img') return this.imageFor(element);
    if (tag === 'input') return element.properties['checked'] ? '[x] ' : '[ ] ';
    if (tag === 'a') return this.link(element);
    const formula = formulaOf(element);
    if (formula) return this.formula(formula);
    return this.inline(element.children);
  }

  private link(anchor: Element): string {
    const href = String(anchor.properties['href'] ?? '');
    if ('dataFootnoteBackref' in anchor.properties) return '';
    if ('dataFootnoteRef' in anchor.properties) {
      const note = this.footnotes.get(`user-content-${href.slice(1)}`) ?? this.footnotes.get(href.slice(1));
      if (!note) return this.inline(anchor.children);
      this.boxed++;
      try {
        return `\\footnote{${this.blocks(note.children).replace(/\n\n+/g, ' \\par ').trim()}}`;
      } finally {
        this.boxed--;
      }
    }
    const text = this.inline(anchor.children);
    return /^(https?:|mailto:)/i.test(href) && textOf(anchor).trim() !== href ? `${text} (\\texttt{${this.escape(href)}})` : text;
  }

  private formula(formula: NonNullable<ReturnType<typeof formulaOf>>): string {
    if (formula.kind === 'error') {
      this.warn(`the formula ${quote(formula.source)} is not valid LaTeX (${formula.reason}); it is written as text.`);
      return `\\texttt{${this.escape(formula.source)}}`;
    }
    const math = safeMath(formula.source, formula.display);
    if (!math.ok) {
      this.warn(`the formula ${quote(formula.source)} was written as text: ${math.reason}.`);
      return `\\texttt{${this.escape(formula.source)}}`;
    }
    if (math.tex === '') return '';
    // display math in a heading or a table cell would end its paragraph there: it is set inline, displaystyle
    if (formula.display && this.boxed === 0) return `\\[\n${math.tex}\n\\]`;
    return formula.display ? `\\(\\displaystyle ${math.tex}\\)` : `\\(${math.tex}\\)`;
  }

  private imageFor(element: Element): string {
    const src = String(element.properties['src'] ?? '');
    const alt = String(element.properties['alt'] ?? '');
    const image = src === '' || src === '#' ? undefined : this.image(src);
    if (image && !/[%#{}\\^~$&]/.test(image.path) && !/^\/|(?:^|\/)\.\.(?:\/|$)/.test(image.path)) {
      this.usesGraphics = true;
      return `\\includegraphics[width=${Math.min(1, image.width / 450).toFixed(3)}\\linewidth,keepaspectratio]{\\detokenize{${image.path}}}`;
    }
    if (image) this.warn(`the figure ${quote(image.path)} has a name LaTeX cannot take; its description is written instead.`);
    else if (src !== '' && src !== '#') this.warn(`the image ${quote(src)} is not among the exported figures; its description is written instead.`);
    return alt === '' ? '' : `[\\emph{${this.escape(alt)}}]`;
  }
}

function isDisplayMath(element: Element): boolean {
  const formula = formulaOf(element);
  return formula?.kind === 'math' && formula.display;
}

/**
 * Text as LaTeX prints it. Characters TeX treats specially are escaped, symbols and Greek become math,
 * Latin letters are set by inputenc, and `unset` hears of each other character: a control character is
 * left out, anything else (CJK, Cyrillic...) is written as its code point, `[U+6F22]`, since the
 * Latin fonts of TeX Live's base sets have no glyph for it. A long run without spaces gets a line
 * end that TeX reads as nothing, so no line outgrows TeX's input buffer.
 */
export function escapeLatex(text: string, unset: (character: string) => void): string {
  let out = '';
  let line = 0;
  for (const character of text) {
    let written: string;
    const special = TEXT_SPECIALS[character];
    if (special !== undefined) written = special;
    else if (CONTROL.test(character)) {
      unset(character);
      written = '';
    } else if (character.codePointAt(0)! < 0x7f) written = character;
    // Latin-1 and Latin Extended-A letters: utf8 input sets them from accents OT1 has
    else if (/[\u00c0-\u017f]/.test(character) && character !== '\u00d7' && character !== '\u00f7') written = character;
    else if (UNICODE_MATH[character] !== undefined) written = `$${UNICODE_MATH[character]!.trim()}$`;
    else {
      unset(character);
      written = `{\\ttfamily${codeOf(character)}}`;
    }
    if (character === ' ' || character === '\n') line = 0;
    else if (line > TEXT_LINE) {
      out += '%\n';
      line = 0;
    }
    out += written;
    line += written.length;
  }
  return out;
}

function codeOf(character: string): string {
  return `[U+${character.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}]`;
}

/** A paragraph column's width: its share of the line less the space beside it (positive up to PART_COLUMNS columns at the sizes above). */
function columnWidth(span: number, columns: number): string {
  return `\\dimexpr ${((0.97 * span) / columns).toFixed(4)}\\linewidth-2\\tabcolsep\\relax`;
}

function quote(text: string): string {
  const short = text.length > 60 ? `${text.slice(0, 57)}...` : text;
  return `"${short.replace(/\s+/g, ' ')}"`;
}
