import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { GroundingParser, pageGrounding } from '../../../shared/grounding.js';
import { createDetokeniser } from './detokeniser.js';
import { loadTokenizer } from './prompt.js';

const tokenizer = loadTokenizer(readFileSync(path.resolve(import.meta.dirname, '../../../tools/model/fixtures/tiny/tokenizer.json'), 'utf8'));

const GROUNDED = [
  '<|ref|>title<|/ref|><|det|>[[205, 132, 790, 157]]<|/det|>\n# Größe und Maß  \n\n',
  '<|ref|>table<|/ref|><|det|>[[115, 306, 882, 565]]<|/det|>\n<table><tr><td>ä</td><td>€ 5</td></tr></table>\n\n',
  '<|ref|>image<|/ref|><|det|>[[130, 583, 866, 813]]<|/det|>\n<|ref|>image_caption<|/ref|><|det|>[[115, 828, 881, 892]]<|/det|>\n<center>Figure 1</center>',
].join('');

function clean(deltas: readonly string[]): string {
  const parser = new GroundingParser(pageGrounding(2, false));
  return deltas.map((delta) => parser.push(delta)).join('') + parser.finish();
}

describe('a grounded answer decoded token by token', () => {
  it('comes out as the same clean Markdown as the whole text, tags and multibyte characters split however the tokens fall', () => {
    const ids: number[] = tokenizer.encode(GROUNDED, { add_special_tokens: false }).ids;
    const detokeniser = createDetokeniser(tokenizer, [0, 1, 2]);
    const deltas = [...ids.map((id) => detokeniser.push(id)), detokeniser.flush()];
    expect(deltas.join('')).toBe(GROUNDED);
    const markdown = clean(deltas);
    expect(markdown).toBe(clean([GROUNDED]));
    expect(markdown).toBe('# Größe und Maß  \n\n<table><tr><td>ä</td><td>€ 5</td></tr></table>\n\n![](folio-image:page-2-image-1.png)\n\n<center>Figure 1</center>');
  });
});
