/**
 * Where each symbol of a formula lands when KaTeX renders it, and olmOCR-Bench's test of whether
 * one rendered formula is found in another by the symbols' neighbours. olmOCR renders both
 * formulas in Chromium (24 px, display mode) and reads the box of every innermost span with text;
 * here the same boxes are laid out from KaTeX's own HTML tree: its vertical lists give each row's
 * baseline exactly, symbol widths come from KaTeX's font metrics, and the box of a span around its
 * baseline is what Chromium gives (olmOCR's page loads KaTeX's CSS without its fonts, so a span is
 * set in the fallback font: measured once, see test/olmocr-bench-math-layout.test.ts).
 */

import katex from 'katex';
import { KATEX_OPTIONS } from '../katex-quiet.js';

/** A symbol's box centre, in ems of the formula's font (1.21 x 24 px in olmOCR's page). */
export interface GlyphBox {
  text: string;
  x: number;
  y: number;
}

/** olmOCR's tolerance for "in the same row / column": 5 px, against its 24 px x 1.21 font. */
export const NEIGHBOUR_TOLERANCE_EM = 5 / (24 * 1.21);

/** KaTeX's size multipliers, size1 to size11. */
const SIZES = [0.5, 0.6, 0.7, 0.8, 0.9, 1, 1.2, 1.44, 1.728, 2.074, 2.488];
/**
 * A span's box, from its baseline up and down, in ems of its font size (Chromium, the fonts that
 * KaTeX's CSS names unavailable): a class naming one KaTeX family falls back to the default font,
 * the others to the family list that `.katex` sets.
 */
const ONE_FAMILY_BOX = { ascent: 0.8953, descent: 0.2066 };
const FAMILY_LIST_BOX = { ascent: 0.792, descent: 0.2066 };
const ONE_FAMILY_CLASSES = new Set(['mathnormal', 'mathit', 'mathbf', 'boldsymbol', 'amsrm', 'mathbb', 'textbb', 'mathcal', 'mathfrak', 'textfrak', 'mathtt', 'texttt', 'mathscr', 'textscr', 'mathsf', 'textsf', 'mathboldsf', 'textboldsf', 'mathitsf', 'textitsf', 'mainrm', 'size1', 'size2', 'size3', 'size4', 'op-symbol']);
const CENTERED = ['mfrac', 'op-limits', 'katex-accent', 'accent', 'mover', 'munder', 'x-arrow', 'col-align-c'];

/** The parts of KaTeX's virtual DOM (Span, SymbolNode, SvgNode) that layout reads. */
interface TreeNode {
  children?: TreeNode[];
  classes?: string[];
  style?: Record<string, string | undefined>;
  text?: string;
  width?: number;
}

interface Placed {
  text: string;
  left: number;
  width: number;
  /** Below the box's baseline (negative above), in ems of the formula's font. */
  baseline: number;
  size: number;
  oneFamily: boolean;
}

interface Laid {
  width: number;
  glyphs: Placed[];
}

type Align = 'left' | 'center' | 'right';

/**
 * Advance widths (ems) of Computer Modern Roman, for spans of several characters: KaTeX joins
 * neighbouring digits or a word into one span and keeps only one character's width with it.
 */
const ROMAN_WIDTHS: Record<string, number> = {
  ...Object.fromEntries([...'0123456789'].map((d) => [d, 0.5])),
  a: 0.5, b: 0.556, c: 0.444, d: 0.556, e: 0.444, f: 0.306, g: 0.5, h: 0.556, i: 0.278, j: 0.306, k: 0.528, l: 0.278, m: 0.833,
  n: 0.556, o: 0.5, p: 0.556, q: 0.528, r: 0.392, s: 0.394, t: 0.389, u: 0.556, v: 0.528, w: 0.722, x: 0.528, y: 0.528, z: 0.444,
  '.': 0.278, ',': 0.278, ':': 0.278, ';': 0.278, ' ': 0.333, '\u00a0': 0.333, '-': 0.333, "'": 0.278, '(': 0.389, ')': 0.389,
};

/**
 * Big operators and sized delimiters, which KaTeX sets in its Size fonts: in the fallback font they
 * keep their text size (Chromium, measured once), so what follows them moves left.
 */
const SIZED_WIDTHS: Record<string, number> = { '∑': 0.713, '∏': 0.823, '∐': 0.757, '∫': 0.274, '∬': 0.789, '∭': 1.057, '∮': 0.521, '⋃': 0.821, '⋂': 0.821, '⨁': 1, '⨂': 1, '⨀': 1, '⋁': 0.821, '⋀': 0.821, '(': 0.333, ')': 0.333, '[': 0.333, ']': 0.333, '{': 0.48, '}': 0.48, '|': 0.2, '‖': 0.5, '⟨': 0.39, '⟩': 0.39, '/': 0.278, '⌊': 0.39, '⌋': 0.39, '⌈': 0.39, '⌉': 0.39 };

