/** Why a converted page wants a person's look, in words, as the CLI's stderr and the app say it. */

import type { PageFlag, PageStats } from './page.js';

/** One clause per flag of the page's stats, in the flags' order; none when it needs no review. */
export function reviewReasons(stats: PageStats): string[] {
  return (stats.flags ?? []).map((flag) => reasonFor(flag, stats));
}

function reasonFor(flag: PageFlag, stats: PageStats): string {
  switch (flag) {
    case 'repetition':
      return 'the model began repeating itself, so the page was stopped there; check its end';
    case 'blank':
      return 'looked blank, so it was not read; check that nothing is on it';
    case 'empty':
      return 'no text came out of it; check that nothing is on it';
    case 'truncated':
      return 'the answer reached its length limit and was cut there; check its end';
    case 'low-confidence': {
      const mean = stats.confidence === undefined ? '' : ` (mean character confidence ${stats.confidence.toFixed(2)})`;
      return `OCR was unsure of much of the text${mean}, as with handwriting or a poor photo, and made no headings; check the text against the page`;
    }
  }
}
