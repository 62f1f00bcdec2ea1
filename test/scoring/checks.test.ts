import { describe, expect, it } from 'vitest';
import { runCheck, type Check } from './checks.js';
import { parseMarkdown } from './markdown-document.js';

const output = parseMarkdown(`# Harbour Works

Winter storms removed armour stone from the  seaward face.
The stone will be replaced.

## Costs

<table>
<tr><th rowspan="2">Item</th><th colspan="2">Cost</th></tr>
<tr><th>2026</th><th>2027</th></tr>
<tr><td>Breakwater</td><td>120</td><td>135</td></tr>
<tr><td>Quay</td><td colspan="2">Not funded</td></tr>
</table>

| Vessel | Berth |
| --- | --- |
| Morven | 3 |

- Lamp oil
  1. Check the wick
  2. Fill to the line
- Matches

See the [errata page](https://example.org/errata), **do not** edit *by hand*, call \`flush()\`.

![](folio-image:page-1-image-1.png)
`);

function passes(check: Check): boolean {
  return runCheck(check, output).passed;
}

function detail(check: Check): string | undefined {
  return runCheck(check, output).detail;
}

describe('text checks', () => {
  it('finds text across line breaks and Markdown syntax, with whitespace normalised', () => {
    expect(passes({ kind: 'present', text: 'from the seaward face. The stone will be replaced.' })).toBe(true);
    expect(passes({ kind: 'present', text: 'do not edit by hand' })).toBe(true);
    expect(passes({ kind: 'present', text: 'the stone will be REPLACED' })).toBe(true);
    expect(passes({ kind: 'present', text: 'the stone will be REPLACED', caseSensitive: true })).toBe(false);
  });

  it('fails a missing text and, fuzzily, accepts only small differences', () => {
    expect(detail({ kind: 'present', text: 'armour stone from the landward face' })).toBe('not found');
    expect(passes({ kind: 'present', text: 'armour stone from the landward face', maxDistance: 0.1 })).toBe(false);
    expect(passes({ kind: 'present', text: 'armour stones from the seaward face', maxDistance: 0.1 })).toBe(true);
  });

  it('sees ligature glyphs and indentation only when told to be exact', () => {
    const ligatures = parseMarkdown('The ﬁrst ﬂight.');
    expect(runCheck({ kind: 'present', text: 'The first flight.' }, ligatures).passed).toBe(true);
    expect(runCheck({ kind: 'present', text: 'The first flight.', exact: true }, ligatures).passed).toBe(false);
    expect(runCheck({ kind: 'absent', text: '\ufb01', inMarkdown: true, exact: true }, ligatures).passed).toBe(false);
    const code = parseMarkdown('```\nif ok:\n    go()\n```');
    expect(runCheck({ kind: 'present', text: '\n    go()', inMarkdown: true, exact: true }, code).passed).toBe(true);
    expect(runCheck({ kind: 'present', text: '\ngo()', inMarkdown: true, exact: true }, code).passed).toBe(false);
  });

  it('checks the raw Markdown when asked, for syntax such as image links', () => {
    expect(passes({ kind: 'present', text: '![](folio-image:page-1-image-1.png)', inMarkdown: true })).toBe(true);
    expect(passes({ kind: 'present', text: '![](folio-image:page-1-image-1.png)' })).toBe(false);
  });

  it('fails absent text that is there, such as a running header', () => {
    expect(passes({ kind: 'absent', text: 'Page 1 of 4' })).toBe(true);
    expect(detail({ kind: 'absent', text: 'armour stone' })).toBe('found');
  });

  it('checks reading order and says which text is missing or misplaced', () => {
    expect(passes({ kind: 'order', before: 'Winter storms', after: 'The stone will be replaced' })).toBe(true);
    expect(detail({ kind: 'order', before: 'The stone will be replaced', after: 'Winter storms' })).toBe('"Winter storms" comes before "The stone will be replaced"');
    expect(detail({ kind: 'order', before: 'Winter storms', after: 'Summer calm' })).toBe('"Summer calm" not found');
  });
});

