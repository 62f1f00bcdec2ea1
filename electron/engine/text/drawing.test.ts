import { createCanvas } from '@napi-rs/canvas';
import { OPS, type PageViewport, type PDFDocumentProxy } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPrintedPdf, printHtml, readPrintedPage, type PrintedPage } from '../../../test/printed-page.js';
import { encodeCanvas } from '../../core/canvas-encoding.js';
import { readDrawing, type OperatorList } from './operator-drawing.js';
import type { Rule } from '../layout/geometry.js';

/** CSS pixels to PDF points, as Chromium prints. */
const PT = 0.75;

const tableHtml = `<!doctype html><html><head><style>
  @page { margin: 0 }
  body { margin: 0; padding: 40px; font: 14px 'Liberation Sans', sans-serif }
  table { border-collapse: collapse }
  td { border: 1px solid #000; padding: 4px 8px }
</style></head><body>
  <table><tr><td>North</td><td>12</td><td>7</td></tr><tr><td>South</td><td>9</td><td>15</td></tr></table>
  <svg width="300" height="220" style="display: block; margin-top: 20px">
    <rect x="10" y="10" width="200" height="100" fill="none" stroke="#000" stroke-width="2"/>
    <line x1="10" y1="150" x2="210" y2="150" stroke="#fff" stroke-width="2"/>
    <circle cx="250" cy="60" r="30" fill="none" stroke="#000"/>
    <rect x="10" y="180" width="200" height="30" fill="#ddd"/>
  </svg>
  <div style="position: fixed; left: 0; top: 0; right: 0; bottom: 0; border: 2px solid #000"></div>
</body></html>`;

async function imageHtml(): Promise<string> {
  const canvas = createCanvas(8, 8);
  canvas.getContext('2d').fillRect(0, 0, 8, 8);
  const src = `data:image/png;base64,${(await encodeCanvas(canvas, 'png')).toString('base64')}`;
  return `<!doctype html><html><head><style>@page { margin: 0 } body { margin: 0 }</style></head><body>
    <img src="${src}" style="position: absolute; left: 100px; top: 200px; width: 240px; height: 120px">
  </body></html>`;
}

let pdfs: PDFDocumentProxy[] = [];
let table: PrintedPage;
let picture: PrintedPage;

beforeAll(async () => {
  const printed = await printHtml([tableHtml, await imageHtml()]);
  pdfs = await Promise.all(printed.map(openPrintedPdf));
  table = await readPrintedPage(pdfs[0]!);
  picture = await readPrintedPage(pdfs[1]!);
});

afterAll(async () => {
  for (const pdf of pdfs) await pdf.destroy();
});

const horizontal = (rules: Rule[]) => rules.filter((r) => r.orientation === 'horizontal').sort((a, b) => a.y0 - b.y0);
const vertical = (rules: Rule[]) => rules.filter((r) => r.orientation === 'vertical').sort((a, b) => a.x0 - b.x0);
const runNamed = (text: string) => table.runs.find((run) => run.text.includes(text))!;

describe('readDrawing on a printed page', () => {
  it('joins the per-cell border pieces of a table into whole grid lines', () => {
    const tableRules = table.rules.filter((r) => r.y1 < runNamed('South').y1 + 20);
    expect(horizontal(tableRules)).toHaveLength(3);
    expect(vertical(tableRules)).toHaveLength(4);
    const [top, middle, bottom] = horizontal(tableRules);
    expect(top!.x1 - top!.x0).toBeCloseTo(bottom!.x1 - bottom!.x0, 0);
    expect(middle!.y0).toBeGreaterThan(runNamed('North').y1 - 2);
    expect(middle!.y1).toBeLessThan(runNamed('South').y0 + 2);
  });

  it('puts the column rules between the cells they separate, in top-left page coordinates', () => {
    const [, second] = vertical(table.rules.filter((r) => r.y1 < runNamed('South').y1 + 20));
    expect(second!.x0).toBeGreaterThan(runNamed('North').x1);
    expect(second!.x1).toBeLessThan(runNamed('12').x0);
    expect(table.rules.every((r) => r.y0 >= 0 && r.y1 <= table.height && r.x0 >= 0 && r.x1 <= table.width)).toBe(true);
  });

  it('gives the four sides of a stroked rectangle and nothing for curves, white lines, fills or the page frame', () => {
    const box = { x0: (40 + 10) * PT, x1: (40 + 210) * PT };
    const drawingRules = table.rules.filter((r) => r.y0 > runNamed('South').y1 + 10);
    expect(horizontal(drawingRules)).toHaveLength(2);
    expect(vertical(drawingRules)).toHaveLength(2);
    const [left, right] = vertical(drawingRules);
    expect(left!.x0).toBeCloseTo(box.x0 - PT, 0);
    expect(right!.x1).toBeCloseTo(box.x1 + PT, 0);
    expect(table.rules.some((r) => r.x1 - r.x0 > 0.9 * table.width || r.y1 - r.y0 > 0.9 * table.height)).toBe(false);
  });

  it('places an image where the page shows it', () => {
    expect(picture.images).toHaveLength(1);
    const [image] = picture.images;
    expect(image!.x0).toBeCloseTo(100 * PT, 0);
    expect(image!.y0).toBeCloseTo(200 * PT, 0);
    expect(image!.x1).toBeCloseTo(340 * PT, 0);
    expect(image!.y1).toBeCloseTo(320 * PT, 0);
    expect(typeof image!.objectId).toBe('string');
    expect(picture.rules).toEqual([]);
  });
});

