import { describe, expect, it } from 'vitest';
import { cropToBox } from './grounded-content.js';
import { filledImage, paste } from './raster/rgb-image.js';

describe('cropToBox', () => {
  it('cuts the pixels under a box in points from a raster of another resolution', () => {
    // a 200 x 100 pt page rendered at 2 px per point, with a black 40 x 20 px patch at (100, 40) px
    const raster = filledImage(400, 200, [255, 255, 255]);
    paste(raster, filledImage(40, 20, [0, 0, 0]), 100, 40);
    const cut = cropToBox(raster, [50, 20, 70, 30], { width: 200, height: 100 });
    expect([cut.width, cut.height]).toEqual([40, 20]);
    expect(cut.data.every((value) => value === 0)).toBe(true);
  });

  it('keeps at least one pixel of a box on the page edge', () => {
    const raster = filledImage(100, 100, [255, 255, 255]);
    const cut = cropToBox(raster, [100, 100, 100, 100], { width: 50, height: 50 });
    expect([cut.width, cut.height]).toEqual([1, 1]);
  });
});
