import { describe, expect, it } from 'vitest';
import { BenchTestError, parseBenchTest, runBenchTest, trailingRepeats } from './bench-test.js';

const base = { pdf: 'doc.pdf', page: 1 };
let counter = 0;
function run(fields: Record<string, unknown>, content: string): boolean {
  return runBenchTest(parseBenchTest({ ...base, id: `t${counter++}`, ...fields }, 'test.jsonl:1'), content).passed;
}

describe('present and absent', () => {
  it('present passes on the text under Markdown emphasis and fails when it is missing', () => {
    expect(run({ type: 'present', text: 'Net revenue rose' }, 'Our **Net revenue** rose by 4%.')).toBe(true);
    expect(run({ type: 'present', text: 'Net revenue rose' }, 'Our income fell.')).toBe(false);
  });

  it('is case-sensitive unless told otherwise', () => {
    expect(run({ type: 'present', text: 'NET REVENUE' }, 'net revenue')).toBe(false);
    expect(run({ type: 'present', text: 'NET REVENUE', case_sensitive: false }, 'net revenue')).toBe(true);
  });

  it('max_diffs allows that many edits', () => {
    expect(run({ type: 'present', text: 'Ján Novák' }, 'J´an Novák')).toBe(false);
    expect(run({ type: 'present', text: 'Ján Novák', max_diffs: 2 }, 'J´an Novák')).toBe(true);
  });

  it('first_n and last_n look only at the start or the end', () => {
    const content = `Title line\n\n${'body '.repeat(100)}\n\nclosing words`;
    expect(run({ type: 'present', text: 'Title line', first_n: 20 }, content)).toBe(true);
    expect(run({ type: 'present', text: 'closing words', first_n: 20 }, content)).toBe(false);
    expect(run({ type: 'present', text: 'closing words', last_n: 20 }, content)).toBe(true);
    expect(run({ type: 'present', text: 'Title line', last_n: 20 }, content)).toBe(false);
  });

  it('an output shorter than the text fails present and passes absent', () => {
    // partial ratio alone would find the lone space of the output inside the text
    expect(run({ type: 'present', text: 'a long phrase' }, '\n')).toBe(false);
    expect(run({ type: 'absent', text: 'a long phrase' }, '\n')).toBe(true);
    expect(run({ type: 'present', text: 'abcd', max_diffs: 1 }, 'abc')).toBe(true);
  });

  it('measures and slices by code point, as Python does', () => {
    // 𝑥 is two UTF-16 units: first_n 3 must keep "𝑥yz", and max_diffs 1 of a 4-character text allows one edit
    expect(run({ type: 'present', text: '𝑥yz', first_n: 3 }, '𝑥yz and more')).toBe(true);
    expect(run({ type: 'present', text: '𝑥𝑦𝑧w', max_diffs: 1 }, 'q 𝑥𝑦𝑧 q')).toBe(true);
  });

  it('absent fails when the text (or a near copy within max_diffs) is there', () => {
    expect(run({ type: 'absent', text: 'Downloaded from example.org' }, 'Body text only.')).toBe(true);
    expect(run({ type: 'absent', text: 'Downloaded from example.org' }, 'Body.\n\nDownloaded from example.org on 3 May')).toBe(false);
    expect(run({ type: 'absent', text: 'Page 3 of 9', max_diffs: 1 }, 'Body. Page 3 0f 9')).toBe(false);
  });
});

describe('order', () => {
  it('passes when before comes first and fails when it comes after', () => {
    expect(run({ type: 'order', before: 'first column ends', after: 'second column starts' }, 'the first column ends here. the second column starts')).toBe(true);
    expect(run({ type: 'order', before: 'first column ends', after: 'second column starts' }, 'the second column starts. first column ends')).toBe(false);
    expect(run({ type: 'order', before: 'absent words', after: 'second' }, 'second')).toBe(false);
  });

  it('rejects max_diffs over half the text', () => {
    expect(() => parseBenchTest({ ...base, id: 'x', type: 'order', before: 'abcd', after: 'efghij', max_diffs: 3 }, 'f:1')).toThrow(BenchTestError);
  });
});

