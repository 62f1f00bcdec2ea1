/**
 * Line recognition with PP-OCR's CTC recogniser: each line is cut out, run on its own, and decoded
 * with each character's position along its line.
 */

import type { RgbImage } from '../raster/rgb-image.js';
import { decodeCtc, type DecodedChar } from './ctc-decoding.js';
import { blankRuns, cropLine, LINE_HEIGHT } from './line-crops.js';
import type { TextLineBox } from './text-detection.js';
import type { OnnxRunner } from './worker-sessions.js';

export interface RecognisedChar {
  text: string;
  /** Start and end along the line, image pixels from the box's start. */
  u0: number;
  u1: number;
  confidence: number;
}

export interface RecognisedLine {
  box: TextLineBox;
  chars: RecognisedChar[];
  /** Stretches without ink along the line ([start, end], image pixels from the box's start). */
  blanks: [number, number][];
}

/**
 * Grey columns after each line. The recogniser drops letters on noisy lines that end at the crop's
 * edge (paper-200: 1.03% CER with none, 0.22% with 64, as little as 0.09% with more).
 */
const TRAILING_PAD = 64;

/**
 * One line per run: batching pads every line to the batch's widest and, measured with ORT 1.30 on
 * two cores, costs up to 1.8x the CPU per column even without padding (larger activations miss cache).
 * Lines go to the recogniser's parallel runs as each finishes, and come back in the boxes' order.
 */
export async function recogniseLines(
  recogniser: OnnxRunner,
  alphabet: readonly string[],
  image: RgbImage,
  boxes: readonly TextLineBox[],
  signal: AbortSignal,
): Promise<RecognisedLine[]> {
  const results: RecognisedLine[] = new Array<RecognisedLine>(boxes.length);
  let next = 0;
  const lane = async () => {
    while (next < boxes.length) {
      const index = next++;
      signal.throwIfAborted();
      results[index] = await recogniseLine(recogniser, alphabet, image, boxes[index]!, signal);
    }
  };
  await Promise.all(Array.from({ length: recogniser.parallel }, lane));
  return results;
}

async function recogniseLine(
  recogniser: OnnxRunner,
  alphabet: readonly string[],
  image: RgbImage,
  box: TextLineBox,
  signal: AbortSignal,
): Promise<RecognisedLine> {
  const crop = cropLine(image, box);
  const width = crop.width + TRAILING_PAD;
  // Padding is 0 after normalisation (mid grey), as PP-OCR's own preprocessing pads.
  const input = new Float32Array(3 * LINE_HEIGHT * width);
  for (let channel = 0; channel < 3; channel++) {
    for (let row = 0; row < LINE_HEIGHT; row++) {
      const from = (channel * LINE_HEIGHT + row) * crop.width;
      input.set(crop.data.subarray(from, from + crop.width), (channel * LINE_HEIGHT + row) * width);
    }
  }
  const probs = await recogniser.run(input, [1, 3, LINE_HEIGHT, width], signal);
  const [, steps, classes] = probs.dims as [number, number, number];
  const pixelsPerStep = width / steps;
  const ownSteps = Math.min(steps, Math.ceil(crop.width / pixelsPerStep));
  const toImage = box.length / crop.width;
  const chars = decodeCtc(probs.data, 0, ownSteps, classes, alphabet).map((c: DecodedChar) => ({
    text: c.text,
    u0: c.first * pixelsPerStep * toImage,
    u1: (c.last + 1) * pixelsPerStep * toImage,
    confidence: c.confidence,
  }));
  const blanks = blankRuns(crop).map(([a, b]): [number, number] => [a * toImage, b * toImage]);
  return { box, chars, blanks };
}
