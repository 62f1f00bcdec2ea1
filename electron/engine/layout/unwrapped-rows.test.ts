import { describe, expect, it } from 'vitest';
import { unwrappedRows } from './unwrapped-rows.js';

/** A line at `y` of 10-point text, one segment per [text, x0, x1]. */
const line = (y: number, ...segments: [string, number, number][]) => ({
  x0: segments[0]![1],
  x1: segments.at(-1)![2],
  y0: y,
  y1: y + 10,
  segments: segments.map(([text, x0, x1]) => ({ text, x0, x1, y0: y, y1: y + 10 })),
});

const columns = [
  { x0: 100, x1: 200 },
  { x0: 220, x1: 300 },
  { x0: 320, x1: 450 },
];

describe('unwrappedRows', () => {
  it('parts lines that each fill every column, where one column had room for the next line after each', () => {
    const row = [line(0, ['\\norm{v}', 100, 190], ['‖v‖', 220, 245], ['Length of a vector', 320, 420]), line(12, ['\\abs{x}', 100, 130], ['|x|', 220, 228], ['Absolute value', 320, 370])];
    expect(unwrappedRows(row, columns)).toEqual([[row[0]], [row[1]]]);
  });

  it('keeps lines that each column wraps, filling it before the break, as one row', () => {
    const row = [
      line(0, ['Vectors added head', 100, 199], ['The sum is the', 220, 300], ['Either order gives the same', 320, 449]),
      line(12, ['to tail', 100, 135], ['same', 220, 245], ['vector', 320, 355]),
    ];
    expect(unwrappedRows(row, columns)).toEqual([row]);
  });

  it('keeps a label centred between two lines of its neighbours in their row', () => {
    const row = [line(0, ['u \\wedge v', 100, 150], ['u ∧ v', 220, 245]), line(6, ['Wedge product', 320, 400]), line(12, ['\\bigwedge u_i', 100, 150], ['⋀ u_i', 220, 245])];
    expect(unwrappedRows(row, columns)).toEqual([row]);
  });

  it('ends a row only after a line broken by hand, keeping a wrapped cell of the next row whole', () => {
    const row = [
      line(0, ['s', 100, 105], ['start', 220, 250], ['a command that starts a block', 320, 440]),
      line(12, ['c', 100, 105], ['go on with', 220, 298], ['a command that goes on with the', 320, 449]),
      line(24, ['x', 100, 199], ['more of it', 220, 299], ['block', 320, 350]),
    ];
    expect(unwrappedRows(row, columns)).toEqual([[row[0]], [row[1], row[2]]]);
  });
});