const HTML_TABLE = `<table><thead><tr><th></th><th>2024</th><th>2023</th></tr></thead>
<tbody><tr><td>Revenue</td><td>1,204</td><td>1,150</td></tr><tr><td>Net income</td><td>98</td><td>87</td></tr></tbody></table>`;
const MD_TABLE = `| Item | 2024 | 2023 |\n|---|---|---|\n| Revenue | 1,204 | 1,150 |\n| Net income | 98 | 87 |`;

describe('table', () => {
  for (const [format, content] of [['HTML', HTML_TABLE], ['Markdown', MD_TABLE]] as const) {
    it(`checks neighbours and headings in ${format} tables`, () => {
      expect(run({ type: 'table', cell: '98', up: '1,204', down: '', left: 'Net income', right: '87' }, content)).toBe(true);
      expect(run({ type: 'table', cell: '98', top_heading: '2024' }, content)).toBe(true);
      expect(run({ type: 'table', cell: '98', right: '1,150' }, content)).toBe(false);
      expect(run({ type: 'table', cell: '98', top_heading: '2023' }, content)).toBe(false);
      expect(run({ type: 'table', cell: '4,321' }, content)).toBe(false);
    });
  }

  it('counts as headings the first row and column of a Markdown table, and <th> and <thead> cells of an HTML one', () => {
    expect(run({ type: 'table', cell: '98', left_heading: 'Net income' }, MD_TABLE)).toBe(true);
    expect(run({ type: 'table', cell: '98', top_heading: '2024' }, HTML_TABLE)).toBe(true);
    // a heading is looked for past other cells: 1,204 is not the heading of 98, 2024 is
    expect(run({ type: 'table', cell: '98', top_heading: '1,204' }, HTML_TABLE)).toBe(false);
  });

  it('takes, where the walk meets no heading, the cells it ends at, as olmOCR does', () => {
    // no <th> in the first column: the walk leftwards from 98 ends at "Net income"
    expect(run({ type: 'table', cell: '98', left_heading: 'Net income' }, HTML_TABLE)).toBe(true);
    const plain = '<table><tr><td>Item</td><td>2024</td></tr><tr><td>Quay</td><td>120</td></tr></table>';
    expect(run({ type: 'table', cell: '120', top_heading: '2024' }, plain)).toBe(true);
    expect(run({ type: 'table', cell: 'Item', top_heading: 'anything' }, plain)).toBe(false);
  });

  it('walks through spans: a heading over two columns heads both', () => {
    const spanned = '<table><thead><tr><th colspan="2">Cost</th></tr><tr><th>2026</th><th>2027</th></tr></thead><tr><td>120</td><td>135</td></tr></table>';
    expect(run({ type: 'table', cell: '135', top_heading: 'Cost' }, spanned)).toBe(true);
    expect(run({ type: 'table', cell: '135', top_heading: '2027' }, spanned)).toBe(true);
    expect(run({ type: 'table', cell: '135', top_heading: '2026' }, spanned)).toBe(false);
  });

  it('fails a neighbour asked for beyond the edge of the table', () => {
    expect(run({ type: 'table', cell: '87', right: 'anything' }, MD_TABLE)).toBe(false);
    expect(run({ type: 'table', cell: 'Revenue', up: 'Item' }, MD_TABLE)).toBe(true);
  });

  it('fails when there is no table, and when the numbers are prose', () => {
    expect(run({ type: 'table', cell: '98', left: 'Net income' }, 'Net income 98 87')).toBe(false);
  });

  it('treats a spanned cell as one cell that neighbours every cell along its span', () => {
    const spanned = '<table><tr><th>Region</th><th>Q</th><th>Sales</th></tr><tr><td rowspan="2">North</td><td>Q1</td><td>10</td></tr><tr><td>Q2</td><td>12</td></tr></table>';
    expect(run({ type: 'table', cell: 'Q2', left: 'North', top_heading: 'Q' }, spanned)).toBe(true);
    expect(run({ type: 'table', cell: '12', top_heading: 'Sales', up: '10' }, spanned)).toBe(true);
    expect(run({ type: 'table', cell: 'North', right: 'Q2', up: 'Region' }, spanned)).toBe(true);
    // the span's text is not copied down: the slot below "North" in row 2 is the same cell
    expect(run({ type: 'table', cell: 'Q2', up: 'North' }, spanned)).toBe(false);
    const wide = '<table><thead><tr><th colspan="2">Both years</th></tr><tr><th>2024</th><th>2023</th></tr></thead><tr><td>5</td><td>7</td></tr></table>';
    expect(run({ type: 'table', cell: '7', top_heading: 'Both years' }, wide)).toBe(true);
    expect(run({ type: 'table', cell: 'Both years', down: '2023' }, wide)).toBe(true);
  });

  it('reads cell text as olmOCR does: text nodes joined as they are, <br> a line break', () => {
    expect(run({ type: 'table', cell: 'x2', right: 'y' }, '<table><tr><td>x<sup>2</sup></td><td>y</td></tr></table>')).toBe(true);
    expect(run({ type: 'table', cell: 'one two', right: 'y' }, '<table><tr><td>one<br>two</td><td>y</td></tr></table>')).toBe(true);
  });

  it('reads HTML as a parser does: references decoded, cells closed by the next, an unclosed table closed at the end', () => {
    const loose = 'Costs:\n<table><tr><th>R&amp;D<th>Q&#x2011;1\n<tr><td>&lt;5<td>7 &euro;';
    expect(run({ type: 'table', cell: '<5', right: '7 €', top_heading: 'R&D' }, loose)).toBe(true);
    expect(run({ type: 'table', cell: '7 €', top_heading: 'Q\u20111' }, loose)).toBe(true);
  });

  it('reads no row the source does not write, as olmOCR reads none for cells outside any <tr>', () => {
    expect(run({ type: 'table', cell: 'a', right: 'b' }, '<table><td>a</td><td>b</td></table>')).toBe(false);
    expect(run({ type: 'table', cell: 'a', right: 'b' }, '<table><tr><td>a</td><td>b</td></tr></table>')).toBe(true);
  });

  it('runs a rowspan of 0 to the last row', () => {
    const table = '<table><tr><th>Site</th><th>Year</th></tr><tr><td rowspan="0">Quay</td><td>2024</td></tr><tr><td>2025</td></tr></table>';
    expect(run({ type: 'table', cell: '2025', left: 'Quay' }, table)).toBe(true);
  });

  it('ignore_markdown_tables looks at HTML tables only', () => {
    expect(run({ type: 'table', cell: '98', left: 'Net income', ignore_markdown_tables: true }, MD_TABLE)).toBe(false);
  });
});

