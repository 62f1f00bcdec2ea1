/**
 * The Word export: pages' Markdown to a .docx with Word's own headings, lists, tables (header rows,
 * merged cells), footnotes and equations (OMML), built with the `docx` library. Each page is read
 * on its own, so a warning can name the page it is about; whatever cannot be carried over (a
 * formula Word cannot hold, a span that runs off its table, a figure that is not there) is written
 * as text or cut to fit, with a warning, and the rest exports. Text is only ever text runs, which
 * the library escapes, so nothing a page says becomes Word markup.
 */

import {
  AlignmentType,
  Document,
  ExternalHyperlink,
  FootnoteReferenceRun,
  HeadingLevel,
  ImageRun,
  ImportedXmlComponent,
  LevelFormat,
  Math as WordMath,
  Packer,
  PageBreak,
  Paragraph,
  ShadingType,
  Table,
  TableCell,
  TableRow,
  TextRun,
  WidthType,
  type ParagraphChild,
} from 'docx';
import type { Element, ElementContent, RootContent } from 'hast';
import type { ExportWarning } from './export-warning.js';
import type { ExportedImage, ImageLookup } from './exported-image.js';
import { formulaOf, isElement, markdownTree, textOf } from './markdown-tree.js';
import { mathmlToOmml } from './mathml-omml.js';
import { tableGrid, type TableGrid } from './table-grid.js';
import { tableParts } from './table-parts.js';
import { codePoint, withoutXmlForbidden } from './xml-characters.js';

export interface DocxOptions {
  title: string;
  image: ImageLookup;
  /** Each page after the first starts on a new Word page. */
  pageBreaks?: boolean;
}

type Block = Paragraph | Table;

interface RunStyle {
  bold?: boolean;
  italics?: boolean;
  strike?: boolean;
  code?: boolean;
  superScript?: boolean;
  subScript?: boolean;
  hyperlink?: boolean;
}

/** A4 with 2.5 cm margins, in twips and in pixels at 96 dpi. */
const TEXT_WIDTH_TWIPS = 9026;
const TEXT_WIDTH_PX = 600;
const CODE_FONT = 'Consolas';
const HEADINGS = {
  h1: HeadingLevel.HEADING_1,
  h2: HeadingLevel.HEADING_2,
  h3: HeadingLevel.HEADING_3,
  h4: HeadingLevel.HEADING_4,
  h5: HeadingLevel.HEADING_5,
  h6: HeadingLevel.HEADING_6,
} as const;
const STYLE_TAGS: Record<string, RunStyle> = {
  em: { italics: true },
  i: { italics: true },
  strong: { bold: true },
  b: { bold: true },
  del: { strike: true },
  s: { strike: true },
  code: { code: true },
  kbd: { code: true },
  sup: { superScript: true },
  sub: { subScript: true },
};
const BLOCK_TAGS = new Set(['p', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'ul', 'ol', 'pre', 'blockquote', 'hr', 'table', 'div', 'section', 'figure', 'details', 'dl']);
const LIST_LEVELS = 9;
/** Word's limit on a table's columns; wider tables are cut into parts of PART_COLUMNS. */
const WORD_COLUMNS = 63;
const PART_COLUMNS = 16;
/** Quotes indent 1 cm a level; past this many the text would have under half the page's width. */
const QUOTE_LEVELS = 6;

export async function documentDocx(
  pages: readonly { page: number; markdown: string }[],
  options: DocxOptions,
): Promise<{ data: Uint8Array; warnings: ExportWarning[] }> {
  const writer = new DocxWriter(options.image);
  const body: Block[] = [];
  for (const page of [...pages].sort((a, b) => a.page - b.page)) {
    const blocks = writer.addPage(page.page, page.markdown);
    if (options.pageBreaks && body.length > 0 && blocks.length > 0) body.push(new Paragraph({ children: [new PageBreak()] }));
    body.push(...blocks);
  }
  const document = new Document({
    title: withoutXmlForbidden(options.title).text,
    creator: 'Folio',
    numbering: { config: [listNumbering('bullets', LevelFormat.BULLET), listNumbering('numbers', LevelFormat.DECIMAL)] },
    footnotes: writer.footnotes,
    sections: [{ children: body.length > 0 ? body : [new Paragraph('')] }],
  });
  return { data: new Uint8Array(await Packer.toArrayBuffer(document)), warnings: writer.warnings };
}

