import { describe, expect, it } from 'vitest';
import { levenshtein, normalisedEditDistance, substringEditDistance } from './edit-distance.js';

describe('edit distance', () => {
  it('counts insertions, deletions and substitutions', () => {
    expect(levenshtein('kitten', 'sitting')).toBe(3);
    expect(levenshtein('', 'abc')).toBe(3);
    expect(levenshtein('same', 'same')).toBe(0);
  });

  it('normalises by the longer text, from 0 (identical) to 1 (nothing shared)', () => {
    expect(normalisedEditDistance('abcd', 'abcd')).toBe(0);
    expect(normalisedEditDistance('abcd', 'wxyz')).toBe(1);
    expect(normalisedEditDistance('abcd', '')).toBe(1);
    expect(normalisedEditDistance('', '')).toBe(0);
  });

  it('caps the compared length so huge outputs stay cheap', () => {
    expect(normalisedEditDistance('a'.repeat(50), 'a'.repeat(10) + 'b'.repeat(40), 10)).toBe(0);
  });

  it('finds the closest substring for fuzzy presence', () => {
    expect(substringEditDistance('information', 'the infor mation age')).toBe(1);
    expect(substringEditDistance('river', 'a long river bank')).toBe(0);
    expect(substringEditDistance('xyz', 'abc')).toBe(3);
  });
});
