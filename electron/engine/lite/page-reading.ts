/** One page image -> recognised lines, by the reader its language calls for, with where the time went. */

import type { OcrReader } from '../../../shared/ocr-languages.js';
import type { RgbImage } from '../raster/rgb-image.js';
import { orientPage } from './page-orientation.js';
import { loadPpOcrModels } from './ppocr-models.js';
import type { QuarterTurns } from './quarter-turns.js';
import { readWithTesseract } from './tesseract-reader.js';
import { detectTextLines } from './text-detection.js';
import { recogniseLines, type RecognisedLine } from './text-recognition.js';

export interface PageReading {
  reader: 'PP-OCRv4' | 'Tesseract';
  /** Clockwise quarter turns from the page image to the image the lines were read on (upright). */
  turns: QuarterTurns;
  /** Of the image read, after `turns`. */
  imageWidth: number;
  lines: RecognisedLine[];
  /** Tesseract does both at once: its time is all recognition. Orientation is its own (see page-orientation.ts). */
  timings: { detectionMs: number; orientationMs: number; recognitionMs: number };
}

export async function readPage(image: RgbImage, reader: OcrReader, signal: AbortSignal): Promise<PageReading> {
  if (reader.kind === 'tesseract') {
    const started = performance.now();
    const lines = await readWithTesseract(reader.pack, image);
    return { reader: 'Tesseract', turns: 0, imageWidth: image.width, lines, timings: { detectionMs: 0, orientationMs: 0, recognitionMs: performance.now() - started } };
  }
  const models = await loadPpOcrModels();
  const started = performance.now();
  const detect = (page: RgbImage) => detectTextLines(models.detector, page);
  const found = await detect(image);
  const detected = performance.now();
  signal.throwIfAborted();
  const upright = await orientPage(models.classifier, detect, image, found);
  const oriented = performance.now();
  signal.throwIfAborted();
  const lines = await recogniseLines(models.recogniser, models.alphabet, upright.image, upright.boxes, signal);
  const recognised = performance.now();
  return {
    reader: 'PP-OCRv4',
    turns: upright.turns,
    imageWidth: upright.image.width,
    lines: lines.filter((line) => line.chars.some((c) => c.text.trim() !== '')),
    timings: { detectionMs: detected - started, orientationMs: oriented - detected, recognitionMs: recognised - oriented },
  };
}