function listNumbering(reference: string, format: (typeof LevelFormat)[keyof typeof LevelFormat]) {
  const bullets = ['•', '◦', '▪'];
  return {
    reference,
    levels: Array.from({ length: LIST_LEVELS }, (_, level) => ({
      level,
      format,
      text: format === LevelFormat.BULLET ? bullets[level % bullets.length]! : `%${level + 1}.`,
      alignment: AlignmentType.LEFT,
      style: { paragraph: { indent: { left: 720 * (level + 1), hanging: 360 } } },
    })),
  };
}

class DocxWriter {
  readonly warnings: ExportWarning[] = [];
  readonly footnotes: Record<string, { children: Paragraph[] }> = {};
  private currentPage = 0;
  private nextFootnote = 1;
  /** This page's footnote element ids to Word footnote numbers. */
  private footnoteIds = new Map<string, number>();
  private listInstance = 0;

  constructor(private readonly image: ImageLookup) {}

  addPage(page: number, markdown: string): Block[] {
    this.currentPage = page;
    const { text, removed } = withoutXmlForbidden(markdown);
    if (removed.length > 0) this.warn(`characters a Word file cannot hold (${removed.slice(0, 10).map(codePoint).join(', ')}) were left out.`);
    const tree = markdownTree(text);
    this.collectFootnotes(tree.children);
    return this.blocks(tree.children, {}, 0);
  }

  private warn(message: string): void {
    this.warnings.push({ page: this.currentPage, message });
  }

  /** Footnotes are numbered in the order they are defined, across the document. */
  private collectFootnotes(nodes: readonly RootContent[]): void {
    this.footnoteIds = new Map();
    const section = nodes.find((node): node is Element => isElement(node as ElementContent, 'section') && 'dataFootnotes' in (node as Element).properties);
    const list = section?.children.find((child): child is Element => isElement(child, 'ol'));
    for (const item of list?.children ?? []) {
      if (!isElement(item, 'li')) continue;
      const id = this.nextFootnote++;
      this.footnoteIds.set(String(item.properties['id']), id);
      const paragraphs = this.blocks(item.children, {}, 0).filter((block): block is Paragraph => block instanceof Paragraph);
      this.footnotes[id] = { children: paragraphs.length > 0 ? paragraphs : [new Paragraph('')] };
    }
  }

  private blocks(nodes: readonly (ElementContent | RootContent)[], style: RunStyle, quoteDepth: number): Block[] {
    const out: Block[] = [];
    let inline: ElementContent[] = [];
    const flush = () => {
      if (inline.some((node) => node.type !== 'text' || node.value.trim() !== '')) out.push(this.paragraph(inline, style, quoteDepth));
      inline = [];
    };
    for (const node of nodes) {
      if (node.type === 'element' && (BLOCK_TAGS.has(node.tagName) || isDisplayMath(node))) {
        flush();
        out.push(...this.block(node, style, quoteDepth));
      } else if (node.type === 'element' || node.type === 'text') {
        inline.push(node);
      }
    }
    flush();
    return out;
  }

  private block(element: Element, style: RunStyle, quoteDepth: number): Block[] {
    const tag = element.tagName;
    if (tag in HEADINGS) {
      return [new Paragraph({ heading: HEADINGS[tag as keyof typeof HEADINGS], children: this.inline(element.children, style) })];
    }
    switch (tag) {
      case 'p':
        return [this.paragraph(element.children, style, quoteDepth)];
      case 'ul':
      case 'ol':
        return this.list(element, style, quoteDepth, 0);
      case 'pre':
        return [this.code(textOf(element), quoteDepth)];
      case 'blockquote':
        if (quoteDepth === QUOTE_LEVELS) this.warnOnce(`quotes nested deeper than ${QUOTE_LEVELS} levels are indented as the ${QUOTE_LEVELS}th, so their text keeps its width.`);
        return this.blocks(element.children, style, Math.min(quoteDepth + 1, QUOTE_LEVELS));
      case 'hr':
        return [new Paragraph({ thematicBreak: true })];
      case 'table':
        return this.tables(element);
      case 'section':
        // the footnotes, already written as Word footnotes
        return 'dataFootnotes' in element.properties ? [] : this.blocks(element.children, style, quoteDepth);
      case 'span':
        return [new Paragraph({ alignment: AlignmentType.CENTER, children: this.inline([element], style) })];
      default:
        return this.blocks(element.children, style, quoteDepth);
    }
  }

