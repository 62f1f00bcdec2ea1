import { describe, expect, it } from 'vitest';
import type { Box } from './geometry.js';
import { readingOrder } from './reading-order.js';

interface Named extends Box {
  name: string;
}

function box(name: string, x0: number, y0: number, x1: number, y1: number): Named {
  return { name, x0, y0, x1, y1 };
}

/** Lines of a column: `count` lines 12pt apart, 10pt tall. */
function column(prefix: string, x0: number, x1: number, top: number, count: number): Named[] {
  return Array.from({ length: count }, (_, i) => box(`${prefix}${i + 1}`, x0, top + i * 12, x1, top + i * 12 + 10));
}

function order(elements: Named[]): string[][] {
  return readingOrder(elements, 10).map((leaf) => leaf.map((e) => e.name).sort((a, b) => a.localeCompare(b, 'en', { numeric: true })));
}

describe('reading order', () => {
  it('reads a full-width title, then the left column, then the right one', () => {
    const title = box('title', 50, 40, 400, 60);
    const left = column('L', 50, 280, 80, 5);
    const right = column('R', 300, 530, 80, 5);
    expect(order([...right, title, ...left])).toEqual([['title'], left.map((e) => e.name), right.map((e) => e.name)]);
  });

  it('never interleaves columns whose paragraph gaps line up', () => {
    const left = [...column('L', 50, 280, 80, 3), ...column('L', 50, 280, 140, 3).map((e, i) => ({ ...e, name: `L${i + 4}` }))];
    const right = [...column('R', 300, 530, 80, 3), ...column('R', 300, 530, 140, 3).map((e, i) => ({ ...e, name: `R${i + 4}` }))];
    const leaves = order([...left, ...right]);
    expect(leaves.flat()).toEqual([...left, ...right].map((e) => e.name));
  });

  it('reads a figure spanning both columns between the column parts above and below it', () => {
    const topLeft = column('A', 50, 280, 80, 3);
    const topRight = column('B', 300, 530, 80, 3);
    const figure = box('figure', 60, 130, 520, 300);
    const bottomLeft = column('C', 50, 280, 320, 3);
    const bottomRight = column('D', 300, 530, 320, 3);
    const flat = order([...bottomRight, figure, ...topLeft, ...bottomLeft, ...topRight]).flat();
    expect(flat).toEqual([...topLeft, ...topRight, figure, ...bottomLeft, ...bottomRight].map((e) => e.name));
  });

  it('splits three columns with a narrow gutter under a title that covers two of them', () => {
    const title = box('title', 50, 40, 330, 60);
    const columns = [column('A', 50, 200, 80, 6), column('B', 210, 360, 80, 6), column('C', 370, 520, 80, 6)];
    expect(order([title, ...columns.flat()]).flat()).toEqual([title, ...columns.flat()].map((e) => e.name));
  });

  it('reads the short entries of a table-like layout row by row rather than column by column', () => {
    const rows = [0, 1, 2, 3].flatMap((i) => [box(`name${i}`, 50, 80 + i * 12, 80, 90 + i * 12), box(`type${i}`, 150, 80 + i * 12, 200, 90 + i * 12)]);
    expect(readingOrder(rows, 10)).toHaveLength(1);
  });

  it("reads a letter's staggered address blocks top to bottom, not as two columns", () => {
    const sender = column('S', 420, 540, 60, 3);
    const recipient = column('R', 50, 130, 120, 3);
    const date = [box('date', 480, 180, 540, 190)];
    const greeting = [box('greeting', 50, 210, 120, 220)];
    const order = readingOrder([...recipient, ...greeting, ...sender, ...date], 10).flat().map((e) => e.name);
    expect(order).toEqual([...sender, ...recipient, ...date, ...greeting].map((e) => e.name));
  });

  it('keeps a justified line with one wide space inside its paragraph', () => {
    const lines = column('P', 50, 530, 80, 4);
    const [first, second] = [box('P2a', 50, 92, 250, 102), box('P2b', 262, 92, 530, 102)];
    const elements = [lines[0]!, first, second, lines[2]!, lines[3]!];
    expect(readingOrder(elements, 10)).toHaveLength(1);
  });
});