describe('math', () => {
  it('passes on the same LaTeX between any delimiters', () => {
    expect(run({ type: 'math', math: 'E = mc^2' }, 'so $$E = mc^2$$ holds')).toBe(true);
    expect(run({ type: 'math', math: 'E = mc^2' }, 'so \\(E = mc^2\\) holds')).toBe(true);
  });

  it('passes on LaTeX written differently that renders the same, and inside a longer formula', () => {
    expect(run({ type: 'math', math: '\\frac{1}{2} x^{2}' }, 'area $\\frac12x^2$')).toBe(true);
    expect(run({ type: 'math', math: 'a^{2}+b^{2}' }, '$$c^2 = a^2 + b^2 \\, .$$')).toBe(true);
  });

  it('reads \\(...\\) and \\[...\\] before dollars, and only those with ignore_dollar_delimited', () => {
    // dollars first would take "$ and \\(x^{2}\\) $" as one formula
    expect(run({ type: 'math', math: 'x^{2}' }, 'costs $5 and \\(x^{2}\\) $6')).toBe(true);
    expect(run({ type: 'math', math: 'x^{2}', ignore_dollar_delimited: true }, 'so $x^{2}$')).toBe(false);
    expect(run({ type: 'math', math: 'x^{2}', ignore_dollar_delimited: true }, 'so \\[x^{2}\\]')).toBe(true);
  });

  it('keeps structure: a regrouped fraction is another formula', () => {
    expect(run({ type: 'math', math: '\\frac{a+b}{c}' }, '$$\\frac{a}{+bc}$$')).toBe(false);
    expect(run({ type: 'math', math: '\\frac{ab}{c}' }, '$$\\frac{a}{bc}$$')).toBe(false);
    expect(run({ type: 'math', math: '\\frac{a}{bc}' }, '$$\\frac{ab}{c}$$')).toBe(false);
    expect(run({ type: 'math', math: 'x^{a+b}' }, '$x^{a}+b$')).toBe(false);
    // the same structure written otherwise still passes
    expect(run({ type: 'math', math: '\\frac{a+b}{c}' }, '$$\\dfrac{a + b}{ c }$$')).toBe(true);
    expect(run({ type: 'math', math: '\\frac{a+b}{c}' }, '$$y = \\frac{a+b}{c} + 1$$')).toBe(true);
    expect(run({ type: 'math', math: '\\sum_{i=1}^{n} x_i' }, '$$\\sum\\limits_{i=1}^n x_{i}$$')).toBe(true);
  });

  it('fails on a different formula, on Unicode text without delimiters, and on an unrenderable reference', () => {
    expect(run({ type: 'math', math: '\\frac{1}{2} x^{2}' }, '$\\frac{1}{3} x^2$')).toBe(false);
    expect(run({ type: 'math', math: 'E = mc^2' }, 'E = mc²')).toBe(false);
    expect(() => parseBenchTest({ ...base, id: 'm', type: 'math', math: '\\frac{1' }, 'f:1')).toThrow(/does not render/);
  });

  it("is as blind as olmOCR's: a lone script is no neighbour of its base, and a radical sign is no symbol", () => {
    // olmOCR's rendered spans: the 2 sits 8 px above or below the x's row (5 px counts), and the
    // radical is an SVG, not a span with text
    expect(run({ type: 'math', math: 'x^{2}' }, '$x_2$')).toBe(true);
    expect(run({ type: 'math', math: '\\sqrt{a}+b' }, '$\\sqrt{a+b}$')).toBe(true);
    // but a script run keeps its own row
    expect(run({ type: 'math', math: 'x^{ab}' }, '$x^{a}b$')).toBe(false);
  });
});