  private paragraph(nodes: readonly ElementContent[], style: RunStyle, quoteDepth: number): Paragraph {
    return new Paragraph({ children: this.inline(nodes, style), ...(quoteDepth > 0 && { indent: { left: 567 * quoteDepth } }) });
  }

  private list(list: Element, style: RunStyle, quoteDepth: number, level: number): Block[] {
    const numbering = { reference: list.tagName === 'ol' ? 'numbers' : 'bullets', level: Math.min(level, LIST_LEVELS - 1), instance: this.listInstance++ };
    const out: Block[] = [];
    for (const item of list.children) {
      if (!isElement(item, 'li')) continue;
      let first = true;
      let inline: ElementContent[] = [];
      const flush = () => {
        if (inline.length === 0 && !first) return;
        const children = this.inline(inline, style);
        out.push(new Paragraph(first ? { children, numbering } : { children, indent: { left: 720 * (numbering.level + 1) } }));
        first = false;
        inline = [];
      };
      for (const child of item.children) {
        if (child.type === 'element' && child.tagName === 'p') {
          if (inline.length > 0) flush();
          inline = child.children;
          flush();
        } else if (child.type === 'element' && (child.tagName === 'ul' || child.tagName === 'ol')) {
          if (first || inline.length > 0) flush();
          out.push(...this.list(child, style, quoteDepth, level + 1));
        } else if (child.type === 'element' && BLOCK_TAGS.has(child.tagName)) {
          if (first || inline.length > 0) flush();
          out.push(...this.block(child, style, quoteDepth));
        } else if (child.type !== 'text' || child.value.trim() !== '' || inline.length > 0) {
          inline.push(child);
        }
      }
      if (first || inline.length > 0) flush();
    }
    return out;
  }

  private code(text: string, quoteDepth: number): Paragraph {
    const lines = text.replace(/\n$/, '').split('\n');
    return new Paragraph({
      shading: { type: ShadingType.CLEAR, fill: 'F2F2F2', color: 'auto' },
      ...(quoteDepth > 0 && { indent: { left: 567 * quoteDepth } }),
      children: lines.map((line, index) => new TextRun({ text: line, font: CODE_FONT, ...(index > 0 && { break: 1 }) })),
    });
  }

  private warnOnce(message: string): void {
    if (!this.warnings.some((warning) => warning.page === this.currentPage && warning.message === message)) this.warn(message);
  }

  /** The table, or its parts when it has more columns than Word takes, each with a line naming it. */
  private tables(element: Element): Block[] {
    const whole = tableGrid(element);
    for (const problem of whole.problems) this.warn(`a table's ${problem}; the span was cut to fit.`);
    if (whole.columns <= WORD_COLUMNS) return [this.table(whole)];
    const parts = tableParts(whole, PART_COLUMNS);
    this.warn(`a table of ${whole.columns} columns is wider than Word allows (${WORD_COLUMNS}); it was written in ${parts.length} parts of at most ${PART_COLUMNS} columns, each beginning with the table's first column.`);
    return parts.flatMap((grid, index) => [new Paragraph({ children: [textRun(`Table, part ${index + 1} of ${parts.length}`, { italics: true })] }), this.table(grid)]);
  }

  private table(grid: TableGrid): Table {
    const columns = Math.max(grid.columns, 1);
    const rows = grid.rows
      .filter((row) => row.length > 0)
      .map(
        (row, index) =>
          new TableRow({
            tableHeader: index < grid.headerRows,
            children: row.map((cell) => {
              const style: RunStyle = cell.header ? { bold: true } : {};
              const content = cell.element ? this.blocks(cell.element.children, style, 0) : [];
              return new TableCell({
                columnSpan: cell.colSpan,
                rowSpan: cell.rowSpan,
                ...(cell.header && { shading: { type: ShadingType.CLEAR, fill: 'EDEDED', color: 'auto' } }),
                children: content.length > 0 ? content : [new Paragraph('')],
              });
            }),
          }),
      );
    return new Table({
      width: { size: 100, type: WidthType.PERCENTAGE },
      columnWidths: Array.from({ length: columns }, () => Math.floor(TEXT_WIDTH_TWIPS / columns)),
      rows: rows.length > 0 ? rows : [new TableRow({ children: [new TableCell({ children: [new Paragraph('')] })] })],
    });
  }

