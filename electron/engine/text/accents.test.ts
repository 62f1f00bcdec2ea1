import { describe, expect, it } from 'vitest';
import { composeAccents } from './accents.js';

describe('composeAccents', () => {
  it('composes a spacing accent with the letter after it', () => {
    expect(composeAccents('J´an Nov´ak, Dvoˇr´ak')).toBe('Ján Novák, Dvořák');
  });

  it('accents a dotless i as TeX sets one under an accent', () => {
    expect(composeAccents('Hoˇrejˇs´\u0131, Jiˇr´\u0131')).toBe('Hořejší, Jiří');
  });

  it('normalises combining marks to NFC', () => {
    expect(composeAccents('cafe\u0301')).toBe('caf\u00e9');
  });

  it('leaves an acute standing in for an apostrophe, and pairs Unicode cannot compose', () => {
    expect(composeAccents('it´s, don´t, we´ll')).toBe('it´s, don´t, we´ll');
    expect(composeAccents('ˇq')).toBe('ˇq');
  });
});
