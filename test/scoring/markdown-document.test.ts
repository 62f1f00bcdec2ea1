import { describe, expect, it } from 'vitest';
import { parseMarkdown } from './markdown-document.js';

describe('parseMarkdown', () => {
  it('reads GFM pipe tables and HTML tables into grids, spans repeated in every slot they cover', () => {
    const doc = parseMarkdown(`| A | B |
| --- | --- |
| 1 | 2 |

<table>
<tr><th rowspan="2">Region</th><th colspan="2">Sales</th></tr>
<tr><th>Q1</th><th>Q2</th></tr>
<tr><td>North</td><td>120</td><td>Two<br>lines</td></tr>
</table>
`);
    expect(doc.tables.map((t) => t.format)).toEqual(['gfm', 'html']);
    expect(doc.tables[0]!.grid.map((row) => row.map((c) => c?.text))).toEqual([['A', 'B'], ['1', '2']]);
    const html = doc.tables[1]!;
    expect(html.grid.map((row) => row.map((c) => c?.text))).toEqual([
      ['Region', 'Sales', 'Sales'],
      ['Region', 'Q1', 'Q2'],
      ['North', '120', 'Two lines'],
    ]);
    expect(html.cells[0]).toMatchObject({ rowSpan: 2, colSpan: 1, header: true });
  });

  it('reads headings with levels, nested lists with their parent item, links, styles and images', () => {
    const doc = parseMarkdown(`# Title

Some **bold text**, *an aside*, \`code()\` and [a link](https://example.org/x).

- Bedding
  - Blankets
  - Mats
- Radio

1. First
2. Second

![](folio-image:page-1-image-1.png)
`);
    expect(doc.headings).toEqual([{ level: 1, text: 'Title' }]);
    expect(doc.lists).toEqual([
      { ordered: false, items: ['Bedding', 'Radio'], parentItem: undefined },
      { ordered: false, items: ['Blankets', 'Mats'], parentItem: 'Bedding' },
      { ordered: true, items: ['First', 'Second'], parentItem: undefined },
    ]);
    expect(doc.links).toEqual([{ text: 'a link', url: 'https://example.org/x' }]);
    expect(doc.styled).toEqual([
      { style: 'bold', text: 'bold text' },
      { style: 'italic', text: 'an aside' },
      { style: 'code', text: 'code()' },
    ]);
    expect(doc.images).toEqual([{ alt: '', src: 'folio-image:page-1-image-1.png' }]);
  });

  it('gives plain text without Markdown syntax, with blocks on separate lines', () => {
    const doc = parseMarkdown('## Methods\n\nEach **volunteer** covers\none stretch.\n');
    expect(doc.text.replace(/\s+/g, ' ').trim()).toBe('Methods Each volunteer covers one stretch.');
  });
});