  private inline(nodes: readonly ElementContent[], style: RunStyle): ParagraphChild[] {
    const out: ParagraphChild[] = [];
    for (const node of nodes) {
      if (node.type === 'text') {
        const text = node.value.replace(/\s*\n\s*/g, ' ');
        if (text !== '') out.push(textRun(text, style));
        continue;
      }
      if (node.type !== 'element') continue;
      out.push(...this.inlineElement(node, style));
    }
    return out;
  }

  private inlineElement(element: Element, style: RunStyle): ParagraphChild[] {
    const tag = element.tagName;
    const styled = STYLE_TAGS[tag];
    if (styled) return this.inline(element.children, { ...style, ...styled });
    if (tag === 'br') return [new TextRun({ break: 1 })];
    if (tag === 'img') return this.imageRun(element, style);
    if (tag === 'input') return [textRun(element.properties['checked'] ? '☒ ' : '☐ ', style)];
    if (tag === 'a') return this.link(element, style);
    const formula = formulaOf(element);
    if (formula) return [this.formula(formula, style)];
    return this.inline(element.children, style);
  }

  private link(anchor: Element, style: RunStyle): ParagraphChild[] {
    const href = String(anchor.properties['href'] ?? '');
    if ('dataFootnoteBackref' in anchor.properties) return [];
    if ('dataFootnoteRef' in anchor.properties) {
      const id = this.footnoteIds.get(`user-content-${href.slice(1)}`) ?? this.footnoteIds.get(href.slice(1));
      return id === undefined ? this.inline(anchor.children, style) : [new FootnoteReferenceRun(id)];
    }
    const children = this.inline(anchor.children, { ...style, hyperlink: true });
    // only links that leave the document; the sanitiser has already removed script and data URLs
    return /^(https?:|mailto:)/i.test(href) ? [new ExternalHyperlink({ link: href, children })] : this.inline(anchor.children, style);
  }

  private formula(formula: NonNullable<ReturnType<typeof formulaOf>>, style: RunStyle): ParagraphChild {
    if (formula.kind === 'math') {
      try {
        const omml = mathmlToOmml(formula.math);
        return new WordMath({ children: [ImportedXmlComponent.fromXmlString(omml)] });
      } catch (error) {
        this.warn(`the formula ${quote(formula.source)} could not be made a Word equation (${(error as Error).message}); it is written as its LaTeX source.`);
      }
    } else {
      this.warn(`the formula ${quote(formula.source)} is not valid LaTeX (${formula.reason}); it is written as its source.`);
    }
    return textRun(formula.source, { ...style, code: true });
  }

  private imageRun(element: Element, style: RunStyle): ParagraphChild[] {
    const src = String(element.properties['src'] ?? '');
    const alt = String(element.properties['alt'] ?? '');
    const image = src === '' ? undefined : this.image(src);
    if (image) return [new ImageRun({ type: 'png', data: image.data, transformation: displaySize(image), altText: { name: image.path, description: alt, title: alt } })];
    if (src !== '') this.warn(`the image ${quote(src)} is not among the exported figures; its description is written instead.`);
    return alt === '' ? [] : [textRun(`[${alt}]`, { ...style, italics: true })];
  }
}

function isDisplayMath(element: Element): boolean {
  const formula = formulaOf(element);
  return formula?.kind === 'math' && formula.display;
}

function textRun(text: string, style: RunStyle): TextRun {
  return new TextRun({
    text,
    bold: style.bold,
    italics: style.italics,
    strike: style.strike,
    superScript: style.superScript,
    subScript: style.subScript,
    ...(style.code && { font: CODE_FONT }),
    ...(style.hyperlink && { style: 'Hyperlink' }),
  });
}

/** The figure's size on the page, in pixels at 96 dpi, no wider than the text. */
function displaySize(image: ExportedImage): { width: number; height: number } {
  const width = Math.max(1, (image.width * 96) / 72);
  const height = Math.max(1, (image.height * 96) / 72);
  const scale = Math.min(1, TEXT_WIDTH_PX / width);
  return { width: Math.round(width * scale), height: Math.round(height * scale) };
}

function quote(text: string): string {
  const short = text.length > 60 ? `${text.slice(0, 57)}...` : text;
  return `"${short.replace(/\s+/g, ' ')}"`;
}
