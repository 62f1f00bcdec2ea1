import { describe, expect, it } from 'vitest';
import { withCellText, withColumnInserted, withColumnRemoved, withHeaderRow, withRowInserted, withRowRemoved } from './table-edits.js';
import { cellRows, tableAt, tableSourceOf, tablesInMarkdown, type SourceTable } from './table-source.js';

// the table-spans fixture's table, as the text engine writes it
const SPANS = `<table>
<tr><th rowspan="2">Region</th><th colspan="2">Sales</th><th rowspan="2">Notes</th></tr>
<tr><th>Q1</th><th>Q2</th></tr>
<tr><td>North</td><td>120</td><td>135</td><td>Stable demand<br>New depot opened</td></tr>
<tr><td rowspan="2">South</td><td>98</td><td>104</td><td>Two stores</td></tr>
<tr><td>87</td><td>91</td><td>Second district</td></tr>
<tr><td>West</td><td colspan="2">No data</td><td>Survey delayed</td></tr>
</table>`;

const PIPE = `| Item | Cost \\| VAT | Note |
| :--- | ---: | :---: |
| **Tea** | $x^2$ | a \\| b |
| Milk | 2 |  |`;

const PAGE = `# Sales\n\nIntro text.\n\n${SPANS}\n\nBetween.\n\n${PIPE}\n\nThe end.\n`;

function texts(table: SourceTable): string[][] {
  return cellRows(table).map((row) => row.map((cell) => cell.text));
}

/** The page with one table's range replaced, as the editor applies it. */
function applied(markdown: string, table: SourceTable): string {
  return markdown.slice(0, table.from) + tableSourceOf(table) + markdown.slice(table.to);
}

describe('tablesInMarkdown', () => {
  it('finds HTML and pipe tables with their exact source ranges', () => {
    const [html, pipe] = tablesInMarkdown(PAGE);
    expect(html?.kind).toBe('html');
    expect(PAGE.slice(html!.from, html!.to)).toBe(SPANS);
    expect(pipe?.kind).toBe('pipe');
    expect(PAGE.slice(pipe!.from, pipe!.to)).toBe(PIPE);
    expect(tableAt(PAGE, PAGE.indexOf('Milk'))?.kind).toBe('pipe');
    expect(tableAt(PAGE, PAGE.indexOf('Intro'))).toBeUndefined();
  });

  it('lays an HTML table with spans out on its grid, with line breaks as lines', () => {
    const [html] = tablesInMarkdown(SPANS);
    expect(html!.rows).toBe(6);
    expect(html!.columns).toBe(4);
    expect(texts(html!)[0]).toEqual(['Region', 'Sales', 'Notes']);
    expect(cellRows(html!)[0]!.map((cell) => [cell.column, cell.rowSpan, cell.colSpan, cell.header])).toEqual([
      [0, 2, 1, true],
      [1, 1, 2, true],
      [3, 2, 1, true],
    ]);
    expect(cellRows(html!)[1]!.map((cell) => cell.column)).toEqual([1, 2]);
    expect(texts(html!)[2]![3]).toBe('Stable demand\nNew depot opened');
  });

  it('reads a pipe table with escaped pipes and inline formatting kept as text', () => {
    const [pipe] = tablesInMarkdown(PIPE);
    expect(pipe!.headerRow).toBe(true);
    expect(pipe!.align).toEqual(['left', 'right', 'center']);
    expect(texts(pipe!)).toEqual([
      ['Item', 'Cost | VAT', 'Note'],
      ['**Tea**', '$x^2$', 'a | b'],
      ['Milk', '2', ''],
    ]);
  });

  it('leaves alone a table in a quote or list, whose lines carry its prefixes', () => {
    expect(tablesInMarkdown('> | a | b |\n> | --- | --- |\n> | 1 | 2 |\n\n- x\n\n  <table><tr><td>1</td></tr></table>\n')).toEqual([]);
  });

  it('reads HTML entities as characters', () => {
    const [table] = tablesInMarkdown('<table><tr><td>A &amp; B &lt;c&gt;</td></tr></table>');
    expect(texts(table!)).toEqual([['A & B <c>']]);
  });
});

