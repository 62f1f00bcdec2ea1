/**
 * Characters as PDFium reads them -> text items as pdf.js gives them, so the layout code reads
 * either parser the same way (text-runs.ts). An item is a stretch of one line in one font and size;
 * it ends where PDFium ends a line, where the font or direction changes, or at a gap wider than a
 * word space (table columns, tab stops), as pdf.js ends its items.
 */

import { isSpacingAccent } from './accents.js';
import type { PageObjects } from './drawing.js';
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
}

/** pdf.js ends an item at a gap wider than this many font sizes (SPACE_IN_FLOW_MAX_FACTOR). */
const ITEM_GAP = 0.6;
/** A step back along the baseline of more than this many font sizes is a new item. */
const STEP_BACK = 0.3;
/**
 * A shift off the baseline of more than this many font sizes is a new item, as a new text matrix is
 * in pdf.js: a raised accent over a capital (TeX's `\v{S}`) is its own item, which accents.ts composes.
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
  for (const char of accentsBeforeLetters(chars)) {
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

/**
 * PDFium puts a spacing accent set over a letter (TeX's `\v{S}`: the accent, then the letter) after
 * that letter; pdf.js keeps the file's order, accent first, which accents.ts composes. This puts
 * such an accent back before its letter.
 */
function accentsBeforeLetters(chars: readonly PageChar[]): readonly PageChar[] {
  let result: PageChar[] | undefined;
  for (let i = 1; i < chars.length; i++) {
    const accent = chars[i]!;
    const letter = (result ?? chars)[i - 1]!;
    if (accent.generated || letter.generated || !isSpacingAccent(accent.text) || !/^\p{L}$/u.test(letter.text)) continue;
    const size = Math.hypot(letter.a, letter.b) || 1;
    const along = ((accent.x - letter.x) * letter.a + (accent.y - letter.y) * letter.b) / size;
    // Over the letter: its origin within the letter's first half, not beside it.
    if (along < -0.1 * letter.advance || along > 0.5 * letter.advance) continue;
    result ??= [...chars];
    result[i - 1] = accent;
    result[i] = letter;
  }
  return result ?? chars;
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
