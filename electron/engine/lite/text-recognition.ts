/**
 * Line recognition with PP-OCR's CTC recogniser: lines are cut out, grouped by width so little
 * padding is computed, run in batches, and decoded with each character's position along its line.
 */

import ort from 'onnxruntime-node';
import type { RgbImage } from '../raster/rgb-image.js';
import { decodeCtc, type DecodedChar } from './ctc-decoding.js';
import { blankRuns, cropLine, LINE_HEIGHT, lineCropWidth } from './line-crops.js';
import type { TextLineBox } from './text-detection.js';

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

/** Padded pixels per batch at most: bounds memory and keeps batches of similar widths. */
const BATCH_PIXELS = 48 * 1600 * 12;
const MAX_BATCH = 24;

export async function recogniseLines(
  session: ort.InferenceSession,
  alphabet: readonly string[],
  image: RgbImage,
  boxes: readonly TextLineBox[],
  signal: AbortSignal,
): Promise<RecognisedLine[]> {
  const order = boxes.map((_, i) => i).sort((a, b) => lineCropWidth(boxes[a]!) - lineCropWidth(boxes[b]!));
  const results: RecognisedLine[] = new Array(boxes.length);
  for (let start = 0; start < order.length; ) {
    signal.throwIfAborted();
    let end = start + 1;
    while (end < order.length && end - start < MAX_BATCH && lineCropWidth(boxes[order[end]!]!) * (end - start + 1) * LINE_HEIGHT <= BATCH_PIXELS) end++;
    const members = order.slice(start, end);
    const crops = members.map((i) => cropLine(image, boxes[i]!));
    const width = Math.max(...crops.map((c) => c.width));
    const plane = LINE_HEIGHT * width;
    // Padding is 0 after normalisation (mid grey), as PP-OCR's own preprocessing pads.
    const input = new Float32Array(crops.length * 3 * plane);
    crops.forEach((crop, n) => {
      for (let channel = 0; channel < 3; channel++) {
        for (let row = 0; row < LINE_HEIGHT; row++) {
          const from = channel * LINE_HEIGHT * crop.width + row * crop.width;
          input.set(crop.data.subarray(from, from + crop.width), n * 3 * plane + channel * plane + row * width);
        }
      }
    });
    const output = await session.run({ [session.inputNames[0]!]: new ort.Tensor('float32', input, [crops.length, 3, LINE_HEIGHT, width]) });
    const probs = output[session.outputNames[0]!]!;
    const [, steps, classes] = probs.dims as [number, number, number];
    const data = probs.data as Float32Array;
    crops.forEach((crop, n) => {
      const box = boxes[members[n]!]!;
      const pixelsPerStep = width / steps;
      const ownSteps = Math.min(steps, Math.ceil(crop.width / pixelsPerStep));
      const toImage = box.length / crop.width;
      const chars = decodeCtc(data, n * steps * classes, ownSteps, classes, alphabet).map((c: DecodedChar) => ({
        text: c.text,
        u0: c.first * pixelsPerStep * toImage,
        u1: (c.last + 1) * pixelsPerStep * toImage,
        confidence: c.confidence,
      }));
      const blanks = blankRuns(crop).map(([a, b]): [number, number] => [a * toImage, b * toImage]);
      results[members[n]!] = { box, chars, blanks };
    });
    start = end;
  }
  return results;
}
