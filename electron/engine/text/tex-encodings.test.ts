import { describe, expect, it } from 'vitest';
import { texSlotText, texVariantByWidth } from './tex-encodings.js';

describe("TeX's math fonts by slot and width", () => {
  it("reads Latin Modern's math italic and symbol fonts by Computer Modern's slots", () => {
    // \not's slash (CMSY slot 54) and \langle (104): glyph names the Adobe list does not know
    for (const font of ['CMSY10', 'LMMathSymbols10-Regular', 'LMMathSymbols7-Bold']) {
      expect(texSlotText(font, 54), font).toBe('\u0338');
      expect(texSlotText(font, 104), font).toBe('⟨');
    }
    expect(texSlotText('LMMathItalic10-Regular', 15)).toBe('ϵ');
    expect(texSlotText('LMRoman10-Regular', 54)).toBeUndefined();
  });

  it('tells phi from varphi and epsilon from varepsilon by width at each size, whatever Unicode the file gave', () => {
    // cmmi10: phi 0.596 em, phi1 0.654; cmmi7: 0.687 and 0.751, wider than cmmi10's varphi
    expect(texVariantByWidth('CMMI10', 'φ', 0.596)).toBe('ϕ');
    expect(texVariantByWidth('CMMI10', 'ϕ', 0.654)).toBe('φ');
    expect(texVariantByWidth('CMMI7', 'φ', 0.687)).toBe('ϕ');
    expect(texVariantByWidth('LMMathItalic7-Regular', 'ϕ', 0.751)).toBe('φ');
    expect(texVariantByWidth('LMMathItalic10-Bold', 'ε', 0.483)).toBe('ϵ');
    expect(texVariantByWidth('CMMI12', 'ϵ', 0.458)).toBe('ε');
    // a width that matches neither glyph, another font or another letter: as the file gave it
    expect(texVariantByWidth('CMMI10', 'φ', 0.62)).toBe('φ');
    expect(texVariantByWidth('LMRoman10-Regular', 'φ', 0.596)).toBe('φ');
    expect(texVariantByWidth('CMMI10', 'θ', 0.596)).toBe('θ');
  });
});
