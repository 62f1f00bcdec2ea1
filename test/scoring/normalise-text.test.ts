import { describe, expect, it } from 'vitest';
import { normaliseMarkdown, normaliseText } from './normalise-text.js';

describe('normaliseText', () => {
  it('makes typographic quotes, dashes and ligatures plain, drops zero-width characters, and collapses whitespace', () => {
    expect(normaliseText('“Eﬃcient”  infor\u200bmation —\n ‘fast’')).toBe('"efficient" information - \'fast\'');
  });

  it('keeps soft hyphens, so words left with them inside do not match', () => {
    expect(normaliseText('in\u00adfor\u00admation')).not.toBe(normaliseText('information'));
  });

  it('leaves every character alone, whitespace included, when asked to be exact', () => {
    expect(normaliseText('ﬁrst “ﬂight”\n    Done', { exact: true })).toBe('ﬁrst “ﬂight”\n    Done');
  });

  it('keeps case and punctuation unless told otherwise', () => {
    expect(normaliseText('Page 3, of 4!', { caseSensitive: true })).toBe('Page 3, of 4!');
    expect(normaliseText('Page 3, of 4!', { ignorePunctuation: true })).toBe('page 3 of 4');
  });
});

describe('normaliseMarkdown', () => {
  it('treats bullet characters, emphasis markers and table padding as the same Markdown', () => {
    const a = '* one\n+ two\n\n__bold__ _it_\n\n|  A |B|\n|:---|---:|\n| 1 |  2 |';
    const b = '- one\n- two\n\n**bold** *it*\n\n| A | B |\n| --- | --- |\n| 1 | 2 |';
    expect(normaliseMarkdown(a)).toBe(normaliseMarkdown(b));
  });

  it('keeps differences in the words', () => {
    expect(normaliseMarkdown('- one')).not.toBe(normaliseMarkdown('- won'));
  });
});