/** A page 200 x 100 points whose user space is PDF's (y up), seen top-left with y down. */
const viewport = { width: 200, height: 100, transform: [1, 0, 0, -1, 0, 100] } as unknown as PageViewport;

const operatorList = (ops: [number, unknown[] | null][]): OperatorList =>
  ({ fnArray: ops.map(([fn]) => fn), argsArray: ops.map(([, args]) => args), lastChunk: true }) as unknown as OperatorList;

/** A path as pdf.js 5 encodes it: 0 moveTo, 1 lineTo, 4 closePath. */
const path = (paint: number, ...commands: number[]): [number, unknown[]] => [OPS.constructPath, [paint, [new Float32Array(commands)], [0, 0, 0, 0]]];

describe('readDrawing on operator lists', () => {
  it('maps strokes through the transformation matrix and flips them to top-left coordinates', () => {
    const { rules } = readDrawing(
      operatorList([
        [OPS.save, null],
        [OPS.transform, [0, 1, -1, 0, 100, 0]],
        path(OPS.stroke, 0, 10, 0, 1, 60, 0),
        [OPS.restore, null],
        path(OPS.stroke, 0, 10, 90, 1, 60, 90),
      ]),
      viewport,
    );
    expect(rules.map((r) => r.orientation).sort()).toEqual(['horizontal', 'vertical']);
    const rotated = rules.find((r) => r.orientation === 'vertical')!;
    expect([(rotated.x0 + rotated.x1) / 2, rotated.y0, rotated.y1]).toEqual([100, 40, 90]);
    const plain = rules.find((r) => r.orientation === 'horizontal')!;
    expect([plain.x0, plain.x1, (plain.y0 + plain.y1) / 2]).toEqual([10, 60, 10]);
  });

  it('reads thin filled rectangles as rules and thick ones as shapes', () => {
    const { rules } = readDrawing(
      operatorList([
        path(OPS.fill, 0, 10, 50, 1, 110, 50, 1, 110, 51, 1, 10, 51, 4),
        path(OPS.fill, 0, 10, 10, 1, 110, 10, 1, 110, 40, 1, 10, 40, 4),
      ]),
      viewport,
    );
    expect(rules).toEqual([{ orientation: 'horizontal', x0: 10, x1: 110, y0: 49, y1: 50 }]);
  });

  it('joins collinear pieces that touch and keeps apart those with a gap', () => {
    const { rules } = readDrawing(
      operatorList([path(OPS.stroke, 0, 10, 50, 1, 40, 50, 0, 40, 50, 1, 70, 50, 0, 90, 50, 1, 120, 50)]),
      viewport,
    );
    expect(rules.map((r) => [r.x0, r.x1])).toEqual([
      [10, 70],
      [90, 120],
    ]);
  });

  it('never throws on malformed operator lists', () => {
    const hostile: [number, unknown[] | null][] = [
      [OPS.restore, null],
      [OPS.transform, [NaN, 0, 0, 1, 0, 0]],
      [OPS.transform, ['a', 'b']],
      [OPS.paintFormXObjectBegin, [null, null]],
      [OPS.constructPath, null],
      [OPS.constructPath, [OPS.stroke, [null], null]],
      [OPS.constructPath, [OPS.stroke, [new Float32Array([0, 1])], null]],
      [OPS.constructPath, [OPS.fill, [new Float32Array([1, 5, 5, 9, 3])], null]],
      [OPS.setLineWidth, [Infinity]],
      [OPS.setGState, [[null, ['LW'], ['CA', 'x']]]],
      [OPS.paintImageXObject, [null]],
      [OPS.paintImageXObjectRepeat, ['img', 1, 1, [1]]],
      [OPS.paintImageMaskXObject, [null]],
      [9999, [1, 2, 3]],
      path(OPS.stroke, 0, 10, 50, 1, 60, 50),
    ];
    const result = readDrawing(operatorList(hostile), viewport);
    expect(result.rules).toHaveLength(1);
    expect(readDrawing({} as OperatorList, viewport)).toEqual({ rules: [], images: [] });
    expect(readDrawing(operatorList([]), { width: 0, height: 0, transform: null } as unknown as PageViewport)).toEqual({ rules: [], images: [] });
  });
});
