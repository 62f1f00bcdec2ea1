/** One page image -> recognised lines, by the reader its language calls for, with where the time went. */

import type { OcrReader } from '../../../shared/ocr-languages.js';
import type { RgbImage } from '../raster/rgb-image.js';
import { loadPpOcrModels } from './ppocr-models.js';
import { readWithTesseract } from './tesseract-reader.js';
import { detectTextLines } from './text-detection.js';
import { recogniseLines, type RecognisedLine } from './text-recognition.js';

export interface PageReading {
  reader: 'PP-OCRv4' | 'Tesseract';
  imageWidth: number;
  lines: RecognisedLine[];
  /** Tesseract does both at once: its time is all recognition. */
  timings: { detectionMs: number; recognitionMs: number };
}

export async function readPage(image: RgbImage, reader: OcrReader, signal: AbortSignal): Promise<PageReading> {
  if (reader.kind === 'tesseract') {
    const started = performance.now();
    const lines = await readWithTesseract(reader.pack, image);
    return { reader: 'Tesseract', imageWidth: image.width, lines, timings: { detectionMs: 0, recognitionMs: performance.now() - started } };
  }
  const models = await loadPpOcrModels();
  const started = performance.now();
  const boxes = await detectTextLines(models.detector, image);
  const detected = performance.now();
  signal.throwIfAborted();
  const lines = await recogniseLines(models.recogniser, models.alphabet, image, boxes, signal);
  const recognised = performance.now();
  return {
    reader: 'PP-OCRv4',
    imageWidth: image.width,
    lines: lines.filter((line) => line.chars.some((c) => c.text.trim() !== '')),
    timings: { detectionMs: detected - started, recognitionMs: recognised - detected },
  };
}
