import { describe, expect, it } from 'vitest';
import { markdownTree } from './markdown-tree.js';
import { tableGrid } from './table-grid.js';
import { tableParts } from './table-parts.js';
import type { Element } from 'hast';

function grid(html: string) {
  const table = markdownTree(html).children.find((node): node is Element => node.type === 'element' && node.tagName === 'table');
  return tableGrid(table!);
}

describe('tableParts', () => {
  it('leaves a table that fits alone', () => {
    const whole = grid('<table><tr><td>a</td><td>b</td></tr></table>');
    expect(tableParts(whole, 4)).toEqual([whole]);
  });

  it('cuts columns into parts that each begin with the first column, spans cut at the cuts', () => {
    const cells = (label: string) => Array.from({ length: 7 }, (_, c) => `<td>${label}${c}</td>`).join('');
    const whole = grid(`<table><tr><td colspan="3">wide</td><td colspan="4">rest</td></tr><tr>${cells('r')}</tr></table>`);
    const parts = tableParts(whole, 4);
    expect(parts.map((part) => part.columns)).toEqual([4, 4]);
    const shape = parts.map((part) => part.rows.map((row) => row.map((cell) => [cell.column, cell.colSpan, cell.element ? 'text' : 'empty'])));
    // part 1: columns 0-3; part 2: columns 0 and 4-6
    expect(shape[0]).toEqual([[[0, 3, 'text'], [3, 1, 'text']], [[0, 1, 'text'], [1, 1, 'text'], [2, 1, 'text'], [3, 1, 'text']]]);
    expect(shape[1]).toEqual([[[0, 1, 'text'], [1, 3, 'empty']], [[0, 1, 'text'], [1, 1, 'text'], [2, 1, 'text'], [3, 1, 'text']]]);
  });
});
