/**
 * What taking DeepSeek-OCR's grounding out of a streamed page costs: a 120-region page streamed a
 * word at a time (as the test server and vLLM send it), parsed vs only concatenated, in one run.
 * Run with `npm run build && node dist/tools/bench/bench-grounding.js`.
 */

import { GroundingParser, pageGrounding } from '../../shared/grounding.js';

const REGIONS = 120;
const PAGES = 300;

function groundedPage(): string {
  const regions: string[] = [];
  for (let i = 0; i < REGIONS; i++) {
    const y = Math.round((i * 999) / REGIONS);
    regions.push(`<|ref|>text<|/ref|><|det|>[[62, ${y}, 937, ${y + 7}]]<|/det|>\nThe dominant sequence transduction models are based on complex recurrent networks, \\(n < 10\\).\n\n`);
  }
  return regions.join('');
}

function timeMs(run: () => void): number {
  const started = performance.now();
  run();
  return performance.now() - started;
}

const deltas = groundedPage().match(/\S+\s*|\s+/g) ?? [];
const concatenated = timeMs(() => {
  for (let page = 0; page < PAGES; page++) deltas.reduce((text, delta) => text + delta, '');
});
const parsed = timeMs(() => {
  for (let page = 0; page < PAGES; page++) {
    const parser = new GroundingParser(pageGrounding(1, false));
    for (const delta of deltas) parser.push(delta);
    parser.finish();
  }
});
const perPage = parsed / PAGES;
console.log(`${deltas.length} deltas a page, ${PAGES} pages`);
console.log(`parse: ${perPage.toFixed(2)} ms a page, ${((perPage * 1000) / deltas.length).toFixed(2)} us a delta`);
console.log(`concatenation alone: ${(concatenated / PAGES).toFixed(2)} ms a page; parse / concatenation = ${(parsed / concatenated).toFixed(1)}x`);
