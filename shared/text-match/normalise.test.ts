import { describe, expect, it } from 'vitest';
import { normaliseText, OLMOCR_TEXT, READING_TEXT } from './normalise.js';

describe("olmOCR-Bench's rules", () => {
  it('strips Markdown emphasis, composes letters and makes quotes and dashes plain', () => {
    expect(normaliseText('**Bold** and *it* and __u__ — “q” ‘s’ −1<br/>next\n\nline', OLMOCR_TEXT)).toBe('Bold and it and u - "q" \'s\' -1 next line');
    expect(normaliseText('Ja\u0301n')).toBe('Ján');
    expect(normaliseText('5 \u00b5m')).toBe('5 \u03bcm');
    // ligatures and case are kept, as olmOCR keeps them
    expect(normaliseText('The ﬁrst')).toBe('The ﬁrst');
  });

  it('strips emphasis before joining lines, so emphasis never spans a line break', () => {
    expect(normaliseText('*one\ntwo*')).toBe('*one two*');
    expect(normaliseText('*one*\r\n*two*')).toBe('one two');
    expect(normaliseText('a\u2028*b*')).toBe('a b');
  });

  it('counts whitespace as Python does: U+001F and U+0085 are spaces, U+FEFF is not', () => {
    expect(normaliseText('a\u001f\u0085b\ufeffc')).toBe('a b\ufeffc');
  });

  it('turns only <br> and <br/> into spaces, as olmOCR does', () => {
    expect(normaliseText('a<br>b<br/>c<br />d')).toBe('a b c<br />d');
  });
});

describe("the quality checks' rules", () => {
  it('makes typographic quotes, dashes and ligatures plain, drops zero-width characters, and collapses whitespace', () => {
    expect(normaliseText('“Eﬃcient”  infor\u200bmation —\n ‘fast’', READING_TEXT)).toBe('"efficient" information - \'fast\'');
  });

  it('keeps soft hyphens, so words left with them inside do not match', () => {
    expect(normaliseText('in\u00adfor\u00admation', READING_TEXT)).not.toBe(normaliseText('information', READING_TEXT));
  });

  it('keeps case and punctuation unless told otherwise', () => {
    expect(normaliseText('Page 3, of 4!', { ...READING_TEXT, caseSensitive: true })).toBe('Page 3, of 4!');
    expect(normaliseText('Page 3, of 4!', { ...READING_TEXT, ignorePunctuation: true })).toBe('page 3 of 4');
  });
});
