/**
 * DeepSeek-OCR's grounded output to clean Markdown and blocks. With `<|grounding|>` in its prompt the
 * model opens every region with `<|ref|>label<|/ref|><|det|>[[x0, y0, x1, y1]]<|/det|>` and then
 * writes the region's Markdown. The parser takes the text as it streams, drops the tags (holding
 * back only a possible tag start), puts an image link where a figure region is, and keeps each
 * region's label, boxes and Markdown. Text without tags (jina-ocr-v1) passes through unchanged.
 */

import { IMAGE_LINK_PREFIX, type BBox, type Block, type BlockKind, type PageImage } from './page.js';

/** A box as the model writes it: 0..999 across the page image's width and height. */
export type GroundBox = readonly [x0: number, y0: number, x1: number, y1: number];

export interface GroundedRegion {
  /** The model's label (`title`, `text`, `table`...); undefined for a box without one. */
  label: string | undefined;
  /** Empty when the coordinates were missing or unreadable. */
  boxes: GroundBox[];
  /** The region's Markdown as it appears in the page's, trimmed; empty for running text left out. */
  markdown: string;
  /** For a figure region with a box: the image its link names. */
  imageName?: string;
}

export interface GroundingOptions {
  /** The name of the page's `index`-th (1-based) figure. */
  imageName(index: number): string;
  /** Keep regions labelled as running headers and footers in the Markdown. */
  keepHeaders: boolean;
}

/** The coordinate scale of DeepSeek-OCR's boxes: its reference maps v to v / 999 of the image side. */
const GROUND_SCALE = 999;
const MARKERS = ['<|ref|>', '<|/ref|>', '<|det|>', '<|/det|>', '<|grounding|>'] as const;
type Marker = (typeof MARKERS)[number];
/** Labels are short words; a longer run, or a line break, means the closing tag never came and this is content. */
const MAX_LABEL = 40;
/** Anything else inside `<|det|>` means the coordinates ended without their closing tag. */
const COORDINATE_CHARS = /[^\d\s,.[\]-]/;
/** A region has a box or a few; past this many characters of coordinates the rest are not kept. */
const MAX_COORDINATES = 4096;
const BOX = /\[\s*(-?[\d.]+)\s*,\s*(-?[\d.]+)\s*,\s*(-?[\d.]+)\s*,\s*(-?[\d.]+)\s*\]/g;

const KIND_OF_LABEL: Record<string, BlockKind> = {
  title: 'heading',
  sub_title: 'heading',
  subtitle: 'heading',
  section_header: 'heading',
  text: 'paragraph',
  table: 'table',
  image: 'image',
  figure: 'image',
  image_caption: 'caption',
  table_caption: 'caption',
  figure_caption: 'caption',
  caption: 'caption',
  equation: 'formula',
  formula: 'formula',
  isolate_formula: 'formula',
  interline_equation: 'formula',
  list: 'list',
  code: 'code',
  header: 'header',
  page_header: 'header',
  footer: 'footer',
  page_footer: 'footer',
  page_number: 'footer',
};

export function blockKindOf(label: string | undefined): BlockKind {
  return KIND_OF_LABEL[label?.trim().toLowerCase() ?? ''] ?? 'paragraph';
}

interface OpenRegion {
  label: string | undefined;
  boxes: GroundBox[];
  imageName?: string;
  /** Left out of the Markdown: running text when headers are not kept. */
  dropped: boolean;
  /** Its Markdown so far; undefined until its first content. Kept apart because slicing the page's text would flatten it each time. */
  text?: string;
}

type State = 'content' | 'label' | 'after-label' | 'coordinates';

export class GroundingParser {
  private state: State = 'content';
  /** Text that could still be the start of a tag. */
  private pending = '';
  private label = '';
  private labelClosed: string | undefined;
  private coordinates = '';
  private region: OpenRegion | undefined;
  /** The line break that follows `<|/det|>` belongs to the tag, not to the region's Markdown. */
  private skipLineBreak = false;
  private images = 0;
  private text = '';
  /** The last two characters of `text`: reading them off `text` itself would flatten it on every region. */
  private tail = '';
  private output = '';
  private readonly closed: GroundedRegion[] = [];

  constructor(private readonly options: GroundingOptions) {}

