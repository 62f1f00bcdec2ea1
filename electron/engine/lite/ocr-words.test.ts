import { describe, expect, it } from 'vitest';
import { ocrWords } from './ocr-words.js';
import type { RecognisedChar } from './text-recognition.js';

/** Characters 20 px apart, each read at its middle 4 px; `text` may hold spaces the recogniser gave. */
function chars(text: string): RecognisedChar[] {
  return [...text].map((c, i) => ({ text: c, u0: i * 20 + 8, u1: i * 20 + 12, confidence: 0.9 }));
}

describe('OCR words', () => {
  it('keeps the spaces the recogniser gave', () => {
    expect(ocrWords(chars('to be'), [], 40).map((w) => w.text)).toEqual(['to', 'be']);
  });

  it('puts back a space where the line has a blank as wide as a word space', () => {
    // "ofthe" with a 9 px blank between f (read at 30) and t (read at 50): 0.22 of a 40 px line.
    const words = ocrWords(chars('ofthe'), [[0, 2], [36, 45], [98, 100]], 40);
    expect(words.map((w) => w.text)).toEqual(['of', 'the']);
  });

  it('does not split a word at the narrow blanks between its letters', () => {
    expect(ocrWords(chars('word'), [[18, 22], [38, 41], [58, 62]], 40).map((w) => w.text)).toEqual(['word']);
  });

  it('takes word edges from the ink, not from where the characters were read', () => {
    const [first, second] = ocrWords(chars('ab cd'), [[0, 3], [35, 45], [97, 100]], 40);
    expect(first).toMatchObject({ u0: 3, u1: 35 });
    expect(second).toMatchObject({ u0: 45, u1: 97 });
  });

  it('writes full-width punctuation in Latin text as ASCII, and keeps it in Chinese', () => {
    expect(ocrWords(chars('Yes，no'), [], 40).map((w) => w.text).join(' ')).toBe('Yes,no');
    expect(ocrWords(chars('是，否'), [], 40).map((w) => w.text).join('')).toBe('是，否');
  });
});