describe('baseline', () => {
  it('passes on ordinary text and fails on an empty page', () => {
    expect(run({ type: 'baseline' }, 'Some text.')).toBe(true);
    expect(run({ type: 'baseline' }, '  \n--- |  |\n')).toBe(false);
  });

  it('fails on runaway repetition at the end', () => {
    expect(trailingRepeats('ab abababab')).toEqual([1, 4, 1, 2, 1]);
    // whitespace runs count as one space, as olmOCR's RepeatDetector collapses them
    expect(trailingRepeats('x a \n a  \t a ')).toEqual([1, 3, 1, 1, 1]);
    expect(run({ type: 'baseline' }, `Intro ${'la '.repeat(40)}`)).toBe(false);
    expect(run({ type: 'baseline', max_repeats: 50 }, `Intro ${'la '.repeat(40)}`)).toBe(true);
  });

  it('fails on CJK or emoji unless told not to check', () => {
    expect(run({ type: 'baseline' }, 'Text 文字')).toBe(false);
    expect(run({ type: 'baseline', check_disallowed_characters: false }, 'Text 文字')).toBe(true);
  });

  it('max_length makes it a blank-page check', () => {
    expect(run({ type: 'baseline', max_length: 10 }, '')).toBe(true);
    expect(run({ type: 'baseline', max_length: 10 }, 'Scanned by Office Lens 2024')).toBe(false);
    expect(run({ type: 'baseline', max_length: 0, max_length_skips_image_alt_tags: true }, '![a long picture description](x.png)')).toBe(true);
  });
});

