/**
 * Characters as PDFium reads them -> text items as pdf.js gives them, so the layout code reads
 * either parser the same way (text-runs.ts). An item is a stretch of one line in one font and size;
 * it ends where PDFium ends a line, where the font or direction changes, or at a gap wider than a
 * word space (table columns, tab stops), as pdf.js ends its items.
 */

import { isAccentGlyph, letterWithAccent } from './accents.js';
import type { PageObjects } from './drawing.js';
import type { PageGeometry } from '../pdf/page-geometry.js';
import type { FontFacts } from './font-facts.js';
import type { AnnotationLike } from './links.js';
import type { TextContentLike, TextItemLike, TextStyleLike } from './text-runs.js';

/** One character of a page's text, in PDF user space. */
export interface PageChar {
  /** The character's Unicode text (PDFium's generated spaces and line breaks included). */
  text: string;
  /** A space or line break PDFium inferred from the layout rather than read from the file. */
  generated: boolean;
  /** Which font draws it: a key into the page's fonts. */
  font: string;
  /** Font size times the character's matrix: [a b c d] of pdf.js's item transform. */
  a: number;
  b: number;
  c: number;
  d: number;
  /** Baseline origin. */
  x: number;
  y: number;
  /** Where the character's advance ends, along the baseline from its origin. */
  advance: number;
  /** The file gives no Unicode for the glyph PDFium can read: `text` is its character code. */
  unmapped?: boolean;
}

/** A page's text content with the facts of its fonts, keyed as its items' `fontName`. */
export interface CharTextContent extends TextContentLike {
  items: TextItemLike[];
  fonts: ReadonlyMap<string, FontFacts>;
  /** What the page paints besides text, when the reader read it with the text (PDFium does). */
  drawing?: PageObjects;
  /** The characters the items were made from, kept only when some are unmapped (unmapped-glyphs.ts). */
  chars?: readonly PageChar[];
  /** The page's web links with the text under each, when the reader read them with the text (PDFium does). */
  links?: AnnotationLike[];
  /** Rectangles [x0, y0, x1, y1] of annotations that show text with no appearance of their own (unpainted-annotations.ts). */
  unpaintedAnnotations?: [number, number, number, number][];
  /** The page's view box and turn, when the reader read them with the text (PDFium does; page-geometry.ts). */
  geometry?: PageGeometry;
}

/** pdf.js ends an item at a gap wider than this many font sizes (SPACE_IN_FLOW_MAX_FACTOR). */
const ITEM_GAP = 0.6;
/** A step back along the baseline of more than this many font sizes is a new item. */
const STEP_BACK = 0.3;
/**
 * A shift off the baseline of more than this many font sizes is a new item, as a new text matrix is
 * in pdf.js.
 */
const BASELINE_SHIFT = 0.05;
/** Matrices of one item agree to this relative tolerance. */
const SAME_MATRIX = 0.01;

interface OpenItem {
  first: PageChar;
  text: string;
  /** Advance end of the last character, along the baseline from the first origin. */
  end: number;
}

export function charItems(
  chars: readonly PageChar[],
  styles: Record<string, TextStyleLike>,
  fonts: ReadonlyMap<string, FontFacts>,
): CharTextContent {
  const items: TextItemLike[] = [];
  let open: OpenItem | undefined;
  let pendingSpace = false;
  const close = () => {
    if (open) items.push(toItem(open));
    open = undefined;
    pendingSpace = false;
  };
  for (const char of composeAccentChars(chars)) {
    if (char.generated) {
      if (char.text === '\r' || char.text === '\n') {
        close();
        continue;
      }
      // A space PDFium inferred: kept only between characters of one item, as pdf.js inserts it.
      if (open) pendingSpace = true;
      continue;
    }
    if (open && !continues(open, char)) close();
    if (!open) {
      open = { first: char, text: char.text, end: char.advance };
      continue;
    }
    const along = alongBaseline(open.first, char);
    open.text += (pendingSpace && !char.text.startsWith(' ') && !open.text.endsWith(' ') ? ' ' : '') + char.text;
    open.end = Math.max(open.end, along + char.advance);
    pendingSpace = false;
  }
  close();
  return { items, styles, fonts };
}

/** How many characters either side of an accent, in PDFium's order, may be the letter it is drawn on. */
const ACCENT_REACH = 40;
/** An accent's baseline sits at most this many font sizes above its letter's (raised over a capital). */
const ACCENT_RISE = 0.7;
/** Characters closer than this many font sizes along the baseline touch: no word space between them. */
const TOUCHING = 0.1;

/**
 * TeX (OT1) draws an accent as a glyph of its own, over or under its letter, and pdfTeX maps it to
 * a spacing accent (`´`, `ˇ`, `¸`): the text layer reads `Dvoˇr´ak`, or, where PDFium orders a
 * raised accent after its word, `Skoda ˇ`. Each accent whose middle lies within a letter's advance,
 * on that letter's baseline or raised above it, becomes that letter's mark (the letter becomes its
 * precomposed form, the accent goes); a space PDFium inferred beside the accent goes too where the
 * characters either side of it touch. An accent over no letter (`it´s`), or one Unicode has no
 * letter for, is left as it was.
 */
