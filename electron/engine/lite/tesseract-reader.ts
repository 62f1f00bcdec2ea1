/**
 * Tesseract (tesseract.js, WebAssembly) as a line reader: one worker per language pack, created on
 * first use and kept. Language data is read from its npm package (`@tesseract.js-data/<pack>`),
 * never downloaded and never cached elsewhere.
 */

import { createRequire } from 'node:module';
import path from 'node:path';
import { createWorker, OEM, type Worker } from 'tesseract.js';
import type { RgbImage } from '../raster/rgb-image.js';
import { FailureError } from '../../core/failure-error.js';
import type { RecognisedLine } from './text-recognition.js';

const workers = new Map<string, Promise<Worker>>();

/** The pack's integer-quantised LSTM model: measured as accurate as the float one here, and faster. */
export function tesseractLangPath(pack: string): string {
  const require = createRequire(import.meta.url);
  let index: string;
  try {
    index = require.resolve(`@tesseract.js-data/${pack}`);
  } catch {
    throw new FailureError('internal', `The Tesseract language pack "${pack}" is not installed; run \`npm install @tesseract.js-data/${pack}\`.`);
  }
  return path.join(path.dirname(index), '4.0.0_best_int');
}

function workerFor(pack: string): Promise<Worker> {
  let worker = workers.get(pack);
  if (!worker) {
    const langPath = tesseractLangPath(pack);
    worker = createWorker(pack, OEM.LSTM_ONLY, { langPath, gzip: true, cacheMethod: 'none' });
    workers.set(pack, worker);
    worker.catch(() => workers.delete(pack));
  }
  return worker;
}

/** Lines as Tesseract finds them, each word one recognised "character" so the layout sees words. */
export async function readWithTesseract(pack: string, image: RgbImage): Promise<RecognisedLine[]> {
  const worker = await workerFor(pack);
  const { data } = await worker.recognize(portablePixmap(image), {}, { blocks: true, text: false });
  const lines: RecognisedLine[] = [];
  for (const block of data.blocks ?? []) {
    for (const paragraph of block.paragraphs) {
      for (const line of paragraph.lines) {
        const { x0, y0, x1, y1 } = line.bbox;
        const box = { cx: (x0 + x1) / 2, cy: (y0 + y1) / 2, angle: 0, length: x1 - x0, thickness: y1 - y0, score: line.confidence / 100 };
        const chars = line.words.flatMap((word, i) => {
          const text = { text: word.text, u0: word.bbox.x0 - x0, u1: word.bbox.x1 - x0, confidence: word.confidence / 100 };
          return i === 0 ? [text] : [{ ...text, text: ' ', u1: text.u0 }, text];
        });
        lines.push({ box, chars, blanks: [] });
      }
    }
  }
  return lines;
}

export async function closeTesseractWorkers(): Promise<void> {
  const all = [...workers.values()];
  workers.clear();
  await Promise.all(all.map(async (w) => (await w).terminate()));
}

/** Leptonica reads binary PPM from memory: the page goes to the worker without a PNG encode. */
function portablePixmap(image: RgbImage): Buffer {
  const header = Buffer.from(`P6\n${image.width} ${image.height}\n255\n`, 'ascii');
  return Buffer.concat([header, image.data]);
}
