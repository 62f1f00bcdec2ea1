import { describe, expect, it } from 'vitest';
import { GroundingParser, groundedBlocks, groundedImages, readBoxes, type GroundingOptions } from './grounding.js';

/** A page of a paper as DeepSeek-OCR writes it with `<|grounding|>Convert the document to markdown.` */
const PAPER_PAGE = [
  '<|ref|>title<|/ref|><|det|>[[62, 40, 512, 78]]<|/det|>\n# Attention Is All You Need\n\n',
  '<|ref|>text<|/ref|><|det|>[[62, 95, 937, 180]]<|/det|>\nThe dominant sequence transduction models are based on complex recurrent networks.\n\n',
  '<|ref|>sub_title<|/ref|><|det|>[[62, 200, 300, 220]]<|/det|>\n## 3.2 Attention\n\n',
  '<|ref|>equation<|/ref|><|det|>[[300, 230, 700, 260]]<|/det|>\n\\[\n\\mathrm{Attention}(Q, K, V) = \\mathrm{softmax}\\left(\\frac{QK^T}{\\sqrt{d_k}}\\right)V\n\\]\n\n',
  '<|ref|>image<|/ref|><|det|>[[150, 280, 850, 600]]<|/det|>\n\n\n',
  '<|ref|>image_caption<|/ref|><|det|>[[150, 610, 850, 630]]<|/det|>\n<center>Figure 1: The Transformer - model architecture.</center>\n\n',
  '<|ref|>table<|/ref|><|det|>[[100, 650, 900, 800]]<|/det|>\n<table><tr><td>Model</td><td>BLEU</td></tr><tr><td>Transformer (big)</td><td>28.4</td></tr></table>\n\n',
  '<|ref|>footer<|/ref|><|det|>[[480, 960, 520, 975]]<|/det|>\n3\n',
].join('');

const CLEAN_PAPER_PAGE = [
  '# Attention Is All You Need\n\n',
  'The dominant sequence transduction models are based on complex recurrent networks.\n\n',
  '## 3.2 Attention\n\n',
  '\\[\n\\mathrm{Attention}(Q, K, V) = \\mathrm{softmax}\\left(\\frac{QK^T}{\\sqrt{d_k}}\\right)V\n\\]\n\n',
  '![](folio-image:page-4-image-1.png)\n\n',
  '<center>Figure 1: The Transformer - model architecture.</center>\n\n',
  '<table><tr><td>Model</td><td>BLEU</td></tr><tr><td>Transformer (big)</td><td>28.4</td></tr></table>\n\n',
].join('');

/** jina-ocr-v1 writes no grounding, but its HTML and text have `<` of their own. */
const JINA_PAGE = '# Results\n\n<table><tr><td>a < b</td><td>x<y</td></tr></table>\n\nWhen n <| 3, see <ref> and <|note; the end is <';

const LETTER = { width: 612, height: 792 };
const options: GroundingOptions = { imageName: (index) => `page-4-image-${index}.png`, keepHeaders: false };

function parse(deltas: readonly string[], parserOptions: GroundingOptions = options): { parser: GroundingParser; out: string[] } {
  const parser = new GroundingParser(parserOptions);
  const out = deltas.map((delta) => parser.push(delta));
  out.push(parser.finish());
  return { parser, out };
}

/** Every place a tag can be cut: a prefix ending there, then the rest. */
function splitsEverywhere(text: string): string[][] {
  return Array.from({ length: text.length + 1 }, (_, at) => [text.slice(0, at), text.slice(at)]);
}

