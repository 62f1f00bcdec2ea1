import { describe, expect, it } from 'vitest';
import { halvesFrom } from './half-float.js';
import { bannedTokens, chooseToken, nextToken } from './token-choice.js';

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
  it('chooses from fp16 halves exactly as from the widened floats: negatives, ties, -0, infinities, bans', () => {
    let seed = 3;
    const random = () => (seed = (seed * 48271) % 2147483647) / 2147483647;
    const vocab = 50;
    for (let trial = 0; trial < 200; trial++) {
      // few distinct values, so ties are common; all negative in some rows
      const shift = trial % 3 === 0 ? -100 : 0;
      const floats = Float32Array.from({ length: vocab * 2 }, () => Math.round(random() * 8 - 4) * 0.5 + shift);
      if (trial % 7 === 0) floats[3] = Number.POSITIVE_INFINITY;
      if (trial % 11 === 0) floats.fill(0, 0, vocab);
      if (trial % 11 === 0) floats[trial % 2] = -0;
      const halves = halvesFrom(floats);
      const banned = new Set([Math.floor(random() * vocab), Math.floor(random() * vocab)]);
      for (const row of [0, 1]) expect(chooseToken(halves, vocab, row, banned), `trial ${trial} row ${row}`).toBe(chooseToken(floats, vocab, row, banned));
    }
  });

  it('never chooses an always-banned id (the manifest banned_ids), whatever its score', () => {
    const logits = Float32Array.from([0, 1, 9, 2]);
    const rule = { size: 3, window: 8, exempt: [], alwaysBanned: new Set([2]) };
    expect(nextToken(logits, 4, 0, [], rule)).toBe(3);
    expect(nextToken(logits, 4, 0, [], { ...rule, alwaysBanned: undefined })).toBe(2);
  });
});