describe('format', () => {
  it('passes on text written as a heading, in bold or in italics, in Markdown or HTML', () => {
    expect(run({ type: 'format', format: 'heading', text: 'Annual Report' }, 'intro\n## Annual **Report**\nbody')).toBe(true);
    expect(run({ type: 'format', format: 'heading', text: 'Annual Report' }, '<H2 class="t">Annual Report</H2>')).toBe(true);
    expect(run({ type: 'format', format: 'bold', text: 'net loss' }, 'a <strong>net loss</strong> of 4')).toBe(true);
    expect(run({ type: 'format', format: 'italic', text: 'sic' }, 'he wrote *sic* there')).toBe(true);
  });

  it('fails on the same text unformatted or in another format, and reads case as told', () => {
    expect(run({ type: 'format', format: 'heading', text: 'Annual Report' }, 'Annual Report')).toBe(false);
    expect(run({ type: 'format', format: 'italic', text: 'net loss' }, 'a **net loss** of 4')).toBe(false);
    expect(run({ type: 'format', format: 'bold', text: 'NET LOSS' }, '**net loss**')).toBe(false);
    expect(run({ type: 'format', format: 'bold', text: 'NET LOSS', case_sensitive: false }, '**net loss**')).toBe(true);
    expect(() => parseBenchTest({ ...base, id: 'f', type: 'format', format: 'underline', text: 'x' }, 'f:1')).toThrow(/"format" must be one of/);
  });
});

describe('footnote', () => {
  it('finds the marker as [^n], <sup>n</sup> or a superscript digit, not as a definition', () => {
    expect(run({ type: 'footnote', marker: '12' }, 'as shown[^12].')).toBe(true);
    expect(run({ type: 'footnote', marker: '12' }, 'as shown<sup>12</sup>.')).toBe(true);
    expect(run({ type: 'footnote', marker: '12' }, 'as shown¹².')).toBe(true);
    expect(run({ type: 'footnote', marker: '12' }, '[^12]: the note')).toBe(false);
    expect(run({ type: 'footnote', marker: '12' }, 'as shown 12.')).toBe(false);
  });

  it('checks the text just before and after the marker, ignoring case, spaces and punctuation', () => {
    const content = 'Growth was strong in the north<sup>3</sup> and weak elsewhere.\n\n<sup>3</sup> Source: regional office survey.';
    expect(run({ type: 'footnote', marker: '3', appears_before_marker: 'strong in the North' }, content)).toBe(true);
    expect(run({ type: 'footnote', marker: '3', appears_after_marker: 'Source: regional office' }, content)).toBe(true);
    expect(run({ type: 'footnote', marker: '3', appears_after_marker: 'Source: national office' }, content)).toBe(false);
    expect(() => parseBenchTest({ ...base, id: 'n', type: 'footnote', marker: '1 2' }, 'f:1')).toThrow(/must not contain spaces/);
  });
});

describe('test lines', () => {
  it('say which line and field is wrong', () => {
    expect(() => parseBenchTest({ ...base, id: 'a', type: 'colour' }, 'x.jsonl:4')).toThrow('x.jsonl:4: unknown test type "colour"');
    expect(() => parseBenchTest({ ...base, id: 'a', type: 'present' }, 'x.jsonl:5')).toThrow('x.jsonl:5: "text" must be a non-empty string');
    expect(() => parseBenchTest({ pdf: 'd.pdf', page: 0, id: 'a', type: 'present', text: 'x' }, 'x.jsonl:6')).toThrow('"page" must be a whole number of at least 1');
  });
});
