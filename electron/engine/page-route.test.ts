import { describe, expect, it } from 'vitest';
import { decidePageRoute } from './page-route.js';
import { plausibleShare, textFacts } from './text-layer-probe.js';

const PROSE = 'Thank you for your letter about the survey walks along the harbour wall, dated 3 May 2026.';
const GARBLED = 'Dcar Ms Hcndr1cks, tbank yOu f0r yOur lctter 0f thc 4tb. Wc ha\\/e rcvicwcd thc p1ans ~ :: ||';

describe('page route without a model', () => {
  it('reads a visible text layer', () => {
    expect(decidePageRoute(textFacts(PROSE, 0)).engine).toBe('text');
  });

  it('sends an image page, and a page without text, to OCR', () => {
    expect(decidePageRoute(undefined)).toMatchObject({ engine: 'lite', reason: expect.stringMatching(/image page/) });
    const scan = { imageShare: 1, pathPaints: 0, annotations: 0 };
    expect(decidePageRoute(textFacts(' 3 ', 0, scan))).toMatchObject({ engine: 'lite', reason: expect.stringMatching(/no text layer/) });
  });

  it('sends a page of images with only a caption, or of text drawn as paths, to OCR', () => {
    expect(decidePageRoute(textFacts('Scanned notes, page 1', 0, { imageShare: 0.7, pathPaints: 0, annotations: 0 }))).toMatchObject({ engine: 'lite', reason: expect.stringMatching(/images cover 70%/) });
    expect(decidePageRoute(textFacts('Figure 1: outline', 0, { imageShare: 0, pathPaints: 2400, annotations: 0 }))).toMatchObject({ engine: 'lite', reason: expect.stringMatching(/drawn as graphics/) });
    expect(decidePageRoute(textFacts(PROSE.repeat(3), 0, { imageShare: 0.6, pathPaints: 2400, annotations: 0 })).engine).toBe('text');
  });

  it('reads nothing on a blank page', () => {
    expect(decidePageRoute(textFacts('', 0))).toMatchObject({ engine: 'text', reason: expect.stringMatching(/blank page/) });
    expect(decidePageRoute(textFacts('', 0, { imageShare: 0, pathPaints: 0, annotations: 2 })).engine).toBe('lite');
  });

  it('keeps an invisible OCR layer that reads well and redoes one that does not', () => {
    expect(decidePageRoute(textFacts(PROSE, 1)).engine).toBe('text');
    expect(decidePageRoute(textFacts(GARBLED, 1))).toMatchObject({ engine: 'lite', reason: expect.stringMatching(/poor quality/) });
  });

  it('sends a layer of mostly unmapped glyphs to OCR', () => {
    expect(decidePageRoute(textFacts('\ue001\ue002\ue003 \ue004\ue005\ufffd\ufffd\ue006\ue007 ab', 0)).engine).toBe('lite');
  });
});

describe('plausible words', () => {
  it('scores prose, numbers and Chinese high and a garbled scanner layer low', () => {
    expect(plausibleShare(PROSE)).toBeGreaterThan(0.9);
    expect(plausibleShare('志愿者 河流 鸟类 调查 2026')).toBe(1);
    expect(plausibleShare(GARBLED)).toBeLessThan(0.6);
  });
});
