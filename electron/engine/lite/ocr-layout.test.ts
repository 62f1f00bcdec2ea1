import { describe, expect, it } from 'vitest';
import { ocrBandLines, ocrBlocks, type OcrPage } from './ocr-layout.js';
import type { RecognisedLine } from './text-recognition.js';

/**
 * A level line as the recogniser reads it, its left end at `x`, centred on `y`: letters `pitch`
 * pixels wide, spaces half that, type twice the pitch high, each read with `confidence`.
 */
function line(text: string, x: number, y: number, pitch = 5, confidence = 0.98): RecognisedLine {
  let at = 0;
  const chars = [...text].map((c) => {
    const width = c === ' ' ? pitch / 2 : pitch;
    at += width;
    return { text: c, u0: at - width, u1: at, confidence };
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

/** A title set half as large again above three body lines, the title read with `titleConfidence` and the body with `bodyConfidence`. */
function titled(titleConfidence: number, bodyConfidence = 0.98): OcrPage {
  const body = ['Winter storms removed armour stone from the breakwater.', 'Divers will survey its foundations before the work starts.', 'The harbour stays open while they work.'];
  return {
    width: 600,
    height: 800,
    scale: 1,
    lines: [line('Breakwater repairs', 50, 100, 8, titleConfidence), ...body.map((text, i) => line(text, 50, 200 + 18 * i, 5, bodyConfidence))],
  };
}

describe('OCR headings', () => {
  it('makes a short line of clearly larger type read surely a heading', () => {
    expect(ocrBlocks(titled(0.98))[0]).toMatchObject({ kind: 'heading', markdown: '# Breakwater repairs' });
  });

  it('keeps a large line read by guesses a paragraph', () => {
    const blocks = ocrBlocks(titled(0.6));
    expect(blocks[0]).toMatchObject({ kind: 'paragraph', markdown: 'Breakwater repairs' });
    expect(blocks.map((b) => b.markdown).join('\n')).not.toContain('#');
  });

  it('makes no headings where line heights scatter as handwriting does, however surely read', () => {
    const page = titled(0.98);
    // body lines of 0.7x to 1.9x the first's height: no size is the body's
    const scattered = page.lines.map((l, i) => (i === 0 ? l : { ...l, box: { ...l.box, thickness: l.box.thickness * [0.7, 1.9, 1.4][i - 1]! } }));
    const blocks = ocrBlocks({ ...page, lines: [...scattered, line('Divers came back before noon.', 50, 260, 3.5)] });
    expect(blocks.filter((b) => b.kind === 'heading')).toEqual([]);
  });

  it('makes no headings on a page read mostly by guesses, however sure its large line', () => {
    const blocks = ocrBlocks(titled(0.98, 0.6));
    expect(blocks.filter((b) => b.kind === 'heading')).toEqual([]);
    expect(blocks.map((b) => b.markdown).join('\n')).not.toContain('#');
  });
});