function symbolWidth(node: TreeNode): number {
  const chars = Array.from(node.text ?? '');
  const sized = node.classes?.some((c) => c === 'op-symbol' || c === 'delimsizing') ? SIZED_WIDTHS[node.text ?? ''] : undefined;
  if (sized !== undefined) return sized;
  if (chars.length <= 1) return node.width ?? 0;
  return chars.reduce((sum, c) => sum + (ROMAN_WIDTHS[c] ?? (/\p{Lu}/u.test(c) ? 0.722 : 0.5)), 0);
}

const ems = (value: string | undefined): number => (value !== undefined && value.endsWith('em') ? Number.parseFloat(value) : 0);

function sizeFactor(classes: readonly string[]): number {
  if (!classes.some((c) => c === 'sizing' || c === 'katex-sizing' || c === 'fontsize-ensurer' || c === 'katex-fontsize-ensurer')) return 1;
  const reset = classes.find((c) => c.startsWith('reset-size'));
  const size = classes.find((c) => /^size\d+$/.test(c));
  if (!reset || !size) return 1;
  return (SIZES[Number(size.slice(4)) - 1] ?? 1) / (SIZES[Number(reset.slice(10)) - 1] ?? 1);
}

function shift(laid: Laid, dx: number, dy = 0): Placed[] {
  return laid.glyphs.map((g) => ({ ...g, left: g.left + dx, baseline: g.baseline + dy }));
}

function lay(node: TreeNode, size: number, align: Align): Laid {
  const style = node.style ?? {};
  const classes = node.classes ?? [];
  if (node.text !== undefined) {
    const marginLeft = ems(style['marginLeft']) * size;
    const width = symbolWidth(node) * size;
    const text = node.text.trim();
    const glyphs = text === '' || text === '\u200b' ? [] : [{ text, left: marginLeft, width, baseline: 0, size, oneFamily: classes.some((c) => ONE_FAMILY_CLASSES.has(c)) }];
    return { width: marginLeft + width + ems(style['marginRight']) * size, glyphs };
  }
  const own = size * sizeFactor(classes);
  const inner: Align = classes.some((c) => CENTERED.includes(c)) ? 'center' : classes.includes('col-align-r') ? 'right' : classes.some((c) => c === 'col-align-l' || c === 'msupsub' || c === 'svg-align') ? 'left' : align;
  const before = (ems(style['marginLeft']) + ems(style['paddingLeft'])) * own;
  const after = (ems(style['marginRight']) + ems(style['paddingRight'])) * own;
  let content: Laid;
  if (classes.includes('vlist-t')) content = layVlist(node, own, inner);
  else {
    let x = 0;
    const glyphs: Placed[] = [];
    const tags: Laid[] = [];
    for (const child of node.children ?? []) {
      const laid = lay(child, own, inner);
      // an equation's tag is absolutely placed at the right end of the display, which in olmOCR's
      // page is as wide as the formula: it ends where the formula ends, over its last symbols
      if (child.classes?.some((c) => c === 'katex-tag' || c === 'tag')) tags.push(laid);
      else {
        glyphs.push(...shift(laid, x));
        x += laid.width;
      }
    }
    for (const tag of tags) glyphs.push(...shift(tag, x - tag.width));
    content = { width: x, glyphs };
  }
  // widths CSS or an inline style fix: null delimiters, spacing and column gaps, and the tails of SVG radicals
  let width = content.width;
  if (classes.includes('nulldelimiter')) width = 0.12 * own;
  else if (style['width'] !== undefined) width = ems(style['width']) * own;
  else if (style['minWidth'] !== undefined) width = Math.max(width, ems(style['minWidth']) * own);
  if (classes.includes('accent-body') && !classes.includes('accent-full')) width = 0;
  if (['clap', 'llap', 'rlap'].some((c) => classes.includes(c))) width = 0;
  // `left` moves a relatively positioned span without moving what follows it
  const moved = ems(style['left']) * own;
  return { width: before + width + after, glyphs: shift(content, before + moved) };
}

/**
 * A vertical list: each child's baseline from its `top` and its pstrut, children aligned in the
 * widest one's width. A child pulled left by a negative margin (a subscript under an italic
 * letter's overhang) does not stick out: Chromium starts the list there and moves the others right.
 */
