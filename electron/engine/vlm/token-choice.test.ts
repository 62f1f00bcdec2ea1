import { describe, expect, it } from 'vitest';
import { bannedTokens, chooseToken } from './token-choice.js';

describe('no-repeat n-gram rule', () => {
  const rule = { size: 3, window: 32, exempt: [9] };
  it('bans the token that would repeat a trigram', () => {
    expect([...bannedTokens([5, 6, 7, 5, 6], rule)]).toEqual([7]);
  });
  it('allows exempt tokens', () => {
    expect([...bannedTokens([5, 6, 9, 5, 6], rule)]).toEqual([]);
  });
  it('looks only at n-grams starting inside the window', () => {
    const generated = [5, 6, 7, 1, 1, 5, 6];
    expect([...bannedTokens(generated, { ...rule, window: 7 })]).toEqual([7]);
    expect([...bannedTokens(generated, { ...rule, window: 6 })]).toEqual([]);
  });
  it('picks the best allowed logit, the lower id on a tie', () => {
    const logits = Float32Array.from([0, 3, 3, 1, /* row 1 */ 2, 0, 0, 5]);
    expect(chooseToken(logits, 4, 0, new Set())).toBe(1);
    expect(chooseToken(logits, 4, 0, new Set([1]))).toBe(2);
    expect(chooseToken(logits, 4, 1, new Set([3]))).toBe(0);
  });
});
