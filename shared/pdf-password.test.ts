import { describe, expect, it } from 'vitest';
import { passwordCandidates } from './pdf-password.js';

describe('passwordCandidates', () => {
  it('tries an ASCII password alone', () => {
    expect(passwordCandidates('open sesame')).toEqual(['open sesame']);
  });

  it('tries a non-ASCII password as typed, then as its UTF-8 bytes one character each', () => {
    expect(passwordCandidates('pässwört')).toEqual(['pässwört', 'p\u00c3\u00a4ssw\u00c3\u00b6rt']);
  });
});
