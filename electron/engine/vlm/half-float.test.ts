import { describe, expect, it } from 'vitest';
import { floatsFrom, fromHalf, halvesFrom, toHalf } from './half-float.js';

describe('half floats', () => {
  it('encode the values whose bits are known', () => {
    expect(toHalf(1)).toBe(0x3c00);
    expect(toHalf(-2)).toBe(0xc000);
    expect(toHalf(65504)).toBe(0x7bff);
    expect(toHalf(1e6)).toBe(0x7c00);
    expect(toHalf(2 ** -24)).toBe(0x0001);
    expect(toHalf(0.1)).toBe(0x2e66);
    expect(toHalf(Number.NaN) & 0x7c00).toBe(0x7c00);
  });

  it('round halfway cases to the even neighbour', () => {
    // 1 + 2^-11 lies halfway between 1 and 1 + 2^-10
    expect(toHalf(1 + 2 ** -11)).toBe(0x3c00);
    expect(toHalf(1 + 3 * 2 ** -11)).toBe(0x3c02);
  });

  it('decode every finite half back to itself', () => {
    const all = Uint16Array.from({ length: 0x7c00 }, (_, i) => i);
    expect(Array.from(halvesFrom(floatsFrom(all)))).toEqual(Array.from(all));
    expect(fromHalf(0xc000)).toBe(-2);
  });
});