describe('tableSourceOf', () => {
  it('writes an untouched table back byte for byte', () => {
    for (const table of tablesInMarkdown(PAGE)) expect(applied(PAGE, table)).toBe(PAGE);
  });

  it('writes a changed HTML cell escaped and keeps the untouched cells as written', () => {
    const [html] = tablesInMarkdown(PAGE);
    const source = tableSourceOf(withCellText(html!, 2, 1, '<b>125</b> & more'));
    expect(source).toContain('<td>&lt;b&gt;125&lt;/b&gt; &amp; more</td>');
    expect(source).toContain('<th rowspan="2">Region</th><th colspan="2">Sales</th><th rowspan="2">Notes</th>');
    expect(source).toContain('<td rowspan="2">South</td>');
    expect(source).toContain('<td>Stable demand<br>New depot opened</td>');
    const reread = tablesInMarkdown(source)[0]!;
    expect(texts(reread)[2]).toEqual(['North', '<b>125</b> & more', '135', 'Stable demand\nNew depot opened']);
    expect(reread.columns).toBe(4);
  });

  it('writes lines of an HTML cell with <br>', () => {
    const [html] = tablesInMarkdown(SPANS);
    expect(tableSourceOf(withCellText(html!, 5, 0, 'West\nCoast'))).toContain('<td>West<br>Coast</td>');
  });

  it('writes a changed pipe cell with its pipes escaped and keeps the alignment row', () => {
    const [pipe] = tablesInMarkdown(PIPE);
    const source = tableSourceOf(withCellText(pipe!, 2, 2, 'x | y <z> & w'));
    expect(source).toBe(`| Item | Cost \\| VAT | Note |
| :--- | ---: | :---: |
| **Tea** | $x^2$ | a \\| b |
| Milk | 2 | x \\| y <z> & w |`);
    expect(texts(tablesInMarkdown(source)[0]!)[2]).toEqual(['Milk', '2', 'x | y <z> & w']);
  });

  it('writes a pipe table without its header row under an empty header line, and reads it back so', () => {
    const [pipe] = tablesInMarkdown(PIPE);
    const source = tableSourceOf(withHeaderRow(pipe!, false));
    expect(source.split('\n')[0]).toBe('|  |  |  |');
    const reread = tablesInMarkdown(source)[0]!;
    expect(reread.headerRow).toBe(false);
    expect(texts(reread)[0]).toEqual(['Item', 'Cost | VAT', 'Note']);
    expect(tableSourceOf(withHeaderRow(reread, true)).split('\n')[0]).toBe('| Item | Cost \\| VAT | Note |');
  });
});

describe('a pipe table of only a header line', () => {
  it('is one row, read as its header, and written back unchanged', () => {
    const [table] = tablesInMarkdown('| a | b |\n| --- | --- |');
    expect(table!.rows).toBe(1);
    expect(table!.headerRow).toBe(true);
    expect(texts(table!)).toEqual([['a', 'b']]);
    expect(tableSourceOf(table!)).toBe('| a | b |\n| --- | --- |');
  });
});

