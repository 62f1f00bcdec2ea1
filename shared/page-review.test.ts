import { describe, expect, it } from 'vitest';
import { reviewReasons } from './page-review.js';
import type { PageStats } from './page.js';

const stats: PageStats = { engine: 'lite', device: 'cpu', timeMs: 900, chars: 370 };

describe('reviewReasons', () => {
  it('says nothing for a page without flags', () => {
    expect(reviewReasons(stats)).toEqual([]);
  });

  it('says OCR was unsure, with its mean confidence, and what to do', () => {
    expect(reviewReasons({ ...stats, confidence: 0.673, flags: ['low-confidence'] })).toEqual([
      'OCR was unsure of much of the text (mean character confidence 0.67), as with handwriting or a poor photo, and made no headings; check the text against the page',
    ]);
  });

  it('gives one reason per flag, in order', () => {
    expect(reviewReasons({ ...stats, flags: ['blank', 'repetition'] })).toEqual([
      'looked blank, so it was not read; check that nothing is on it',
      'the model began repeating itself, so the page was stopped there; check its end',
    ]);
  });
});