describe('heading checks', () => {
  it('passes a heading at its level and explains the other cases', () => {
    expect(passes({ kind: 'heading', text: 'Harbour Works', level: 1 })).toBe(true);
    expect(passes({ kind: 'heading', text: 'Costs' })).toBe(true);
    expect(passes({ kind: 'heading', text: 'Winter storms removed armour stone from the seaward face.' })).toBe(false);
    expect(detail({ kind: 'heading', text: 'Costs', level: 1 })).toBe('a heading of level 2');
    expect(detail({ kind: 'heading', text: 'Winter storms removed armour stone from the seaward face.', level: 2 })).toBe('present, but not as a heading');
    expect(detail({ kind: 'heading', text: 'Budget', level: 2 })).toBe('not found');
  });

  it('fails body text made into a heading', () => {
    expect(passes({ kind: 'not-heading', text: 'Winter storms' })).toBe(true);
    expect(detail({ kind: 'not-heading', text: 'Costs' })).toBe('made a level 2 heading: "Costs"');
  });
});

describe('table checks', () => {
  it('finds a cell with its neighbours in HTML tables, through row and column spans', () => {
    expect(passes({ kind: 'table-cell', cell: '120', left: 'Breakwater', up: '2026', right: '135' })).toBe(true);
    expect(passes({ kind: 'table-cell', cell: 'Cost', down: '2027', left: 'Item' })).toBe(true);
    expect(passes({ kind: 'table-cell', cell: '2026', left: 'Item' })).toBe(true);
    expect(passes({ kind: 'table-cell', cell: 'Not funded', left: 'Quay', up: '135' })).toBe(true);
  });

  it('finds cells in GFM tables, and names the neighbour found instead of the one expected', () => {
    expect(passes({ kind: 'table-cell', cell: 'Morven', up: 'Vessel', right: '3' })).toBe(true);
    expect(detail({ kind: 'table-cell', cell: 'Morven', right: '4' })).toBe('neighbours differ (right: "3")');
    expect(detail({ kind: 'table-cell', cell: 'Holm' })).toBe('no such cell in 2 table(s)');
  });

  it('counts tables and their formats', () => {
    expect(passes({ kind: 'tables', count: 2 })).toBe(true);
    expect(detail({ kind: 'tables', count: 0 })).toBe('found 2 table(s)');
    expect(detail({ kind: 'tables', count: 2, format: 'gfm' })).toBe('formats: html, gfm');
  });
});

describe('list, link, style and image checks', () => {
  it('finds list items in order, of the right kind, nested under their parent', () => {
    expect(passes({ kind: 'list', ordered: false, items: ['Lamp oil', 'Matches'] })).toBe(true);
    expect(passes({ kind: 'list', ordered: true, items: ['Check the wick', 'Fill to the line'], nestedUnder: 'Lamp oil' })).toBe(true);
    expect(passes({ kind: 'list', items: ['Matches', 'Lamp oil'] })).toBe(false);
    expect(passes({ kind: 'list', ordered: true, items: ['Lamp oil', 'Matches'] })).toBe(false);
    expect(passes({ kind: 'list', items: ['Check the wick'], nestedUnder: 'Matches' })).toBe(false);
  });

  it('checks link targets, inline styles and the image count', () => {
    expect(passes({ kind: 'link', text: 'errata page', url: 'https://example.org/errata' })).toBe(true);
    expect(detail({ kind: 'link', text: 'errata page', url: 'https://example.org/other' })).toBe('links to https://example.org/errata');
    expect(passes({ kind: 'style', text: 'do not', style: 'bold' })).toBe(true);
    expect(passes({ kind: 'style', text: 'by hand', style: 'italic' })).toBe(true);
    expect(passes({ kind: 'style', text: 'flush()', style: 'code' })).toBe(true);
    expect(passes({ kind: 'style', text: 'by hand', style: 'bold' })).toBe(false);
    expect(passes({ kind: 'images', count: 1 })).toBe(true);
    expect(passes({ kind: 'images', count: 2 })).toBe(false);
  });
});
