/**
 * olmOCR-Bench's newer markup checks, run on the raw output (before normalisation): whether a text
 * is written as a heading, in bold or in italics (Markdown or HTML), and whether a footnote marker
 * is written as one (`[^1]`, `<sup>1</sup>` or `¹`) with the expected text just before or after it.
 */

import { partialRatio } from '../text-match/fuzzy-match.js';
import { normaliseText } from '../text-match/normalise.js';

export type TextFormat = 'heading' | 'bold' | 'italic';
export const TEXT_FORMATS: readonly TextFormat[] = ['heading', 'bold', 'italic'];

// Python's `.` stops at `\n` only, `$` in multiline mode before a `\n` or at the end.
const FORMAT_PATTERNS: Record<TextFormat, readonly RegExp[]> = {
  heading: [/(?:^|(?<=\n))#{1,6}\s+([^\n]+?)(?=\n|$)/g, /<h[1-6][^>]*>([\s\S]*?)<\/h[1-6]>/gi],
  bold: [/\*\*([\s\S]*?)\*\*/g, /__([\s\S]*?)__/g, /<b[^>]*>([\s\S]*?)<\/b>/gi, /<strong[^>]*>([\s\S]*?)<\/strong>/gi],
  italic: [/(?<!\*)\*(?!\*)([\s\S]*?)(?<!\*)\*(?!\*)/g, /(?<!_)_(?!_)([\s\S]*?)(?<!_)_(?!_)/g, /<i[^>]*>([\s\S]*?)<\/i>/gi, /<em[^>]*>([\s\S]*?)<\/em>/gi],
};

/** The normalised texts the output writes in `format`. */
export function formattedTexts(content: string, format: TextFormat): string[] {
  return FORMAT_PATTERNS[format].flatMap((pattern) => [...content.matchAll(pattern)].map((match) => normaliseText(match[1]!)));
}

/** Whether `text` (normalised) is among the output's texts in `format`, within `maxDiffs` edits. */
export function hasFormattedText(content: string, format: TextFormat, text: string, caseSensitive: boolean, maxDiffs: number): boolean {
  const wanted = caseSensitive ? text : text.toLowerCase();
  const threshold = 1 - maxDiffs / (Array.from(wanted).length || 1);
  return formattedTexts(content, format).some((found) => partialRatio(wanted, caseSensitive ? found : found.toLowerCase()) >= threshold);
}

const SUPERSCRIPT_DIGITS = '⁰¹²³⁴⁵⁶⁷⁸⁹';
/** How far before or after a marker its neighbouring text is looked for, in characters. */
const FOOTNOTE_REACH = 200;

export interface FootnoteSpec {
  marker: string;
  before?: string;
  after?: string;
  maxDiffs: number;
}

export type FootnoteVerdict = { passed: true } | { passed: false; detail: string };

export function checkFootnote(content: string, spec: FootnoteSpec): FootnoteVerdict {
  const chars = Array.from(content);
  const markers = footnoteMarkers(content, spec.marker);
  if (markers.length === 0) return { passed: false, detail: `footnote marker ${spec.marker} not written as [^${spec.marker}], <sup>${spec.marker}</sup> or a superscript` };
  const near = (expected: string, side: 'before' | 'after') => {
    const target = letters(expected);
    const threshold = 1 - spec.maxDiffs / (Array.from(expected).length || 1);
    return markers.some(({ start, end }) => {
      const around = letters(side === 'before' ? chars.slice(Math.max(0, start - FOOTNOTE_REACH), start).join('') : chars.slice(end, end + FOOTNOTE_REACH).join(''));
      if (around.length === 0) return false;
      const length = Math.min(around.length, target.length * 2);
      const window = length === 0 ? around : side === 'before' ? around.slice(-length) : around.slice(0, length);
      return partialRatio(target.join(''), window.join('')) >= threshold;
    });
  };
  const missing: string[] = [];
  if (spec.before && !near(spec.before, 'before')) missing.push(`"${spec.before.slice(0, 40)}" not found before marker ${spec.marker}`);
  if (spec.after && !near(spec.after, 'after')) missing.push(`"${spec.after.slice(0, 40)}" not found after marker ${spec.marker}`);
  return missing.length ? { passed: false, detail: missing.join('; ') } : { passed: true };
}

/** Where the marker is written, as code-point offsets [start, end). */
function footnoteMarkers(content: string, marker: string): { start: number; end: number }[] {
  const escaped = marker.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const patterns = [new RegExp(`\\[\\^${escaped}\\](?!:)`, 'gu'), new RegExp(`<sup[^>]*>${escaped}</sup>`, 'giu')];
  if (/^[0-9]+$/.test(marker)) patterns.push(new RegExp(Array.from(marker, (d) => SUPERSCRIPT_DIGITS[Number(d)]).join(''), 'gu'));
  const codePointAt = (index: number) => Array.from(content.slice(0, index)).length;
  return patterns.flatMap((pattern) => [...content.matchAll(pattern)].map((m) => ({ start: codePointAt(m.index), end: codePointAt(m.index + m[0].length) })));
}

/** The letters and digits of the normalised text, lower-cased, as code points. */
function letters(text: string): string[] {
  return Array.from(Array.from(normaliseText(text)).filter((c) => /[\p{L}\p{N}]/u.test(c)).join('').toLowerCase());
}
