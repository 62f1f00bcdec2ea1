import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createDetokeniser } from './detokeniser.js';
import { loadTokenizer } from './prompt.js';

const tokenizer = loadTokenizer(readFileSync(path.resolve(import.meta.dirname, '../../../tools/model/fixtures/tiny/tokenizer.json'), 'utf8'));
const ids = (text: string): number[] => tokenizer.encode(text, { add_special_tokens: false }).ids;

function stream(tokens: readonly number[]): string[] {
  const detokeniser = createDetokeniser(tokenizer, [0, 1, 2]);
  return [...tokens.map((id) => detokeniser.push(id)), detokeniser.flush()];
}

describe('incremental detokeniser', () => {
  it('holds back a character split across tokens until its last byte arrives', () => {
    const text = 'é€😀 and ü';
    const tokens = ids(text);
    expect(tokens.length).toBeGreaterThan([...text].length);
    const deltas = stream(tokens);
    expect(deltas.some((delta) => delta.includes('\uFFFD'))).toBe(false);
    expect(deltas.join('')).toBe(text);
    expect(deltas).toContain('');
  });

  it('emits table tokens whole and in place', () => {
    const text = '<tr><td>a</td><td>é</td></tr>';
    const deltas = stream(ids(text));
    expect(deltas.join('')).toBe(text);
    expect(deltas).toContain('<td>');
  });

  it('leaves out BOS and EOS', () => {
    expect(stream([0, ...ids('ok'), 1]).join('')).toBe('ok');
  });

  it('marks a character cut short by the end of the page', () => {
    const euro = ids('€');
    expect(stream(euro.slice(0, -1)).join('')).toBe('\uFFFD');
  });

  it('skips an id the tokenizer lacks and reports it, keeping the text around it', () => {
    const unknown: number[] = [];
    const detokeniser = createDetokeniser(tokenizer, [0, 1, 2], (id) => unknown.push(id));
    const text = [...ids('ab'), 100_000, ...ids('cd')].map((id) => detokeniser.push(id)).join('') + detokeniser.flush();
    expect(text).toBe('abcd');
    expect(unknown).toEqual([100_000]);
  });
});