describe('grounded DeepSeek-OCR output', () => {
  it('becomes clean Markdown: tags gone, a figure linked, table cells and formulas kept, running footer left out', () => {
    const { parser, out } = parse([PAPER_PAGE]);
    expect(out.join('')).toBe(CLEAN_PAPER_PAGE);
    expect(parser.markdown).toBe(CLEAN_PAPER_PAGE);
  });

  it('gives one block per region, its kind from the label and its box in PDF points', () => {
    const { parser } = parse([PAPER_PAGE]);
    const blocks = groundedBlocks(parser.regions, LETTER);
    expect(blocks.map((block) => [block.kind, block.level])).toEqual([
      ['heading', 1],
      ['paragraph', undefined],
      ['heading', 2],
      ['formula', undefined],
      ['image', undefined],
      ['caption', undefined],
      ['table', undefined],
      ['footer', undefined],
    ]);
    const [x0, y0, x1, y1] = blocks[0]!.bbox;
    expect(x0).toBeCloseTo((62 / 999) * 612, 6);
    expect(y0).toBeCloseTo((40 / 999) * 792, 6);
    expect(x1).toBeCloseTo((512 / 999) * 612, 6);
    expect(y1).toBeCloseTo((78 / 999) * 792, 6);
    expect(blocks[6]!.markdown).toBe('<table><tr><td>Model</td><td>BLEU</td></tr><tr><td>Transformer (big)</td><td>28.4</td></tr></table>');
    expect(blocks[4]!.markdown).toBe('![](folio-image:page-4-image-1.png)');
    // left out of the Markdown, so the block has none
    expect(blocks[7]!.markdown).toBe('');
    for (const block of blocks) {
      if (block.markdown) expect(parser.markdown).toContain(block.markdown);
      expect(block.bbox[0]).toBeGreaterThanOrEqual(0);
      expect(block.bbox[2]).toBeLessThanOrEqual(LETTER.width);
      expect(block.bbox[3]).toBeLessThanOrEqual(LETTER.height);
    }
  });

  it('names the figure it links, with its box in points', () => {
    const { parser } = parse([PAPER_PAGE]);
    const [figure, ...others] = groundedImages(parser.regions, LETTER);
    expect(others).toEqual([]);
    expect(figure!.name).toBe('page-4-image-1.png');
    expect(figure!.bbox[0]).toBeCloseTo((150 / 999) * 612, 6);
    expect(figure!.bbox[3]).toBeCloseTo((600 / 999) * 792, 6);
  });

  it('keeps running headers and footers when headers are kept', () => {
    const { parser } = parse([PAPER_PAGE], { ...options, keepHeaders: true });
    expect(parser.markdown).toBe(`${CLEAN_PAPER_PAGE}3\n`);
    expect(groundedBlocks(parser.regions, LETTER).at(-1)).toMatchObject({ kind: 'footer', markdown: '3' });
  });

  it('comes out the same, never showing a piece of a tag, when the text is cut anywhere', () => {
    for (const split of splitsEverywhere(PAPER_PAGE)) {
      const { out } = parse(split);
      expect(out.join('')).toBe(CLEAN_PAPER_PAGE);
      for (const delta of out) expect(delta).not.toMatch(/<\||\|>|^\|?(ref|det)/);
    }
  });

  it('comes out the same when it streams a character at a time', () => {
    const { out } = parse([...PAPER_PAGE]);
    expect(out.join('')).toBe(CLEAN_PAPER_PAGE);
    expect(out.some((delta) => delta.includes('<'))).toBe(true);
    expect(out.every((delta) => !delta.includes('<|'))).toBe(true);
  });

  it('keeps every word of a page the token limit cut inside a tag, and drops the cut tag', () => {
    const cutInLabel = `${PAPER_PAGE.slice(0, PAPER_PAGE.indexOf('<|ref|>table'))}<|ref|>tab`;
    const { parser } = parse([cutInLabel]);
    expect(parser.markdown).toBe(CLEAN_PAPER_PAGE.slice(0, CLEAN_PAPER_PAGE.indexOf('<table>')));

    const cutInMarker = `${PAPER_PAGE.slice(0, PAPER_PAGE.indexOf('<|ref|>table'))}<|ref|>table<|/ref|><|de`;
    expect(parse([cutInMarker]).parser.markdown).toBe(CLEAN_PAPER_PAGE.slice(0, CLEAN_PAPER_PAGE.indexOf('<table>')));
  });

  it('keeps the whole boxes of coordinates the token limit cut', () => {
    const { parser } = parse(['<|ref|>text<|/ref|><|det|>[[10, 20, 500, 60], [10, 70, 50']);
    expect(parser.markdown).toBe('');
    expect(parser.regions).toEqual([{ label: 'text', boxes: [[10, 20, 500, 60]], markdown: '' }]);
  });

  it('keeps the content after coordinates whose closing tag never came', () => {
    const { parser } = parse(['<|ref|>text<|/ref|><|det|>[[10, 20, 500, 60]]\nFirst words of the page.\n\n<|ref|>text<|/ref|><|det|>[[10, 70, 500, 90]]<|/det|>\nNext.']);
    expect(parser.markdown).toBe('First words of the page.\n\nNext.');
    expect(parser.regions.map((region) => region.boxes)).toEqual([[[10, 20, 500, 60]], [[10, 70, 500, 90]]]);
  });

  it('keeps as text what followed a `<|ref|>` that was never closed', () => {
    const { parser } = parse(['Intro.\n\n<|ref|>this was never a label, the model wrote on\nand on.']);
    expect(parser.markdown).toBe('Intro.\n\nthis was never a label, the model wrote on\nand on.');
  });

  it('keeps the text of a region whose coordinates are unreadable, with no block for it', () => {
    const { parser } = parse(['<|ref|>text<|/ref|><|det|>[[ , ]]<|/det|>\nStill here.']);
    expect(parser.markdown).toBe('Still here.');
    expect(groundedBlocks(parser.regions, LETTER)).toEqual([]);
    expect(groundedImages(parser.regions, LETTER)).toEqual([]);
  });

  it('gives a region with several boxes the box around them all, clamped to the page', () => {
    const { parser } = parse(['<|ref|>text<|/ref|><|det|>[[100, 100, 200, 200], [150, 300, 1200, 400]]<|/det|>\nTwo columns.']);
    expect(groundedBlocks(parser.regions, { width: 999, height: 999 })[0]!.bbox).toEqual([100, 100, 999, 400]);
  });

  it('sets a figure apart from the caption the model writes straight after it, and reads the heading level from the Markdown', () => {
    const { parser } = parse([
      '<|ref|>image<|/ref|><|det|>[[130, 583, 866, 813]]<|/det|>\n<|ref|>image_caption<|/ref|><|det|>[[115, 828, 881, 892]]<|/det|>\n<center>Figure 1 | Compression on Fox.</center>  \n\n',
      '<|ref|>title<|/ref|><|det|>[[118, 688, 400, 704]]<|/det|>\n#### 3.2.1. Architecture of DeepEncoder  \n\n',
    ]);
    expect(parser.markdown).toBe('![](folio-image:page-4-image-1.png)\n\n<center>Figure 1 | Compression on Fox.</center>  \n\n#### 3.2.1. Architecture of DeepEncoder  \n\n');
    expect(groundedBlocks(parser.regions, LETTER).map((block) => [block.kind, block.level, block.markdown])).toEqual([
      ['image', undefined, '![](folio-image:page-4-image-1.png)'],
      ['caption', undefined, '<center>Figure 1 | Compression on Fox.</center>'],
      ['heading', 4, '#### 3.2.1. Architecture of DeepEncoder'],
    ]);
  });

  it('reads an unknown label as a paragraph', () => {
    const { parser } = parse(['<|ref|>table_footnote<|/ref|><|det|>[[1, 2, 3, 4]]<|/det|>\n* p < 0.05']);
    expect(groundedBlocks(parser.regions, LETTER)[0]).toMatchObject({ kind: 'paragraph', markdown: '* p < 0.05' });
  });
});