  /** The clean Markdown so far: the concatenation of every delta returned. */
  get markdown(): string {
    return this.text;
  }

  /** The regions closed so far (all of them after `finish`). */
  get regions(): readonly GroundedRegion[] {
    return this.closed;
  }

  /** Takes the next raw text; returns the clean Markdown it completes (possibly empty). */
  push(delta: string): string {
    const text = this.pending + delta;
    this.pending = '';
    let from = 0;
    for (let at = text.indexOf('<'); at !== -1; at = text.indexOf('<', at + 1)) {
      const marker = MARKERS.find((candidate) => text.startsWith(candidate, at));
      if (marker) {
        this.onText(text.slice(from, at));
        this.onMarker(marker);
        from = at + marker.length;
        at = from - 1;
        continue;
      }
      const rest = text.slice(at);
      if (MARKERS.some((candidate) => candidate.startsWith(rest))) {
        this.pending = rest;
        this.onText(text.slice(from, at));
        return this.takeOutput();
      }
    }
    this.onText(text.slice(from));
    return this.takeOutput();
  }

  /**
   * Ends the text (the model stopped, or hit its token limit mid-tag): a cut tag is dropped, a
   * region whose coordinates were cut keeps the boxes that were complete. Returns the last delta.
   */
  finish(): string {
    // a lone `<` is text; a longer start of a tag is a tag the token limit cut
    if (this.pending === '<') this.onText(this.pending);
    this.pending = '';
    this.settleTag();
    this.closeRegion();
    return this.takeOutput();
  }

  private takeOutput(): string {
    const out = this.output;
    this.output = '';
    return out;
  }

  private onMarker(marker: Marker): void {
    switch (marker) {
      case '<|ref|>':
        this.settleTag();
        this.closeRegion();
        this.state = 'label';
        this.label = '';
        return;
      case '<|/ref|>':
        if (this.state !== 'label') return;
        this.labelClosed = this.label.trim();
        this.state = 'after-label';
        return;
      case '<|det|>':
        if (this.state === 'label') this.labelClosed = this.label.trim();
        else if (this.state === 'content') {
          this.closeRegion();
          this.labelClosed = undefined;
        } else if (this.state === 'coordinates') return;
        this.state = 'coordinates';
        this.coordinates = '';
        return;
      case '<|/det|>':
        if (this.state === 'content') return;
        this.settleTag();
        this.skipLineBreak = true;
        return;
      case '<|grounding|>':
        return;
    }
  }

  private onText(text: string): void {
    if (!text) return;
    switch (this.state) {
      case 'content':
        return this.content(text);
      case 'label': {
        this.label += text;
        if (!this.label.includes('\n') && this.label.length <= MAX_LABEL) return;
        // no `<|/ref|>` came: what looked like a label is the page's text
        const content = this.label;
        this.label = '';
        this.state = 'content';
        return this.content(content);
      }
      case 'after-label': {
        if (!text.trim()) return;
        this.openRegion(this.labelClosed, []);
        return this.content(text.trimStart());
      }
      case 'coordinates': {
        // only the new text is searched: searching all the coordinates on every delta made an endless box list quadratic
        const end = text.search(COORDINATE_CHARS);
        if (end === -1) {
          if (this.coordinates.length < MAX_COORDINATES) this.coordinates += text;
          return;
        }
        // the closing `<|/det|>` never came: keep the boxes that were whole, then go on with the content
        if (this.coordinates.length < MAX_COORDINATES) this.coordinates += text.slice(0, end);
        this.settleTag();
        return this.content(text.slice(end));
      }
    }
  }

  /** Ends whatever tag is open: a cut label is dropped; a label or coordinates open the region they describe. */
  private settleTag(): void {
    const state = this.state;
    this.state = 'content';
    if (state === 'after-label') this.openRegion(this.labelClosed, []);
    else if (state === 'coordinates') this.openRegion(this.labelClosed, readBoxes(this.coordinates));
    this.label = '';
    this.labelClosed = undefined;
    this.coordinates = '';
  }

  private openRegion(label: string | undefined, boxes: GroundBox[]): void {
    this.closeRegion();
    const kind = blockKindOf(label);
    const dropped = (kind === 'header' || kind === 'footer') && !this.options.keepHeaders;
    this.region = { label, boxes, dropped };
    if (kind === 'image' && boxes.length > 0) {
      const name = this.options.imageName(++this.images);
      this.region.imageName = name;
      this.content(`![](${IMAGE_LINK_PREFIX}${name})`);
    }
  }

