/** One page image -> recognised lines, by the reader its language calls for, with where the time went. */

import type { OcrReader } from '../../../shared/ocr-languages.js';
import type { RgbImage } from '../raster/rgb-image.js';
import { pageTurns } from './page-orientation.js';
import { loadPpOcrModels } from './ppocr-models.js';
import { turnImage, type QuarterTurns } from './quarter-turns.js';
import { readWithTesseract } from './tesseract-reader.js';
import { DEFAULT_DETECTION, detectTextLines } from './text-detection.js';
import { recogniseLines, type RecognisedLine } from './text-recognition.js';

export interface PageReading {
  reader: 'PP-OCRv4' | 'Tesseract';
  /** Clockwise quarter turns from the page image to the image the lines were read on (upright). */
  turns: QuarterTurns;
  /** Of the image read, after `turns`. */
  imageWidth: number;
  lines: RecognisedLine[];
  /**
   * Tesseract does both at once: its time is all recognition. Orientation: the direction classifier,
   * and for a page not upright the turn and a second detection (for Tesseract, a coarse first one).
   */
  timings: { detectionMs: number; orientationMs: number; recognitionMs: number };
}

/**
 * Detection only to tell which way up a page lies before Tesseract reads it: lines at this scale
 * still show their direction, and the classifier cuts them from the full image (a quarter of the
 * detector's time at 1,280).
 */
const ORIENTING_DETECTION = { ...DEFAULT_DETECTION, longSide: 640 };

export async function readPage(image: RgbImage, reader: OcrReader, signal: AbortSignal): Promise<PageReading> {
  const models = await loadPpOcrModels();
  if (reader.kind === 'tesseract') {
    const started = performance.now();
    const turns = await pageTurns(models.classifier, image, await detectTextLines(models.detector, image, ORIENTING_DETECTION));
    const upright = turnImage(image, turns);
    const oriented = performance.now();
    signal.throwIfAborted();
    const lines = await readWithTesseract(reader.pack, upright);
    const timings = { detectionMs: 0, orientationMs: oriented - started, recognitionMs: performance.now() - oriented };
    return { reader: 'Tesseract', turns, imageWidth: upright.width, lines, timings };
  }
  const started = performance.now();
  let boxes = await detectTextLines(models.detector, image);
  const detected = performance.now();
  signal.throwIfAborted();
  const turns = await pageTurns(models.classifier, image, boxes);
  let upright = image;
  // Detected afresh on the turned page: the detector's boxes sit a few pixels off the ink towards
  // the bottom right, so boxes turned with the page would sit off it (1.6% CER, not 0.2%).
  if (turns !== 0) {
    upright = turnImage(image, turns);
    boxes = await detectTextLines(models.detector, upright);
  }
  const oriented = performance.now();
  signal.throwIfAborted();
  const lines = await recogniseLines(models.recogniser, models.alphabet, upright, boxes, signal);
  const recognised = performance.now();
  return {
    reader: 'PP-OCRv4',
    turns,
    imageWidth: upright.width,
    lines: lines.filter((line) => line.chars.some((c) => c.text.trim() !== '')),
    timings: { detectionMs: detected - started, orientationMs: oriented - detected, recognitionMs: recognised - oriented },
  };
}