export function composeAccentChars(chars: readonly PageChar[]): readonly PageChar[] {
  let result: PageChar[] | undefined;
  const removed = new Set<number>();
  for (let i = 0; i < chars.length; i++) {
    const accent = chars[i]!;
    if (accent.generated || !isAccentGlyph(accent.text)) continue;
    const j = letterUnder(result ?? chars, i, removed);
    if (j === undefined) continue;
    result ??= [...chars];
    const letter = result[j]!;
    result[j] = { ...letter, text: letterWithAccent(letter.text, accent.text)! };
    removed.add(i);
  }
  if (!result) return chars;
  const kept: PageChar[] = [];
  for (let i = 0; i < result.length; i++) {
    if (removed.has(i)) continue;
    const char = result[i]!;
    const besideAccent = removed.has(i - 1) || removed.has(i + 1);
    if (char.generated && char.text === ' ' && besideAccent && spaceGoes(kept.at(-1), nextKept(result, i, removed))) continue;
    kept.push(char);
  }
  return kept;
}

function nextKept(chars: readonly PageChar[], i: number, removed: ReadonlySet<number>): PageChar | undefined {
  for (let k = i + 1; k < chars.length; k++) if (!removed.has(k)) return chars[k];
  return undefined;
}

/** The index of the letter the accent at `i` is drawn on, near it in PDFium's order, if any. */
function letterUnder(chars: readonly PageChar[], i: number, removed: ReadonlySet<number>): number | undefined {
  const accent = chars[i]!;
  const size = Math.hypot(accent.a, accent.b) || 1;
  let best: number | undefined;
  let bestOff = Infinity;
  for (let j = Math.max(0, i - ACCENT_REACH); j <= Math.min(chars.length - 1, i + ACCENT_REACH); j++) {
    const letter = chars[j]!;
    if (j === i || removed.has(j) || letter.generated || !/^\p{L}$/u.test(letter.text)) continue;
    const letterSize = Math.hypot(letter.a, letter.b) || 1;
    if (Math.abs(letterSize - size) > 0.3 * size || letter.advance <= 0) continue;
    const ux = letter.a / letterSize;
    const uy = letter.b / letterSize;
    const middleX = accent.x + ux * accent.advance / 2;
    const middleY = accent.y + uy * accent.advance / 2;
    const along = (middleX - letter.x) * ux + (middleY - letter.y) * uy;
    const rise = -uy * (accent.x - letter.x) + ux * (accent.y - letter.y);
    if (along < 0 || along > letter.advance || rise < -0.1 * letterSize || rise > ACCENT_RISE * letterSize) continue;
    if (letterWithAccent(letter.text, accent.text) === undefined) continue;
    const off = Math.abs(along - letter.advance / 2);
    if (off < bestOff) {
      bestOff = off;
      best = j;
    }
  }
  return best;
}

/**
 * A space PDFium inferred beside an accent that has gone: it goes where it would open a line, repeat
 * a space or line break, or stand between characters that touch (PDFium took the accent for a word's end).
 */
function spaceGoes(before: PageChar | undefined, after: PageChar | undefined): boolean {
  if (!before || !after || before.generated || after.generated) return true;
  const size = Math.hypot(before.a, before.b) || 1;
  const ux = before.a / size;
  const uy = before.b / size;
  const across = -uy * (after.x - before.x) + ux * (after.y - before.y);
  const gap = (after.x - before.x) * ux + (after.y - before.y) * uy - before.advance;
  return Math.abs(across) < 0.3 * size && Math.abs(gap) < TOUCHING * size;
}

/** Same font, same matrix, on the same baseline, and not past a column gap. */
function continues(open: OpenItem, char: PageChar): boolean {
  const { first } = open;
  if (char.font !== first.font) return false;
  const size = Math.hypot(first.a, first.b) || 1;
  const scale = Math.max(size, Math.hypot(first.c, first.d));
  const tolerance = SAME_MATRIX * scale;
  if (Math.abs(char.a - first.a) > tolerance || Math.abs(char.b - first.b) > tolerance) return false;
  if (Math.abs(char.c - first.c) > tolerance || Math.abs(char.d - first.d) > tolerance) return false;
  const fontSize = Math.hypot(first.c, first.d) || size;
  const ux = first.a / size;
  const uy = first.b / size;
  const dx = char.x - first.x;
  const dy = char.y - first.y;
  const across = -uy * dx + ux * dy;
  if (Math.abs(across) > BASELINE_SHIFT * fontSize) return false;
  const gap = ux * dx + uy * dy - open.end;
  return gap <= ITEM_GAP * fontSize && gap >= -STEP_BACK * fontSize;
}

function alongBaseline(first: PageChar, char: PageChar): number {
  const size = Math.hypot(first.a, first.b) || 1;
  return ((char.x - first.x) * first.a + (char.y - first.y) * first.b) / size;
}

function toItem(open: OpenItem): TextItemLike {
  const { first } = open;
  return { str: open.text, transform: [first.a, first.b, first.c, first.d, first.x, first.y], width: Math.max(0, open.end), fontName: first.font };
}
