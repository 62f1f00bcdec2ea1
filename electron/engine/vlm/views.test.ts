import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { manifestSchema } from '../../core/model/manifest.js';
import { decodeImage } from '../raster/page-raster.js';
import { chooseGrid, prepareViews } from './views.js';

const tinyDir = path.resolve(import.meta.dirname, '../../../tools/model/fixtures/tiny');
const parityDir = path.join(tinyDir, 'parity');
const manifest = manifestSchema.parse(JSON.parse(readFileSync(path.join(tinyDir, 'manifest.json'), 'utf8')));
const parity = JSON.parse(readFileSync(path.join(parityDir, 'parity.json'), 'utf8')) as {
  cases: { name: string; image: string; grid: [number, number]; tensors: Record<string, { file: string }> }[];
};
const gundam = manifest.vision.resolution_modes[0];

function fixture(file: string): Float32Array {
  const bytes = readFileSync(path.join(parityDir, file));
  return new Float32Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength));
}

function maxDifference(actual: Float32Array, expected: Float32Array): number {
  expect(actual.length).toBe(expected.length);
  return actual.reduce((worst, value, i) => Math.max(worst, Math.abs(value - (expected[i] ?? Number.NaN))), 0);
}

describe.each(parity.cases)('views of the $name page', (page) => {
  it('equal the reference pixels exactly (Pillow bicubic reproduced)', async () => {
    if (!gundam) throw new Error('the tiny manifest has no resolution mode');
    const image = await decodeImage(readFileSync(path.join(parityDir, page.image)));
    const views = prepareViews(image, gundam, manifest.vision);
    expect(views.grid).toEqual(page.grid);
    expect(maxDifference(views.global, fixture(`${page.name}.pixels_global.f32`))).toBe(0);
    const tiles = page.tensors.pixels_tiles;
    if (tiles) {
      if (!views.tiles) throw new Error('expected tiles');
      expect(maxDifference(views.tiles, fixture(tiles.file))).toBe(0);
    } else {
      expect(views.tiles).toBeNull();
    }
  });
});

describe('tile grid', () => {
  const candidates = gundam?.candidate_grids ?? [];
  it('follows the page aspect', () => {
    expect(chooseGrid(1280, 640, 640, candidates)).toEqual([2, 1]);
    expect(chooseGrid(640, 1900, 640, candidates)).toEqual([1, 3]);
    expect(chooseGrid(1000, 1000, 640, candidates)).toEqual([2, 2]);
  });
  it('on an exact tie takes the later grid only when the page is large', () => {
    // 1:1 ties between (2,2) and nothing else; 2:1 exactly ties nothing either, so use 1.5 between 1:1 and 2:1
    expect(chooseGrid(300, 200, 640, [[1, 1], [2, 1]])).toEqual([1, 1]);
    expect(chooseGrid(3000, 2000, 640, [[1, 1], [2, 1]])).toEqual([2, 1]);
  });
});
