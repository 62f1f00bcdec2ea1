import { describe, expect, it } from 'vitest';
import { levenshtein, nearMatchStarts, partialRatio, ratio, substringEditDistance } from './fuzzy-match.js';

describe('similarity ratios (rapidfuzz)', () => {
  it('ratio is the normalised Indel similarity', () => {
    expect(ratio('abcd', 'abcd')).toBe(1);
    expect(ratio('abcd', 'abed')).toBeCloseTo(0.75);
    expect(ratio('', '')).toBe(1);
    expect(ratio('a', '')).toBe(0);
  });

  it('partial ratio finds the best window, also for needles longer than 32 characters', () => {
    expect(partialRatio('fox', 'the quick brown fox jumps')).toBe(1);
    expect(partialRatio('fax', 'the quick brown fox jumps')).toBeCloseTo(2 / 3);
    const long = 'a sentence of well over thirty-two characters in length';
    expect(partialRatio(long, `prefix ${long} suffix`)).toBe(1);
    expect(partialRatio(long.replace('well', 'wall'), `prefix ${long} suffix`)).toBeGreaterThan(0.97);
    expect(partialRatio('zzz', 'abc')).toBe(0);
  });
});

describe('edit distances (one Levenshtein table)', () => {
  it('counts insertions, deletions and substitutions, by code point', () => {
    expect(levenshtein('kitten', 'sitting')).toBe(3);
    expect(levenshtein('', 'abc')).toBe(3);
    expect(levenshtein('abc', '')).toBe(3);
    expect(levenshtein('same', 'same')).toBe(0);
    // 𝑥 is one code point (two UTF-16 units)
    expect(levenshtein('𝑥+1', 'x+1')).toBe(1);
  });

  it('finds the closest substring for fuzzy presence (Sellers)', () => {
    expect(substringEditDistance('information', 'the infor mation age')).toBe(1);
    expect(substringEditDistance('river', 'a long river bank')).toBe(0);
    expect(substringEditDistance('xyz', 'abc')).toBe(3);
    expect(substringEditDistance('', 'abc')).toBe(0);
  });

  it('gives the first and last start of the matches within the allowed edits', () => {
    expect(nearMatchStarts('abc', 'xxabcxxabc', 0)).toEqual({ first: 2, last: 7 });
    expect(nearMatchStarts('abc', 'xxabxx', 0)).toBeUndefined();
    expect(nearMatchStarts('abcd', 'xxabxdx', 1)?.first).toBe(2);
    expect(nearMatchStarts('𝑥y', 'a 𝑥y', 0)).toEqual({ first: 2, last: 2 });
  });
});
