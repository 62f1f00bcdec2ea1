import { describe, expect, it } from 'vitest';
import type { PageStats } from './page.js';
import { markdownTrouble, pageTrouble } from './page-trouble.js';

const kinds = (markdown: string) => markdownTrouble(markdown).map((trouble) => trouble.kind);
const stats: PageStats = { engine: 'remote', device: 'remote', timeMs: 4100, chars: 300 };

describe('markdownTrouble: tables', () => {
  it('finds an HTML table whose rows fill different numbers of columns, spans counted', () => {
    // a model's table that lost a cell in its second body row
    const broken = '<table><tr><th>Year</th><th>Sales</th><th>Profit</th></tr><tr><td>2023</td><td>410</td><td>38</td></tr><tr><td>2024</td><td>455</td></tr></table>';
    expect(markdownTrouble(broken)).toEqual([{ kind: 'table-shape', reason: 'table rows have 2 and 3 cells, so its columns do not line up' }]);
  });

  it('counts colspans and rowspans from rows above, so a well-spanned table is whole', () => {
    const spanned =
      '<table><thead><tr><th rowspan="2">Region</th><th colspan="2">Sales</th></tr><tr><th>2023</th><th>2024</th></tr></thead>' +
      '<tbody><tr><td>North</td><td>1</td><td>2</td></tr><tr><td colspan="3">Total 3</td></tr></tbody></table>';
    expect(kinds(spanned)).toEqual([]);
  });

  it('finds a pipe table with a row of extra cells, and pipe rows with no header line', () => {
    expect(kinds('| a | b |\n|---|---|\n| 1 | 2 | 3 |\n| 4 | 5 |')).toEqual(['table-shape']);
    expect(markdownTrouble('| Name | Age |\n| Ann | 31 |\n| Bo | 42 |')).toEqual([
      { kind: 'table-header', reason: 'table rows have no header row (no |---| line), so they show as plain text' },
    ]);
    expect(kinds('| Name | Age |\n|---|---|\n| Ann | 31 |')).toEqual([]);
  });
});

describe('markdownTrouble: math', () => {
  it('finds formulas left as loose glyphs and quotes them', () => {
    expect(markdownTrouble('The energy is *λg* = ∑ *ζn* over all modes.')).toEqual([
      { kind: 'loose-math', reason: 'math is written as loose symbols, not as a formula: “*λg* = ∑ *ζn*”' },
    ]);
    expect(kinds('Euler wrote eiπ + 1 = 0 in a letter.')).toEqual(['loose-math']);
  });

  it('leaves prose with a number, an italic word or a single variable alone, and math in dollars', () => {
    expect(kinds('The test gave *p* < 0.05, *n* = 30 in all.')).toEqual([]);
    expect(kinds('*If* 1 + 1 = 2 then the rest follows.')).toEqual([]);
    expect(kinds('Set α = 0.05 as before; the α-helix is stable.')).toEqual([]);
    expect(kinds('The energy is $\\lambda_g = \\sum \\zeta_n$ over all modes.')).toEqual([]);
    expect(kinds('Use `x = y + z` in the code.')).toEqual([]);
  });

  it('finds a formula KaTeX cannot typeset, with its reason', () => {
    const [trouble] = markdownTrouble('Then $$\\frac{a}{b$$ holds, and $x^2$ too.');
    expect(trouble?.kind).toBe('math-error');
    expect(trouble?.reason).toMatch(/^KaTeX cannot typeset the formula “\\frac\{a\}\{b” \(.+\)$/);
    expect(kinds('Then $\\begin{matrix} a & b \\end{matrix}$ and $\\undefinedcommand{x}$.')).toEqual(['math-error']);
    expect(kinds('Then $\\frac{a}{b}$ and $$\\sum_{i=1}^n i$$ hold.')).toEqual([]);
  });
});

describe('markdownTrouble: repetition', () => {
  it('finds a line repeated in a row or all over the page, as a looping model writes it', () => {
    const loop = ['Intro.', ...Array<string>(6).fill('The results are shown in Table 2.'), 'End.'].join('\n\n');
    expect(markdownTrouble(loop)).toEqual([{ kind: 'repeated-lines', reason: 'the line “The results are shown in Table 2.” appears 6 times in a row, as when a model loops' }]);
    const cycle = Array.from({ length: 10 }, () => 'The results are shown in Table 2.\n\nSee also the appendix.').join('\n\n');
    expect(kinds(cycle)).toEqual(['repeated-lines']);
  });

  it('leaves repeated table rows, code and display math alone, and a few repeats', () => {
    expect(kinds(['```', ...Array<string>(8).fill('echo "hello world"'), '```'].join('\n'))).toEqual([]);
    expect(kinds(['$$', ...Array<string>(8).fill('\\frac{d}{dx} f(x) + g(x)'), '$$'].join('\n'))).toEqual([]);
    expect(kinds(Array<string>(4).fill('Nulla malesuada porttitor diam.').join('\n\n'))).toEqual([]);
  });
});

describe('pageTrouble', () => {
  it('puts the engine flags first, in their words, then the Markdown’s', () => {
    const troubles = pageTrouble('| Name | Age |\n| Ann | 31 |\n| Bo | 42 |', { ...stats, flags: ['truncated'] });
    expect(troubles.map((trouble) => trouble.kind)).toEqual(['truncated', 'table-header']);
    expect(troubles[0]?.reason).toBe('the answer reached its length limit and was cut there; check its end');
  });

  it('does not say twice that a model repeated itself', () => {
    const loop = Array<string>(6).fill('The results are shown in Table 2.').join('\n\n');
    expect(pageTrouble(loop, { ...stats, flags: ['repetition'] }).map((trouble) => trouble.kind)).toEqual(['repetition']);
  });

  it('says nothing of a clean page', () => {
    expect(pageTrouble('# Results\n\nSales rose by 4% in 2024.', stats)).toEqual([]);
    expect(pageTrouble('', undefined)).toEqual([]);
  });
});
