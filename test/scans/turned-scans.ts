/**
 * The letter scan fed the wrong way round, as archives are full of: its image turned a quarter, a
 * half and three quarters clockwise, each as an image-only PDF page shaped like the image; and turned
 * a quarter on a page whose /Rotate attribute shows it upright again. Made from the letter scan's
 * JPEG (scan-fixtures.ts), into `test/scans/out/`, rebuilt when that or this file changes.
 */

import { readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createCanvas, loadImage } from '@napi-rs/canvas';
import { degrees, PDFDocument } from 'pdf-lib';
import { encodeCanvas } from '../../electron/core/canvas-encoding.js';
import { SCAN_DIR, SCAN_JPEG, scanPath } from './scan-fixtures.js';

export const TURNS = [90, 180, 270] as const;
export type Turn = (typeof TURNS)[number];

/** The letter scan turned clockwise by `turn`, or turned a quarter under a /Rotate that undoes it. */
export function turnedScanPath(turn: Turn | 'rotate-attribute'): string {
  return path.join(SCAN_DIR, turn === 'rotate-attribute' ? 'letter-150-rotate-attribute.pdf' : `letter-150-turned-${turn}.pdf`);
}

/** Builds the turned scans that are missing or stale; the letter scan must exist (`buildScanFixtures`). */
export async function buildTurnedScans(): Promise<void> {
  const generator = fileURLToPath(import.meta.url);
  const newest = Math.max(...(await Promise.all([generator, SCAN_JPEG].map(async (f) => (await stat(f)).mtimeMs))));
  const stale = async (out: string) => (await stat(out).then((s) => s.mtimeMs, () => 0)) < newest;
  const jpeg = await readFile(SCAN_JPEG);
  const size = (await PDFDocument.load(await readFile(scanPath('letter-150')))).getPage(0).getSize();
  for (const turn of TURNS) {
    if (await stale(turnedScanPath(turn))) await writeFile(turnedScanPath(turn), await turnedPdf(jpeg, size, turn, 0));
  }
  // Turned a quarter clockwise, shown a further three quarters clockwise: upright on screen.
  if (await stale(turnedScanPath('rotate-attribute'))) await writeFile(turnedScanPath('rotate-attribute'), await turnedPdf(jpeg, size, 90, 270));
}

/** One page of the JPEG turned clockwise by `turn` on the letter scan's page turned likewise, with `/Rotate` set to `rotate`. */
async function turnedPdf(jpeg: Buffer, size: { width: number; height: number }, turn: Turn, rotate: number): Promise<Uint8Array> {
  const image = await loadImage(jpeg);
  const sideways = turn !== 180;
  const width = sideways ? image.height : image.width;
  const height = sideways ? image.width : image.height;
  const canvas = createCanvas(width, height);
  const context = canvas.getContext('2d');
  context.translate(width / 2, height / 2);
  context.rotate((turn * Math.PI) / 180);
  context.drawImage(image, -image.width / 2, -image.height / 2);
  const out = await PDFDocument.create();
  const [pageWidth, pageHeight] = sideways ? [size.height, size.width] : [size.width, size.height];
  const page = out.addPage([pageWidth, pageHeight]);
  page.drawImage(await out.embedJpg(await encodeCanvas(canvas, 'jpeg', 95)), { x: 0, y: 0, width: pageWidth, height: pageHeight });
  page.setRotation(degrees(rotate));
  return out.save();
}
