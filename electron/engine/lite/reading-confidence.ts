/**
 * How sure the recogniser was of what it read, from the probability it gave each character (PP-OCR:
 * the best class's probability at the character's frames; Tesseract: its word confidence, counted
 * once per letter). A page read mostly by guesses (handwriting, a poor photo, drawings) is flagged
 * for review, and a guessed line is never made a heading.
 */

import type { RecognisedChar, RecognisedLine } from './text-recognition.js';

/** A character read with a lower probability is a guess. */
const SURE_CHARACTER = 0.8;
/**
 * A page with this share of guessed characters or more wants a person's look. Measured: printed
 * scans and handwriting-like italics 0-1.9% (PP-OCRv4) and 0-8.6% (Tesseract eng and fra);
 * handwriting-like scribbles 66% (PP-OCRv4) and 97-100% (Tesseract).
 */
const UNSURE_PAGE_SHARE = 0.15;
/**
 * A line may be a heading only when read this surely: its mean at least SURE_LINE_MEAN and at most
 * SURE_LINE_GUESSES of its characters guessed (printed headings: 0.97-0.999 and 0-8%).
 */
const SURE_LINE_MEAN = 0.9;
const SURE_LINE_GUESSES = 0.1;

export interface ReadingConfidence {
  /** Characters read (spaces not counted). */
  characters: number;
  /** Their mean probability, 0-1; 1 when nothing was read. */
  mean: number;
  /** The share of them read with a probability under SURE_CHARACTER, 0-1. */
  guessed: number;
}

export function readingConfidence(lines: readonly RecognisedLine[]): ReadingConfidence {
  return confidenceOf(lines.flatMap((line) => line.chars));
}

/** Whether the page was read mostly by guesses and wants review. */
export function isUnsure(confidence: ReadingConfidence): boolean {
  return confidence.guessed >= UNSURE_PAGE_SHARE;
}

/** Whether a line was read surely enough for its size to make it a heading. */
export function isSureLine(line: RecognisedLine): boolean {
  const { characters, mean, guessed } = confidenceOf(line.chars);
  return characters > 0 && mean >= SURE_LINE_MEAN && guessed <= SURE_LINE_GUESSES;
}

function confidenceOf(chars: readonly RecognisedChar[]): ReadingConfidence {
  let characters = 0;
  let sum = 0;
  let guesses = 0;
  for (const char of chars) {
    // a Tesseract "character" is a word: each of its letters was read as surely as the word
    const weight = [...char.text.trim()].length;
    characters += weight;
    sum += weight * char.confidence;
    if (char.confidence < SURE_CHARACTER) guesses += weight;
  }
  return characters === 0 ? { characters, mean: 1, guessed: 0 } : { characters, mean: sum / characters, guessed: guesses / characters };
}