describe('rows and columns', () => {
  it('adds a pipe row and column', () => {
    const [pipe] = tablesInMarkdown(PIPE);
    const grown = withCellText(withRowInserted(withColumnInserted(pipe!, 3), 3), 3, 0, 'Sugar');
    expect(tableSourceOf(grown)).toBe(`| Item | Cost \\| VAT | Note |  |
| :--- | ---: | :---: | --- |
| **Tea** | $x^2$ | a \\| b |  |
| Milk | 2 |  |  |
| Sugar |  |  |  |`);
  });

  it('removes a pipe row and column', () => {
    const [pipe] = tablesInMarkdown(PIPE);
    expect(tableSourceOf(withColumnRemoved(withRowRemoved(pipe!, 1), 1))).toBe(`| Item | Note |
| :--- | :---: |
| Milk |  |`);
  });

  it('lengthens a rowspan when a row is added inside it and shortens it when one goes', () => {
    const [html] = tablesInMarkdown(SPANS);
    const grown = withRowInserted(html!, 4);
    expect(grown.rows).toBe(7);
    const south = grown.cells.find((cell) => cell.text === 'South')!;
    expect(south.rowSpan).toBe(3);
    // the new row has a cell in every column South does not cover
    expect(cellRows(grown)[4]!.map((cell) => cell.column)).toEqual([1, 2, 3]);
    const source = tableSourceOf(grown);
    expect(source).toContain('<td rowspan="3">South</td>');
    expect(source).toContain('<tr><td></td><td></td><td></td></tr>');
    const shrunk = withRowRemoved(html!, 3);
    expect(shrunk.cells.find((cell) => cell.text === 'South')).toMatchObject({ row: 3, rowSpan: 1 });
    expect(tableSourceOf(shrunk)).toContain('<tr><td>South</td><td>87</td><td>91</td><td>Second district</td></tr>');
  });

  it('adds a column through a header row as header cells and narrows a colspan when its column goes', () => {
    const [html] = tablesInMarkdown(SPANS);
    const wider = withColumnInserted(html!, 4);
    expect(wider.columns).toBe(5);
    expect(cellRows(wider)[0]!.at(-1)).toMatchObject({ column: 4, header: true, text: '' });
    expect(cellRows(wider)[2]!.at(-1)).toMatchObject({ column: 4, header: false });
    const narrower = withColumnRemoved(html!, 2);
    expect(narrower.columns).toBe(3);
    const source = tableSourceOf(narrower);
    expect(source).toContain('<th rowspan="2">Region</th><th>Sales</th><th rowspan="2">Notes</th>');
    expect(source).toContain('<tr><td>West</td><td>No data</td><td>Survey delayed</td></tr>');
  });
});

describe('an HTML table with row groups and attributes', () => {
  const GROUPED = `<table class="data" border="1" data-note="a > b">
<caption>Sales by region</caption>
<thead><tr class="head"><th>Region</th><th>Q1</th></tr></thead>
<tbody>
<tr><td>North</td><td>120</td></tr>
<tr id="south"><td>South</td><td>98</td></tr>
</tbody>
<tfoot><tr><td>Total</td><td>218</td></tr></tfoot>
</table>`;

  it('keeps its <table> attributes, caption, row groups and <tr> attributes when a cell changes', () => {
    const [table] = tablesInMarkdown(GROUPED);
    const source = tableSourceOf(withCellText(table!, 1, 1, '125'));
    expect(source).toBe(`<table class="data" border="1" data-note="a > b">
<caption>Sales by region</caption>
<thead>
<tr class="head"><th>Region</th><th>Q1</th></tr>
</thead>
<tbody>
<tr><td>North</td><td>125</td></tr>
<tr id="south"><td>South</td><td>98</td></tr>
</tbody>
<tfoot>
<tr><td>Total</td><td>218</td></tr>
</tfoot>
</table>`);
    const reread = tablesInMarkdown(source)[0]!;
    expect(texts(reread)).toEqual([['Region', 'Q1'], ['North', '125'], ['South', '98'], ['Total', '218']]);
    expect(reread.headerRow).toBe(true);
  });

  it('puts a row added under the header into the body, and one added at the end into the last group', () => {
    const [table] = tablesInMarkdown(GROUPED);
    const underHeader = tableSourceOf(withRowInserted(table!, 1));
    expect(underHeader).toContain('</thead>\n<tbody>\n<tr><td></td><td></td></tr>\n<tr><td>North</td>');
    const atEnd = tableSourceOf(withRowInserted(table!, 4));
    expect(atEnd).toContain('<tfoot>\n<tr><td>Total</td><td>218</td></tr>\n<tr><td></td><td></td></tr>\n</tfoot>');
  });

  it('drops a group whose rows all went, and keeps the rows in theirs through column edits', () => {
    const [table] = tablesInMarkdown(GROUPED);
    const source = tableSourceOf(withColumnInserted(withRowRemoved(table!, 3), 2));
    expect(source).not.toContain('tfoot');
    expect(source).toContain('<thead>\n<tr class="head"><th>Region</th><th>Q1</th><th></th></tr>\n</thead>');
    expect(source).toContain('<tr id="south"><td>South</td><td>98</td><td></td></tr>\n</tbody>\n</table>');
  });

  it('writes no <tbody> the parser implied around bare rows', () => {
    const [html] = tablesInMarkdown(SPANS);
    const source = tableSourceOf(withCellText(html!, 2, 1, '125'));
    expect(source).not.toContain('tbody');
    expect(source.startsWith('<table>\n<tr>')).toBe(true);
  });
});