function layVlist(node: TreeNode, size: number, align: Align): Laid {
  const vlist = node.children?.[0]?.children?.find((child) => child.classes?.includes('vlist'));
  const rows: { laid: Laid; start: number; baseline: number }[] = [];
  for (const row of vlist?.children ?? []) {
    const pstrut = row.children?.find((child) => child.classes?.includes('pstrut'));
    const content: TreeNode = { children: row.children?.filter((child) => child !== pstrut), style: { marginLeft: row.style?.['marginLeft'], marginRight: row.style?.['marginRight'] }, classes: row.classes };
    const start = Math.min(0, ems(row.style?.['marginLeft']) * size);
    rows.push({ laid: lay(content, size, align), start, baseline: (ems(row.style?.['top']) + ems(pstrut?.style?.['height'])) * size });
  }
  const origin = -Math.min(0, ...rows.map((r) => r.start));
  const width = Math.max(0, ...rows.map((r) => r.laid.width)) + origin;
  const glyphs = rows.flatMap(({ laid, baseline }) => {
    const free = width - origin - laid.width;
    return shift(laid, origin + (align === 'center' ? free / 2 : align === 'right' ? free : 0), baseline);
  });
  return { width, glyphs };
}

/** KaTeX's HTML as its virtual DOM: exported by KaTeX (for its own tests) but not in its type declarations. */
const renderToHtmlTree = (katex as unknown as { __renderToHTMLTree(latex: string, options: katex.KatexOptions): TreeNode }).__renderToHTMLTree;

/** Each character's box centre as olmOCR reads it (a span of several characters split evenly), or undefined when KaTeX cannot render the formula. */
export function formulaGlyphs(latex: string): GlyphBox[] | undefined {
  let tree: TreeNode;
  try {
    tree = renderToHtmlTree(latex, { ...KATEX_OPTIONS, displayMode: true, throwOnError: true });
  } catch {
    return undefined;
  }
  return lay(tree, 1, 'center').glyphs.flatMap((g) => {
    const chars = Array.from(g.text);
    const box = g.oneFamily ? ONE_FAMILY_BOX : FAMILY_LIST_BOX;
    const y = g.baseline - ((box.ascent - box.descent) / 2) * g.size;
    return chars.map((text, i) => ({ text, x: g.left + ((i + 0.5) * g.width) / chars.length, y }));
  });
}

type Direction = 'up' | 'down' | 'left' | 'right';
const DIRECTIONS: readonly Direction[] = ['up', 'down', 'left', 'right'];

/** The nearest box in each direction whose centre lies within the tolerance of this one's row or column. */
function neighbours(boxes: readonly GlyphBox[]): Record<Direction, number | undefined>[] {
  const tol = NEIGHBOUR_TOLERANCE_EM;
  return boxes.map((box, i) => {
    const found: Record<Direction, number | undefined> = { up: undefined, down: undefined, left: undefined, right: undefined };
    const best: Record<Direction, number> = { up: Infinity, down: Infinity, left: Infinity, right: Infinity };
    boxes.forEach((other, j) => {
      if (i === j) return;
      const consider = (direction: Direction, distance: number) => {
        if (distance < best[direction]) [best[direction], found[direction]] = [distance, j];
      };
      if (other.y < box.y && Math.abs(other.x - box.x) <= tol) consider('up', box.y - other.y);
      if (other.y > box.y && Math.abs(other.x - box.x) <= tol) consider('down', other.y - box.y);
      if (other.x < box.x && Math.abs(other.y - box.y) <= tol) consider('left', box.x - other.x);
      if (other.x > box.x && Math.abs(other.y - box.y) <= tol) consider('right', other.x - box.x);
    });
    return found;
  });
}

/** Backtracking steps after which a match is given up as not found (olmOCR has no bound; formulas of hundreds of repeated symbols could take for ever). */
const MAX_STEPS = 200_000;

/**
 * olmOCR's symbol test: every symbol of the reference is given a distinct symbol of the hypothesis
 * with the same text, such that wherever a reference symbol has a neighbour (up, down, left,
 * right), its partner has one there too, with the same text (and the same partner, once assigned).
 * The hypothesis may hold more: the reference is found inside a longer formula.
 */
export function glyphsFoundIn(reference: readonly GlyphBox[], hypothesis: readonly GlyphBox[]): boolean {
  const ref = neighbours(reference);
  const hyp = neighbours(hypothesis);
  const candidates = reference.map((box) => hypothesis.flatMap((other, j) => (other.text === box.text ? [j] : [])));
  if (candidates.some((list) => list.length === 0)) return false;
  const assignment = new Map<number, number>();
  const used = new Set<number>();
  let steps = 0;
  const place = (i: number): boolean => {
    if (i === reference.length) return true;
    for (const candidate of candidates[i]!) {
      if (used.has(candidate) || ++steps > MAX_STEPS) continue;
      assignment.set(i, candidate);
      used.add(candidate);
      const consistent = DIRECTIONS.every((direction) => {
        const mine = ref[i]![direction];
        if (mine === undefined) return true;
        const theirs = hyp[candidate]![direction];
        if (theirs === undefined) return false;
        const partner = assignment.get(mine);
        return partner !== undefined ? partner === theirs : hypothesis[theirs]!.text === reference[mine]!.text;
      });
      if (consistent && place(i + 1)) return true;
      used.delete(candidate);
      assignment.delete(i);
    }
    return false;
  };
  return place(0);
}
