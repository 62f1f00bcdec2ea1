import { describe, expect, it } from 'vitest';
import { ocrBandLines, ocrBlocks, type OcrPage } from './ocr-layout.js';
import type { RecognisedLine } from './text-recognition.js';

/**
 * A level line as the recogniser reads it, its left end at `x`, centred on `y`: letters `pitch`
 * pixels wide, spaces half that, type twice the pitch high.
 */
function line(text: string, x: number, y: number, pitch = 5): RecognisedLine {
  let at = 0;
  const chars = [...text].map((c) => {
    const width = c === ' ' ? pitch / 2 : pitch;
    at += width;
    return { text: c, u0: at - width, u1: at, confidence: 0.9 };
  });
  return { box: { cx: x + at / 2, cy: y, angle: 0, length: at, thickness: 2.6 * pitch, score: 0.9 }, chars, blanks: [] };
}

/** A scanned page, one pixel a point: a running header, two body lines and a page number. */
function scan(number: number): OcrPage {
  return {
    width: 600,
    height: 800,
    scale: 1,
    lines: [
      line('Northport Harbour Board', 50, 40),
      line('Winter storms removed armour stone from the breakwater.', 50, 300),
      line('Divers will survey its foundations before the work starts.', 50, 318),
      line(`Page ${number} of 4`, 250, 770),
    ],
  };
}

describe('OCR layout of running text', () => {
  it("leaves out a header the neighbours' band lines repeat, keeping its box", () => {
    const blocks = ocrBlocks(scan(2), false, [ocrBandLines(scan(1)), ocrBandLines(scan(3))]);
    expect(blocks.map((b) => b.markdown).join('\n')).not.toMatch(/Northport|Page 2/);
    expect(blocks.map((b) => b.markdown).join('\n')).toContain('Winter storms');
    expect(blocks.filter((b) => b.kind === 'header' || b.kind === 'footer')).toHaveLength(2);
  });

  it('keeps a header no neighbour repeats, and running text when asked to', () => {
    expect(ocrBlocks(scan(2)).map((b) => b.markdown).join('\n')).toContain('Northport Harbour Board');
    expect(ocrBlocks(scan(2)).map((b) => b.markdown).join('\n')).not.toContain('Page 2 of 4');
    const kept = ocrBlocks(scan(2), true, [ocrBandLines(scan(1))]).map((b) => b.markdown);
    expect(kept[0]).toBe('Northport Harbour Board');
    expect(kept.at(-1)).toBe('Page 2 of 4');
  });
});