  private closeRegion(): void {
    const region = this.region;
    if (!region) return;
    this.region = undefined;
    const markdown = region.text?.trim() ?? '';
    this.closed.push({ label: region.label, boxes: region.boxes, markdown, ...(region.imageName ? { imageName: region.imageName } : {}) });
  }

  private content(raw: string): void {
    let text = raw;
    if (this.skipLineBreak && text) {
      this.skipLineBreak = false;
      if (text.startsWith('\n')) text = text.slice(1);
    }
    const region = this.region;
    if (!text || region?.dropped) return;
    if (region && region.text === undefined) {
      // blank lines before a region's first line are the tag's; the region is set apart as a block here
      text = text.replace(/^\s*\n/, '');
      if (!text) return;
      this.emit(blockSeparator(this.tail));
      region.text = '';
    }
    if (region) region.text += text;
    this.emit(text);
  }

  private emit(text: string): void {
    this.text += text;
    this.tail = (this.tail + text).slice(-2);
    this.output += text;
  }
}

/** What makes the next block start after a blank line, given the end of the text before it. */
function blockSeparator(before: string): string {
  if (!before || before.endsWith('\n\n')) return '';
  return before.endsWith('\n') ? '\n' : '\n\n';
}

/** The whole `[x0, y0, x1, y1]` groups in the text; a group cut short is left out. */
export function readBoxes(coordinates: string): GroundBox[] {
  const boxes: GroundBox[] = [];
  for (const match of coordinates.matchAll(BOX)) {
    const [x0, y0, x1, y1] = match.slice(1, 5).map(Number) as [number, number, number, number];
    if ([x0, y0, x1, y1].every(Number.isFinite)) boxes.push([x0, y0, x1, y1]);
  }
  return boxes;
}

/**
 * A model box in PDF points. The scale is per axis, to the page as the model was shown it: DeepSeek's
 * own post-processing maps x to x / 999 * width and y to y / 999 * height of the unpadded image, so
 * neither the padding to a square nor a squashed view enters; the page image has the page's aspect.
 */
export function toPagePoints(boxes: readonly GroundBox[], page: { width: number; height: number }): BBox | undefined {
  if (boxes.length === 0) return undefined;
  const scale = (value: number, side: number): number => (Math.min(Math.max(value, 0), GROUND_SCALE) / GROUND_SCALE) * side;
  const xs = boxes.flatMap(([x0, , x1]) => [x0, x1]).map((x) => scale(x, page.width));
  const ys = boxes.flatMap(([, y0, , y1]) => [y0, y1]).map((y) => scale(y, page.height));
  return [Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys)];
}

/** One block per region that has a box, in the order the model read them. */
export function groundedBlocks(regions: readonly GroundedRegion[], page: { width: number; height: number }): Block[] {
  const blocks: Block[] = [];
  for (const region of regions) {
    const bbox = toPagePoints(region.boxes, page);
    if (!bbox) continue;
    const kind = blockKindOf(region.label);
    const block: Block = { kind, bbox, markdown: region.markdown };
    if (kind === 'heading') block.level = headingLevel(region);
    blocks.push(block);
  }
  return blocks;
}

/** The figures the Markdown links to, without pixels. */
export function groundedImages(regions: readonly GroundedRegion[], page: { width: number; height: number }): PageImage[] {
  const images: PageImage[] = [];
  for (const region of regions) {
    const bbox = toPagePoints(region.boxes, page);
    if (region.imageName && bbox) images.push({ name: region.imageName, bbox, mime: 'image/png' });
  }
  return images;
}

/** The level the Markdown gives (`## ...`), else title 1 and anything below it 2. */
function headingLevel(region: GroundedRegion): number {
  const hashes = /^(#{1,6})\s/.exec(region.markdown)?.[1];
  if (hashes) return hashes.length;
  return region.label?.trim().toLowerCase() === 'title' ? 1 : 2;
}

/** A page's grounding options: figures named as every engine names a page's images. */
export function pageGrounding(page: number, keepHeaders: boolean): GroundingOptions {
  return { imageName: (index) => `page-${page}-image-${index}.png`, keepHeaders };
}
