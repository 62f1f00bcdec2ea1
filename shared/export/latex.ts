/**
 * The LaTeX export: a `.tex` that pdflatex compiles with only what a base TeX Live holds (article,
 * amsmath, amssymb, graphicx). Tables become `tabular` with `\multicolumn`; a row span keeps its
 * text in its first row and leaves the rule out below it, since multirow is not in the base set.
 * Formulas are written as they are when KaTeX parsed them; everything else is text with LaTeX's
 * special characters escaped, so nothing a page says becomes a command.
 */

import type { Element, ElementContent, RootContent } from 'hast';
import type { ExportWarning } from './export-warning.js';
import type { ImageLookup } from './exported-image.js';
import { formulaOf, isElement, markdownTree, textOf } from './markdown-tree.js';
import { tableGrid } from './table-grid.js';

export interface LatexOptions {
  title: string;
  image: ImageLookup;
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
/** Commands KaTeX accepts that would reach past a formula in real TeX: definitions and file access. */
const UNSAFE_MATH = /\\(?:[egx]?def|global|let|futurelet|(?:re|provide)?newcommand|newenvironment|csname|catcode|input|include|write|immediate|openout|openin|read|special|usepackage|makeatletter)(?![a-zA-Z])/;
const SPECIALS: Record<string, string> = {
  '\\': '\\textbackslash{}',
  '{': '\\{',
  '}': '\\}',
  $: '\\$',
  '&': '\\&',
  '#': '\\#',
  '%': '\\%',
  _: '\\_',
  '^': '\\textasciicircum{}',
  '~': '\\textasciitilde{}',
  '<': '\\textless{}',
  '>': '\\textgreater{}',
  '|': '\\textbar{}',
  '“': '``',
  '”': "''",
  '‘': '`',
  '’': "'",
  '–': '--',
  '—': '---',
  '…': '\\ldots{}',
  '€': 'EUR',
  '×': '$\\times$',
  '÷': '$\\div$',
  '±': '$\\pm$',
  '°': '$^\\circ$',
  '•': '$\\bullet$',
  '→': '$\\rightarrow$',
  '≤': '$\\leq$',
  '≥': '$\\geq$',
  '≠': '$\\neq$',
  '\u00a0': '~',
  '§': '\\S{}',
  '©': '\\copyright{}',
  '¶': '\\P{}',
  '☐': '[ ]',
  '☒': '[x]',
};
const GREEK = 'αβγδεζηθικλμνξοπρστυφχψω';
const GREEK_NAMES = ['alpha', 'beta', 'gamma', 'delta', 'epsilon', 'zeta', 'eta', 'theta', 'iota', 'kappa', 'lambda', 'mu', 'nu', 'xi', 'o', 'pi', 'rho', 'sigma', 'tau', 'upsilon', 'phi', 'chi', 'psi', 'omega'];

export function documentLatex(pages: readonly { page: number; markdown: string }[], options: LatexOptions): { text: string; warnings: ExportWarning[] } {
  const writer = new LatexWriter(options.image);
  const body = [...pages]
    .sort((a, b) => a.page - b.page)
    .map((page) => writer.addPage(page.page, page.markdown))
    .filter((text) => text.trim() !== '')
    .join('\n\n');
  const packages = ['amsmath', 'amssymb', ...(writer.usesGraphics ? ['graphicx'] : [])];
  const text = `% Written by Folio
\\documentclass{article}
\\usepackage[utf8]{inputenc}
${packages.map((name) => `\\usepackage{${name}}`).join('\n')}
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
    if (this.unsetCharacters.size > 0) {
      this.warn(`pdflatex cannot set the characters ${[...this.unsetCharacters].join(' ')} without extra packages; they were written as "?".`);
    }
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
      case 'ol': {
        const environment = tag === 'ol' ? 'enumerate' : 'itemize';
        const items = element.children.filter((child): child is Element => isElement(child, 'li')).map((item) => `\\item ${this.blocks(item.children)}`);
        return items.length === 0 ? '' : `\\begin{${environment}}\n${items.join('\n')}\n\\end{${environment}}`;
      }
      case 'pre':
        return this.code(textOf(element));
      case 'blockquote':
        return `\\begin{quote}\n${this.blocks(element.children)}\n\\end{quote}`;
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

  /** Code as typewriter text, line by line: a verbatim environment would end early at a line that ends it. */
  private code(text: string): string {
    const lines = text.replace(/\n$/, '').split('\n').map((line) => (line === '' ? '~' : this.escape(line).replace(/ /g, '~')));
    return `\\begin{flushleft}\\ttfamily\n${lines.join('\\\\\n')}\n\\end{flushleft}`;
  }

  private table(element: Element): string {
    const grid = tableGrid(element);
    for (const problem of grid.problems) this.warn(`a table's ${problem}; the span was cut to fit.`);
    if (grid.columns === 0) return '';
    const width = `\\dimexpr ${(0.95 / grid.columns).toFixed(4)}\\linewidth-2\\tabcolsep\\relax`;
    const column = `p{${width}}`;
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
      return `${cells.join(' & ')} \\\\\n${this.rule(coveredBelow[r + 1])}`;
    });
    return `\\begin{center}\n\\begin{tabular}{|${Array.from({ length: grid.columns }, () => column).join('|')}|}\n\\hline\n${lines.join('\n')}\n\\end{tabular}\n\\end{center}`;
  }

  /** A cell across columns: one paragraph column as wide as those it covers, with their rules. */
  private multicolumn(column: number, span: number, columns: number, text: string): string {
    const width = `\\dimexpr ${((0.95 * span) / columns).toFixed(4)}\\linewidth-2\\tabcolsep\\relax`;
    return `\\multicolumn{${span}}{${column === 0 ? '|' : ''}p{${width}}|}{${text}}`;
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
      return note ? `\\footnote{${this.blocks(note.children).replace(/\n\n+/g, ' \\par ').trim()}}` : this.inline(anchor.children);
    }
    const text = this.inline(anchor.children);
    return /^(https?:|mailto:)/i.test(href) && textOf(anchor).trim() !== href ? `${text} (\\texttt{${this.escape(href)}})` : text;
  }

  private formula(formula: NonNullable<ReturnType<typeof formulaOf>>): string {
    if (formula.kind === 'error') {
      this.warn(`the formula ${quote(formula.source)} is not valid LaTeX (${formula.reason}); it is written as text.`);
      return `\\texttt{${this.escape(formula.source)}}`;
    }
    if (UNSAFE_MATH.test(formula.source)) {
      this.warn(`the formula ${quote(formula.source)} defines commands or reads files; it is written as text.`);
      return `\\texttt{${this.escape(formula.source)}}`;
    }
    return formula.display ? `\\[\n${formula.source.trim()}\n\\]` : `\\(${formula.source.trim()}\\)`;
  }

  private imageFor(element: Element): string {
    const src = String(element.properties['src'] ?? '');
    const alt = String(element.properties['alt'] ?? '');
    const image = src === '' || src === '#' ? undefined : this.image(src);
    if (image && !/[%#{}\\^~$&]/.test(image.path)) {
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

/** Text as LaTeX prints it; `unset` hears of each character pdflatex could not set (written as `?`). */
export function escapeLatex(text: string, unset: (character: string) => void): string {
  let out = '';
  for (const character of text) {
    const special = SPECIALS[character];
    if (special !== undefined) out += special;
    else if (character.codePointAt(0)! < 0x7f) out += character;
    else if (GREEK.includes(character)) out += `$\\${GREEK_NAMES[GREEK.indexOf(character)]}$`;
    // Latin-1 and Latin Extended-A letters: utf8 input sets them from accents OT1 has
    else if (/[\u00c0-\u017f]/.test(character) && !'\u00d7\u00f7'.includes(character)) out += character;
    else {
      unset(character);
      out += '?';
    }
  }
  return out;
}

function quote(text: string): string {
  const short = text.length > 60 ? `${text.slice(0, 57)}...` : text;
  return `"${short.replace(/\s+/g, ' ')}"`;
}
