/**
 * Which way up a scan lies, decided cheaply from what detection already found: lines standing on
 * end mean the page lies sideways (a quarter turn, either way); PP-OCR's text direction classifier
 * tells which way round (or upright from upside down), by its mean confidence over windows cut from
 * the longest lines. A page is turned only on a clear signal: handwriting, drawings and noise give
 * the classifier (trained on print) no real direction, and such a page is read as it lies.
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
 * Lines the classifier judges, and windows cut from each when one each does not settle it: fifteen
 * windows outweigh the odd misread (0-3 of 15 on the upright scans here), and most pages need only five.
 */
const VOTING_LINES = 5;
const WINDOWS_PER_LINE = 3;

/**
 * Standing text must outweigh lying text this many times to turn a page a quarter: on a page read
 * sideways nearly every line stands (the letter scan: none lies), while handwriting's loops and
 * tall strokes box as a few standing fragments among lying words.
 */
const CLEAR_SIDEWAYS = 2;
/**
 * The classifier's mean confidence margin, P(upside down) - P(upright) over the windows, at which
 * a page is turned over. Measured: printed scans and handwriting-like italics upside down 0.99-1.00
 * (upright -0.95 to -1.00); upright scribbles that look alike either way up -0.37 to 0.64, which
 * a majority of windows had turned over on 7 pages of 10.
 */
const CLEAR_UPSIDE_DOWN = 0.75;
/** One window a line settles the question when their margin is at least this clear either way. */
const SETTLED = 0.9;

/**
 * Whether the page's text stands on end: the long boxes' total length standing clearly beats that
 * lying down. Detection sets a box's axis near level, so a vertical line shows as a box much thicker
 * than long. Weighting by length keeps a margin stamp or a vertical table heading from turning a
 * page of prose.
 */
export function liesSideways(boxes: readonly TextLineBox[]): boolean {
  let standing = 0;
  let lying = 0;
  for (const box of boxes) {
    if (box.length >= LINE_ASPECT * box.thickness) lying += box.length;
    else if (box.thickness >= LINE_ASPECT * box.length) standing += box.thickness;
  }
  return standing > 0 && standing >= CLEAR_SIDEWAYS * lying;
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

/**
 * The mean over windows of P(upside down) - P(upright), from -1 (all surely upright) to 1 (all
 * surely upside down); `probabilities` is the classifier's [n, 2] (0 and 180 degrees).
 */
export function upsideDownMargin(probabilities: ArrayLike<number>, windows: number): number {
  let sum = 0;
  for (let i = 0; i < windows; i++) sum += probabilities[2 * i + 1]! - probabilities[2 * i]!;
  return windows > 0 ? sum / windows : 0;
}

/** Upside down only on a clear margin: a weak or split signal leaves the page as it lies. */
export function clearlyUpsideDown(margin: number): boolean {
  return margin >= CLEAR_UPSIDE_DOWN;
}

/**
 * Clockwise quarter turns that set the page upright, from the lines detected on it as it lies.
 * Lines standing on end, cut out as read downwards, are upright to the classifier when the page lies
 * turned a quarter clockwise (three more quarters set it upright) and upside down when it lies
 * turned anticlockwise (one more quarter).
 */
export async function pageTurns(classifier: ort.InferenceSession, image: RgbImage, boxes: readonly TextLineBox[]): Promise<QuarterTurns> {
  // Sideways either way needs turning, so there the likelier way round wins; upright needs a clear case against it.
  if (liesSideways(boxes)) return (await upsideDownMarginOf(classifier, image, boxes.map(readDownwards))) > 0 ? 1 : 3;
  return clearlyUpsideDown(await upsideDownMarginOf(classifier, image, boxes)) ? 2 : 0;
}

/**
 * A box as a line read from top to bottom: a box standing on end (detection keeps its axis near
 * level, so it is thicker than long) turned a quarter clockwise, its length and thickness swapped.
 */
export function readDownwards(box: TextLineBox): TextLineBox {
  return { ...box, angle: box.angle + Math.PI / 2, length: box.thickness, thickness: box.length };
}

/** One window a line first, and three a line when those do not settle it; 0 with no line to judge by. */
export async function upsideDownMarginOf(classifier: ort.InferenceSession, image: RgbImage, boxes: readonly TextLineBox[]): Promise<number> {
  const first = votingWindows(boxes, VOTING_LINES, 1);
  if (first.length === 0) return 0;
  const margin = await classify(classifier, image, first);
  if (Math.abs(margin) >= SETTLED) return margin;
  return classify(classifier, image, votingWindows(boxes));
}

async function classify(classifier: ort.InferenceSession, image: RgbImage, windows: readonly TextLineBox[]): Promise<number> {
  const output = await classifier.run({ [classifier.inputNames[0]!]: classifierInput(image, windows) });
  return upsideDownMargin(output[classifier.outputNames[0]!]!.data as Float32Array, windows.length);
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
