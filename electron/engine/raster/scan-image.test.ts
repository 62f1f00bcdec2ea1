import { ImageKind, OPS } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { describe, expect, it } from 'vitest';
import { rgbOf, soleFullPageImage } from './scan-image.js';

const LETTER: [number, number, number, number] = [0, 0, 612, 792];

/** An operator list painting one image through `matrix`, with `extra` operations after it. */
function scanOps(matrix: number[], extra: [number, unknown[] | null][] = []): [number[], unknown[]] {
  const ops: [number, unknown[] | null][] = [
    [OPS.save, null],
    [OPS.transform, matrix],
    [OPS.dependency, ['img_p0_1']],
    [OPS.paintImageXObject, ['img_p0_1', 1700, 2200]],
    [OPS.restore, null],
    ...extra,
  ];
  return [ops.map(([fn]) => fn), ops.map(([, args]) => args)];
}

describe('soleFullPageImage', () => {
  it('finds the one upright image over the page', () => {
    expect(soleFullPageImage(...scanOps([612, 0, 0, 792, 0, 0]), LETTER)).toBe('img_p0_1');
  });

  it('allows a scanner\'s invisible text layer but not visible text', () => {
    const text = (mode: number): [number, unknown[] | null][] => [
      [OPS.beginText, null],
      [OPS.setTextRenderingMode, [mode]],
      [OPS.showText, [[]]],
      [OPS.endText, null],
    ];
    expect(soleFullPageImage(...scanOps([612, 0, 0, 792, 0, 0], text(3)), LETTER)).toBe('img_p0_1');
    expect(soleFullPageImage(...scanOps([612, 0, 0, 792, 0, 0], text(0)), LETTER)).toBeUndefined();
  });

  it('renders pages whose image is turned, flipped, partial, or drawn with more', () => {
    expect(soleFullPageImage(...scanOps([0, 792, -612, 0, 612, 0]), LETTER)).toBeUndefined();
    expect(soleFullPageImage(...scanOps([612, 0, 0, -792, 0, 792]), LETTER)).toBeUndefined();
    expect(soleFullPageImage(...scanOps([306, 0, 0, 396, 0, 0]), LETTER)).toBeUndefined();
    expect(soleFullPageImage(...scanOps([612, 0, 0, 792, 0, 0], [[OPS.constructPath, []], [OPS.fill, null]]), LETTER)).toBeUndefined();
    expect(
      soleFullPageImage(...scanOps([612, 0, 0, 792, 0, 0], [[OPS.paintImageXObject, ['img_p0_2', 10, 10]]]), LETTER),
    ).toBeUndefined();
  });
});

describe('rgbOf', () => {
  it('unpacks 1-bit rows (padded to bytes) with set bits white, as pdf.js paints them', () => {
    const image = rgbOf({ width: 10, height: 2, kind: ImageKind.GRAYSCALE_1BPP, data: new Uint8Array([0b10100000, 0b01000000, 0xff, 0xff]) });
    const grey = Array.from({ length: 20 }, (_, i) => image!.data[i * 3]);
    expect(grey).toEqual([255, 0, 255, 0, 0, 0, 0, 0, 0, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255]);
  });

  it('drops the alpha of RGBA and refuses data it does not know', () => {
    expect(Array.from(rgbOf({ width: 1, height: 1, kind: ImageKind.RGBA_32BPP, data: new Uint8Array([1, 2, 3, 4]) })!.data)).toEqual([1, 2, 3]);
    expect(rgbOf({ width: 1, height: 1, kind: ImageKind.RGB_24BPP })).toBeUndefined();
  });
});
