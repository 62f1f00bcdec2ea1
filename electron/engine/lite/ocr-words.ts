/**
 * A recognised line -> words with their extents along the line. The recogniser (trained mostly on
 * Chinese) often leaves out the space between Latin words and writes full-width punctuation in
 * Latin text; the blank stretches of the line's pixels put the spaces back, and punctuation between
 * Latin characters is written as ASCII.
 */

import type { RecognisedChar } from './text-recognition.js';

export interface OcrWord {
  text: string;
  /** Along the line, image pixels from its start. */
  u0: number;
  u1: number;
}

const CJK = /[\u3040-\u30ff\u3400-\u9fff\uf900-\ufaff\uac00-\ud7af]/;
const FULL_WIDTH: Record<string, string> = {
  '，': ',', '。': '.', '：': ':', '；': ';', '！': '!', '？': '?', '（': '(', '）': ')',
  '［': '[', '］': ']', '｛': '{', '｝': '}', '＂': '"', '＇': "'", '｀': '`', '＆': '&', '％': '%',
  '＋': '+', '－': '-', '／': '/', '＝': '=', '＜': '<', '＞': '>', '＃': '#', '＊': '*', '＠': '@',
  '、': ',', '“': '"', '”': '"', '‘': "'", '’': "'",
};
/**
 * A blank stretch this wide (in line thicknesses) between two characters is a word space. Measured
 * on 150 and 200 dpi scans of serif and sans text: letters of a word 0.02-0.13, spaces 0.21-0.33.
 */
const SPACE_BLANK = 0.16;

/** `thickness`: the line's height in the same pixels as the positions. */
export function ocrWords(chars: readonly RecognisedChar[], blanks: readonly (readonly [number, number])[], thickness: number): OcrWord[] {
  const latin = !chars.some((c) => CJK.test(c.text));
  const minSpace = SPACE_BLANK * thickness;
  const spaces = blanks.filter(([a, b]) => b - a >= minSpace);
  const words: OcrWord[] = [];
  let current: OcrWord | undefined;
  chars.forEach((char, i) => {
    if (char.text === ' ') {
      current = undefined;
      return;
    }
    const previous = chars[i - 1];
    const text = latin ? (FULL_WIDTH[char.text] ?? char.text) : char.text;
    // Overlap, not containment: a full stop below the measured band leaves its blank running into the space.
    // Digits set in tabular figures stand apart within a number: "14" must not become "1 4".
    const needed = previous !== undefined && /\d/.test(previous.text) && /\d/.test(char.text) ? 2 * minSpace : minSpace;
    const spaced = latin && previous !== undefined && spaces.some(([a, b]) => Math.min(b, centre(char)) - Math.max(a, centre(previous)) >= needed);
    if (!current || spaced) {
      current = { text, u0: inkStart(char, blanks), u1: inkEnd(char, blanks) };
      words.push(current);
    } else {
      current.text += text;
      current.u1 = inkEnd(char, blanks);
    }
  });
  return words;
}

/**
 * A character's frames sit inside its glyph; the word's edges are where the ink starts and stops,
 * so that gaps between words measure as they are printed (the layout cuts columns at wide gaps).
 */
function inkStart(char: RecognisedChar, blanks: readonly (readonly [number, number])[]): number {
  const c = centre(char);
  let edge = -Infinity;
  for (const [, b] of blanks) if (b <= c && b > edge) edge = b;
  return edge === -Infinity ? char.u0 : edge;
}

function inkEnd(char: RecognisedChar, blanks: readonly (readonly [number, number])[]): number {
  const c = centre(char);
  let edge = Infinity;
  for (const [a] of blanks) if (a >= c && a < edge) edge = a;
  return edge === Infinity ? char.u1 : edge;
}

function centre(char: RecognisedChar): number {
  return (char.u0 + char.u1) / 2;
}
