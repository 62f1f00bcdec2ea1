/**
 * Glyphs PDFium finds no Unicode for, read again from pdf.js. A font without a ToUnicode map
 * whose encoding names its glyphs (TeX's symbol fonts written by older pdfTeX: `circlecopyrt`,
 * `angbracketleft`, `bardbl`) is mapped by PDFium only where it knows the name, and the rest come
 * as their codes (`h` for an angle bracket); pdf.js knows more names. Only a page with such glyphs
 * pays for pdf.js's text content. The extension font's glyphs are left as codes: math-glyphs.ts
 * reads them by slot.
 */

import { charItems, type CharTextContent, type PageChar } from './char-items.js';
import { mathFontClass } from './math-glyphs.js';
import type { TextContentLike, TextItemLike } from './text-runs.js';

/** Baselines closer than this many font sizes are one line. */
const SAME_BASELINE = 0.3;
/** How far (font sizes) the two parsers' ends of one stretch of glyphs may differ. */
const SPAN_TOLERANCE = 0.2;

/** Whether pdf.js may read some of the page's glyphs that PDFium could not. */
export function hasUnmappedGlyphs(content: CharTextContent): boolean {
  return content.chars?.some((char) => char.unmapped && !isExtensionFont(content, char.font)) ?? false;
}

/**
 * `content` with each unmapped glyph's text taken from pdf.js's item drawn where the glyph is: the
 * item's text is matched against PDFium's characters inside it, in order, the mapped ones as they
 * are and each unmapped one as whatever pdf.js gives in its place. Glyphs pdf.js cannot place or
 * map either keep their code.
 */
export function recoverUnmappedGlyphs(content: CharTextContent, pdfjs: TextContentLike): CharTextContent {
  const chars = content.chars;
  if (!chars) return content;
  const items = pdfjs.items.filter((item): item is TextItemLike => typeof (item as TextItemLike).str === 'string' && (item as TextItemLike).str.trim() !== '');
  const recovered = new Map<PageChar, string>();
  const tried = new Set<TextItemLike>();
  for (const char of chars) {
    if (!char.unmapped || recovered.has(char) || isExtensionFont(content, char.font)) continue;
    for (const item of items) {
      if (tried.has(item) || !covers(item, char)) continue;
      tried.add(item);
      const members = chars.filter((other) => !other.generated && other.font === char.font && (other.unmapped || other.text.trim() !== '') && covers(item, other));
      // pdf.js's item is of one font, as these characters are: they must span it, end to end.
      if (!spans(item, members)) continue;
      const texts = matchItem(item.str, members);
      if (!texts) continue;
      members.forEach((member, i) => {
        if (member.unmapped && isReadable(texts[i]!)) recovered.set(member, texts[i]!);
      });
      if (recovered.has(char)) break;
    }
  }
  if (recovered.size === 0) return content;
  const patched = chars.map((char) => {
    const text = recovered.get(char);
    return text === undefined ? char : { ...char, text, unmapped: false };
  });
  const { items: patchedItems } = charItems(patched, content.styles, content.fonts);
  return { ...content, items: patchedItems };
}

function isExtensionFont(content: CharTextContent, font: string): boolean {
  return mathFontClass(content.fonts.get(font)?.name ?? '') === 'extension';
}

/** Whether the character's middle lies in the item's span, on its baseline, in its direction. */
function covers(item: TextItemLike, char: PageChar): boolean {
  const [a = 1, b = 0, c = 0, d = 1, e = 0, f = 0] = item.transform;
  const run = Math.hypot(a, b) || 1;
  const ux = a / run;
  const uy = b / run;
  const charRun = Math.hypot(char.a, char.b) || 1;
  if (ux * (char.a / charRun) + uy * (char.b / charRun) < 0.99) return false;
  const size = Math.hypot(c, d) || run;
  const mx = char.x + (char.a / charRun) * (char.advance / 2);
  const my = char.y + (char.b / charRun) * (char.advance / 2);
  const along = ux * (mx - e) + uy * (my - f);
  const across = -uy * (mx - e) + ux * (my - f);
  return Math.abs(across) <= SAME_BASELINE * size && along >= 0 && along <= item.width;
}

/** Whether the characters start where the item starts and end where it ends (give or take a fifth of an em). */
function spans(item: TextItemLike, members: readonly PageChar[]): boolean {
  const first = members[0];
  if (!first) return false;
  const [a = 1, b = 0, c = 0, d = 1, e = 0, f = 0] = item.transform;
  const run = Math.hypot(a, b) || 1;
  const ux = a / run;
  const uy = b / run;
  const tolerance = SPAN_TOLERANCE * (Math.hypot(c, d) || run);
  const along = (char: PageChar, advance: number) => ux * (char.x - e) + uy * (char.y - f) + advance;
  const end = Math.max(...members.map((member) => along(member, member.advance)));
  return Math.abs(along(first, 0)) <= tolerance && Math.abs(end - item.width) <= tolerance;
}

/**
 * The item's text split over `members` (PDFium's characters inside it, in file order), spaces
 * aside: each mapped character must be there as it is, each unmapped one is one character (with
 * its marks; one character each keeps the match linear). Undefined when the two do not agree.
 */
function matchItem(str: string, members: readonly PageChar[]): string[] | undefined {
  if (members.length === 0) return undefined;
  const pattern = members.map((member) => (member.unmapped ? '(\\S\\p{M}*)' : `(${escape(squeeze(member.text))})`)).join('');
  const match = new RegExp(`^${pattern}$`, 'su').exec(squeeze(str));
  return match ? match.slice(1) : undefined;
}

function squeeze(text: string): string {
  return text.normalize('NFKC').replace(/\s+/g, '');
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** A character a reader can use: not another control code or replacement character. */
function isReadable(text: string): boolean {
  return !/[\u0000-\u001F\u007F\uFFFD]/.test(text);
}