describe('output without grounding (jina-ocr-v1)', () => {
  it('passes through unchanged however it is cut, with no blocks', () => {
    for (const split of splitsEverywhere(JINA_PAGE)) {
      const { parser, out } = parse(split);
      expect(out.join('')).toBe(JINA_PAGE);
      expect(parser.regions).toEqual([]);
    }
    expect(parse([...JINA_PAGE]).out.join('')).toBe(JINA_PAGE);
  });
});

describe('readBoxes', () => {
  it('reads each whole group of four numbers', () => {
    expect(readBoxes('[[62, 40, 512, 78]]')).toEqual([[62, 40, 512, 78]]);
    expect(readBoxes('[[1,2,3,4],[5,6,7,8]]')).toEqual([
      [1, 2, 3, 4],
      [5, 6, 7, 8],
    ]);
    expect(readBoxes('[[1, 2, 3')).toEqual([]);
  });
});

describe('an endless box list', () => {
  it('is read a character at a time without keeping more than a region needs, and the text after it still comes', () => {
    const coordinates = '[10, 20, 500, 60], '.repeat(2000);
    const { parser } = parse(['<|ref|>text<|/ref|><|det|>[', ...coordinates, '\nWords after.']);
    expect(parser.markdown).toBe('Words after.');
    expect(parser.regions).toHaveLength(1);
    expect(parser.regions[0]!.boxes.length).toBeGreaterThan(0);
    expect(parser.regions[0]!.boxes.length).toBeLessThan(300);
  });
});
