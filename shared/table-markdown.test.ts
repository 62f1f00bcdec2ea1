import { describe, expect, it } from 'vitest';
import { isSimpleGrid, tableMarkdown, type TableCell, type TableGrid } from './table-markdown.js';

const cell = (...lines: string[]): TableCell => ({ lines, rowSpan: 1, colSpan: 1 });

describe('tableMarkdown', () => {
  it('writes a simple grid as a GFM pipe table with the first row as header', () => {
    const grid: TableGrid = { rows: [[cell('Name'), cell('Age')], [cell('Ann'), cell('31')], [cell('Bo'), cell()]], headerRows: 1 };
    expect(tableMarkdown(grid)).toBe('| Name | Age |\n| --- | --- |\n| Ann | 31 |\n| Bo |  |');
  });

  it('writes a grid whose cell holds a pipe as HTML, since many readers split a pipe row at every pipe, escaped or not', () => {
    const grid: TableGrid = { rows: [[cell('a|b'), cell('c')], [cell('1'), cell('x \\| y')]], headerRows: 1 };
    expect(isSimpleGrid(grid)).toBe(false);
    expect(tableMarkdown(grid)).toBe(['<table>', '<tr><th>a|b</th><th>c</th></tr>', '<tr><td>1</td><td>x \\| y</td></tr>', '</table>'].join('\n'));
  });

  it('writes spanning cells as an HTML table with th for the header rows', () => {
    const grid: TableGrid = {
      rows: [
        [{ lines: ['Region'], rowSpan: 2, colSpan: 1 }, { lines: ['Sales'], rowSpan: 1, colSpan: 2 }],
        [cell('Q1'), cell('Q2')],
        [cell('North'), cell('1'), cell('2')],
      ],
      headerRows: 2,
    };
    expect(tableMarkdown(grid)).toBe(
      [
        '<table>',
        '<tr><th rowspan="2">Region</th><th colspan="2">Sales</th></tr>',
        '<tr><th>Q1</th><th>Q2</th></tr>',
        '<tr><td>North</td><td>1</td><td>2</td></tr>',
        '</table>',
      ].join('\n'),
    );
  });

  it('writes a cell of several lines as HTML with <br> between the lines', () => {
    const grid: TableGrid = { rows: [[cell('A'), cell('B')], [cell('one', 'two'), cell('3')]], headerRows: 1 };
    expect(isSimpleGrid(grid)).toBe(false);
    expect(tableMarkdown(grid)).toContain('<td>one<br>two</td><td>3</td>');
  });

  it('escapes markup in HTML cells, keeping pipes as they are', () => {
    const grid: TableGrid = { rows: [[cell('x < y & z > w', 'a|b'), cell('k')]], headerRows: 1 };
    expect(tableMarkdown(grid)).toContain('<th>x &lt; y &amp; z &gt; w<br>a|b</th>');
  });

  it('escapes markup in pipe cells so each reads as its own text', () => {
    const grid: TableGrid = {
      rows: [
        [cell('Field'), cell('Value')],
        [cell('<script>alert(1)</script>'), cell('<img src=x onerror=alert(2)>')],
        [cell('[pay](javascript:alert(3))'), cell('*bold* `code` $1 and $2 &amp;')],
      ],
      headerRows: 1,
    };
    expect(tableMarkdown(grid).split('\n').slice(2)).toEqual([
      '| \\<script>alert(1)\\</script> | \\<img src=x onerror=alert(2)> |',
      '| [pay\\](javascript:alert(3)) | \\*bold\\* \\`code\\` \\$1 and \\$2 &amp;amp; |',
    ]);
  });

  it('leaves a cell\'s only run of stars (a footnote mark) bare, which cannot make emphasis, and escapes stars that can', () => {
    const grid: TableGrid = { rows: [[cell('Year'), cell('1992*'), cell('(000)**')], [cell('*2,912'), cell('a*b*c'), cell('x ** y')]], headerRows: 1 };
    expect(tableMarkdown(grid).split('\n')).toEqual(['| Year | 1992* | (000)** |', '| --- | --- | --- |', '| *2,912 | a\\*b\\*c | x ** y |']);
  });

  it('treats rows of unequal width as not simple', () => {
    expect(isSimpleGrid({ rows: [[cell('a'), cell('b')], [cell('c')]], headerRows: 1 })).toBe(false);
  });

  it('gives nothing for a table without rows', () => {
    expect(tableMarkdown({ rows: [], headerRows: 0 })).toBe('');
  });
});
