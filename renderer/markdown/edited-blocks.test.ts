import { describe, expect, it } from 'vitest';
import { linkEditedBlocks, matchBlocks, splitBlocks } from './edited-blocks.js';

const ORIGINAL = [
  '# Quarterly report',
  'Revenue grew by twelve per cent over the quarter, driven by the new subscription plans.',
  '<table><tr><th>Region</th><th>Sales</th></tr><tr><td>North</td><td>18 400</td></tr></table>',
  '\\[ E = mc^2 \\]',
  '- first point\n- second point',
  'Page 3',
];

describe('linking an edited page back to its regions', () => {
  it('cuts Markdown into its top-level blocks, tables, formulas and lists whole', () => {
    expect(splitBlocks(ORIGINAL.join('\n\n'))).toEqual([
      '# Quarterly report',
      'Revenue grew by twelve per cent over the quarter, driven by the new subscription plans.',
      '<table><tr><th>Region</th><th>Sales</th></tr><tr><td>North</td><td>18 400</td></tr></table>',
      '$$\nE = mc^2\n$$',
      '- first point\n- second point',
      'Page 3',
    ]);
  });

  it('matches unchanged blocks exactly, corrected ones by resemblance, and new text to nothing', () => {
    const edited = [
      '# Quarterly Report',
      'Revenue grew by 12 % over the quarter, driven by the new subscription plans.',
      'A note added in review, which the page never said.',
      '<table><tr><th>Region</th><th>Sales</th></tr><tr><td>North</td><td>18 400</td></tr><tr><td>South</td><td>9 100</td></tr></table>',
      '$$\nE = mc^2\n$$',
      '- first point\n- second point\n- third point',
    ].join('\n\n');
    expect(linkEditedBlocks(ORIGINAL, edited).map((block) => block.block)).toEqual([0, 1, null, 2, 3, 4]);
  });

  it('links a paragraph split in two to its one region, and a repeated line to the nearest of its regions', () => {
    expect(matchBlocks(['the first half of a long paragraph and the second half of it'], ['the first half of a long paragraph', 'and the second half of it'])).toEqual([0, 0]);
    expect(matchBlocks(['same', 'other text here', 'same'], ['same', 'other text here', 'same'])).toEqual([0, 1, 2]);
  });
});
