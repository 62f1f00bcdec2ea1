/**
 * Which way up a scan lies, decided cheaply from what detection already found: lines standing on
 * end mean the page lies sideways (a quarter turn, either way); PP-OCR's text direction classifier
 * tells which way round (or upright from upside down), by a majority of windows cut from the longest
 * lines.
 */

import ort from 'onnxruntime-node';
import type { RgbImage } from '../raster/rgb-image.js';
import { cropLine, LINE_HEIGHT } from './line-crops.js';
import type { QuarterTurns } from './quarter-turns.js';
import type { TextLineBox } from './text-detection.js';

/** The classifier's input width, at its 48 px height. */
const CLASSIFIER_WIDTH = 192;
/** Boxes this many times longer than thick are lines (or long words): short ones say little about direction. */
const LINE_ASPECT = 3;
/**
 * Lines the classifier votes on, and windows cut from each when one each does not agree: fifteen
 * votes outvote the odd misread (0-3 of 15 on the upright scans here), and most pages need only five.
 */
const VOTING_LINES = 5;
const WINDOWS_PER_LINE = 3;

/**
 * Whether the page's text stands on end: the long boxes' total length standing beats that lying
 * down. Detection sets a box's axis near level, so a vertical line shows as a box much thicker than long.
 * Weighting by length keeps a margin stamp or a vertical table heading from turning a page of prose.
 */
export function liesSideways(boxes: readonly TextLineBox[]): boolean {
  let standing = 0;
  let lying = 0;
  for (const box of boxes) {
    if (box.length >= LINE_ASPECT * box.thickness) lying += box.length;
    else if (box.thickness >= LINE_ASPECT * box.length) standing += box.thickness;
  }
  return standing > lying;
}

/** The longest lying lines, at most `count`, for the classifier: long lines carry the most letters. */
export function votingLines(boxes: readonly TextLineBox[], count = VOTING_LINES): TextLineBox[] {
  return boxes
    .filter((box) => box.length >= LINE_ASPECT * box.thickness)
    .sort((a, b) => b.length - a.length)
    .slice(0, count);
}

/**
 * Windows of the classifier's own shape (192 x 48) along each voting line, spread evenly; a line
 * shorter than one is its own window. Squeezed whole into 192 px, as PP-OCR feeds it lines, a long
 * line's letters become slivers: on upright A4 scans single lines voted upside down at up to 0.9.
 */
export function votingWindows(boxes: readonly TextLineBox[], count = VOTING_LINES, perLine = WINDOWS_PER_LINE): TextLineBox[] {
  return votingLines(boxes, count).flatMap((line) => {
    const length = Math.min(line.length, (CLASSIFIER_WIDTH / LINE_HEIGHT) * line.thickness);
    const windows = Math.max(1, Math.min(perLine, Math.floor(line.length / length)));
    return Array.from({ length: windows }, (_, k) => {
      const along = ((k + 0.5) * line.length) / windows - line.length / 2;
      return { ...line, cx: line.cx + along * Math.cos(line.angle), cy: line.cy + along * Math.sin(line.angle), length };
    });
  });
}

/** How many windows read upside down; `probabilities` is the classifier's [n, 2] (0 and 180 degrees). */
export function upsideDownVotes(probabilities: ArrayLike<number>, windows: number): number {
  let votes = 0;
  for (let i = 0; i < windows; i++) if (probabilities[2 * i + 1]! > probabilities[2 * i]!) votes++;
  return votes;
}

/**
 * Clockwise quarter turns that set the page upright, from the lines detected on it as it lies.
 * Lines standing on end, cut out as read downwards, are upright to the classifier when the page lies
 * turned a quarter clockwise (three more quarters set it upright) and upside down when it lies
 * turned anticlockwise (one more quarter).
 */
export async function pageTurns(classifier: ort.InferenceSession, image: RgbImage, boxes: readonly TextLineBox[]): Promise<QuarterTurns> {
  if (liesSideways(boxes)) return (await upsideDown(classifier, image, boxes.map(readDownwards))) ? 1 : 3;
  return (await upsideDown(classifier, image, boxes)) ? 2 : 0;
}

/**
 * A box as a line read from top to bottom: a box standing on end (detection keeps its axis near
 * level, so it is thicker than long) turned a quarter clockwise, its length and thickness swapped.
 */
export function readDownwards(box: TextLineBox): TextLineBox {
  return { ...box, angle: box.angle + Math.PI / 2, length: box.thickness, thickness: box.length };
}

/** By a majority of the windows; one window a line first, and three a line only when those disagree. */
async function upsideDown(classifier: ort.InferenceSession, image: RgbImage, boxes: readonly TextLineBox[]): Promise<boolean> {
  const first = votingWindows(boxes, VOTING_LINES, 1);
  if (first.length === 0) return false;
  const votes = await classify(classifier, image, first);
  if (votes === 0 || votes === first.length) return votes > 0;
  const all = votingWindows(boxes);
  return (await classify(classifier, image, all)) * 2 > all.length;
}

async function classify(classifier: ort.InferenceSession, image: RgbImage, windows: readonly TextLineBox[]): Promise<number> {
  const output = await classifier.run({ [classifier.inputNames[0]!]: classifierInput(image, windows) });
  return upsideDownVotes(output[classifier.outputNames[0]!]!.data as Float32Array, windows.length);
}

/** Each window cut out 48 px high at its own aspect (up to 192 px), padded with 0 (mid grey) to 192. */
function classifierInput(image: RgbImage, windows: readonly TextLineBox[]): ort.Tensor {
  const plane = LINE_HEIGHT * CLASSIFIER_WIDTH;
  const data = new Float32Array(windows.length * 3 * plane);
  windows.forEach((box, n) => {
    const width = Math.min(CLASSIFIER_WIDTH, Math.max(1, Math.ceil((LINE_HEIGHT * box.length) / box.thickness)));
    const crop = cropLine(image, box, width);
    for (let channel = 0; channel < 3; channel++) {
      for (let row = 0; row < LINE_HEIGHT; row++) {
        const from = (channel * LINE_HEIGHT + row) * width;
        data.set(crop.data.subarray(from, from + width), (n * 3 + channel) * plane + row * CLASSIFIER_WIDTH);
      }
    }
  });
  return new ort.Tensor('float32', data, [windows.length, 3, LINE_HEIGHT, CLASSIFIER_WIDTH]);
}
