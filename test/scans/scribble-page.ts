/**
 * A page of handwriting-like scribbles, as a phone photographs a note nobody can read: rows of
 * joined pen loops with tall strokes here and there, in ink on slightly grey paper with speckle,
 * drawn upright from a seed so every run makes the same page. Written as a PNG into
 * `test/scans/out/`, rebuilt when this file changes.
 */

import { stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createCanvas, type SKRSContext2D } from '@napi-rs/canvas';
import { encodeCanvas } from '../../electron/core/canvas-encoding.js';
import { SCAN_DIR } from './scan-fixtures.js';

/** An A5-ish note at about 150 dpi. */
const WIDTH = 1240;
const HEIGHT = 1500;

/**
 * `cursive`: slanted joined loops with ascenders and descenders, as a hurried hand writes;
 * `even`: upright loops as tall above the line as below, which look the same upside down, so
 * they give a direction classifier nothing to go by.
 */
export type ScribbleStyle = 'cursive' | 'even';

export function scribblePagePath(seed: number, style: ScribbleStyle): string {
  return path.join(SCAN_DIR, `scribbles-${style}-${seed}.png`);
}

/** The scribble page for `seed`, made when missing or older than this file. */
export async function buildScribblePage(seed: number, style: ScribbleStyle = 'cursive'): Promise<string> {
  const out = scribblePagePath(seed, style);
  const made = await stat(out).then((s) => s.mtimeMs, () => 0);
  if (made >= (await stat(fileURLToPath(import.meta.url))).mtimeMs) return out;
  const canvas = createCanvas(WIDTH, HEIGHT);
  const context = canvas.getContext('2d');
  const random = seeded(seed);
  context.fillStyle = '#f1efe8';
  context.fillRect(0, 0, WIDTH, HEIGHT);
  for (let n = 0; n < 6000; n++) {
    context.fillStyle = `rgba(60, 60, 60, ${0.1 + 0.3 * random()})`;
    context.fillRect(random() * WIDTH, random() * HEIGHT, 1 + 2 * random(), 1 + 2 * random());
  }
  context.strokeStyle = '#1d2a5a';
  context.lineCap = 'round';
  context.lineJoin = 'round';
  let baseline = 130;
  while (baseline < HEIGHT - 80) {
    // cursive: now and then a short row written larger, as a greeting or a date often is
    const large = style === 'cursive' && random() < 0.25;
    const scale = large ? 1.5 + 0.4 * random() : 1;
    if (large) baseline += 30;
    let x = 70 + 40 * random();
    const end = large ? x + 250 + 200 * random() : WIDTH - 60 - 200 * random();
    while (x < end) x = scribbleWord(context, random, style, scale, x, baseline + 6 * (random() - 0.5)) + 25 + 30 * random();
    baseline += (large ? 100 : 70) + 20 * random();
  }
  await writeFile(out, await encodeCanvas(canvas, 'png'));
  return out;
}

/**
 * One "word": a run of joined loops like letters (x-height about 18 px times `scale`; cursive ones
 * sometimes loop up to ascender height or down below the line), with a shaky pen. Returns where it ends.
 */
function scribbleWord(context: SKRSContext2D, random: () => number, style: ScribbleStyle, scale: number, start: number, baseline: number): number {
  const letters = 3 + Math.floor(7 * random());
  const slant = style === 'cursive' ? 0.25 + 0.15 * random() : 0;
  context.lineWidth = (2 + 1.5 * random()) * scale;
  context.beginPath();
  context.moveTo(start, baseline);
  let x = start;
  for (let k = 0; k < letters; k++) {
    const width = (12 + 12 * random()) * scale;
    const pick = random();
    const cursive = pick < 0.2 ? 40 + 15 * random() : pick < 0.3 ? -30 - 10 * random() : 14 + 8 * random();
    // even: a loop about the line's middle, as often up as down
    const height = style === 'cursive' ? cursive * scale : (pick < 0.5 ? 1 : -1) * (10 + 20 * random());
    const top = baseline - height;
    const pen = (px: number, py: number): [number, number] => [px + slant * (baseline - py) + 1.5 * (random() - 0.5), py + 1.5 * (random() - 0.5)];
    context.bezierCurveTo(...pen(x + width * 0.6, baseline), ...pen(x + width * 0.9, top), ...pen(x + width * 0.4, top));
    context.bezierCurveTo(...pen(x - width * 0.1, top), ...pen(x + width * 0.2, baseline), ...pen(x + width, baseline));
    x += width;
  }
  context.stroke();
  return x;
}

/** mulberry32: a small seeded generator, so the page is the same on every run. */
function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
