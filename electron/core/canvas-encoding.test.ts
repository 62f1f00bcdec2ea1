import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { createCanvas, loadImage } from '@napi-rs/canvas';
import { describe, expect, it } from 'vitest';
import { encodeCanvas } from './canvas-encoding.js';

setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;

/** Starts encoding a canvas nothing else holds; returns a weak handle on it and the encode. */
function encodeUnheld(format: 'png' | 'jpeg'): { canvas: WeakRef<object>; encoded: Promise<Buffer> } {
  const canvas = createCanvas(2400, 2400);
  const context = canvas.getContext('2d');
  context.fillStyle = '#ffffff';
  context.fillRect(0, 0, 2400, 2400);
  context.fillStyle = '#000000';
  context.fillRect(100, 200, 300, 400);
  return { canvas: new WeakRef(canvas), encoded: format === 'png' ? encodeCanvas(canvas, 'png') : encodeCanvas(canvas, 'jpeg', 90) };
}

describe('encodeCanvas', () => {
  it.each(['png', 'jpeg'] as const)('keeps a %s canvas alive through a collection while it encodes, and the image decodes', async (format) => {
    const { canvas, encoded } = encodeUnheld(format);
    await new Promise((resolve) => setImmediate(resolve));
    collectGarbage();
    // @napi-rs/canvas alone lets the canvas go here, and its encoder then reads freed pixels
    expect(canvas.deref()).toBeDefined();
    const image = await loadImage(await encoded);
    expect([image.width, image.height]).toEqual([2400, 2400]);
  });
});
