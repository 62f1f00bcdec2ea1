import { describe, expect, it } from 'vitest';
import { clearlyUpsideDown, liesSideways, readDownwards, upsideDownMargin, votingLines, votingWindows } from './page-orientation.js';
import type { TextLineBox } from './text-detection.js';

/** A box as detection gives one: its axis near level, `length` along it and `thickness` across. */
function box(length: number, thickness: number, cy = 0): TextLineBox {
  return { cx: 100, cy, angle: 0, length, thickness, score: 0.9 };
}

/** A line standing on end, as detection boxes it on a page lying sideways: thin along, long across. */
function standing(height: number): TextLineBox {
  return box(30, height);
}

describe('liesSideways', () => {
  it('finds a page of upright lines upright', () => {
    expect(liesSideways([box(1000, 30), box(800, 30), box(120, 30), box(40, 30)])).toBe(false);
  });

  it('finds a page whose lines stand on end sideways', () => {
    expect(liesSideways([standing(1000), standing(800), standing(150), box(35, 30)])).toBe(true);
  });

  it('keeps a page of prose upright despite a long stamp up its margin', () => {
    expect(liesSideways([standing(1600), box(1000, 30), box(1000, 30), box(900, 30)])).toBe(false);
  });

  it('leaves a page upright when standing fragments only match its lying words (loops and strokes of handwriting)', () => {
    expect(liesSideways([standing(300), standing(250), box(200, 30), box(220, 30), box(100, 30)])).toBe(false);
    expect(liesSideways([standing(600), standing(500), box(200, 30), box(220, 30), box(100, 30)])).toBe(true);
  });

  it('leaves a page of only short words and digits upright', () => {
    expect(liesSideways([box(60, 30), box(30, 40), box(45, 30)])).toBe(false);
    expect(liesSideways([])).toBe(false);
  });
});

describe('votingLines', () => {
  it('takes the longest lines, longest first, and never short words', () => {
    const boxes = [box(300, 30, 1), box(1000, 30, 2), box(80, 30, 3), box(600, 30, 4), box(30, 300, 5)];
    expect(votingLines(boxes, 2).map((b) => b.cy)).toEqual([2, 4]);
    expect(votingLines(boxes).map((b) => b.cy)).toEqual([2, 4, 1]);
  });
});

describe('votingWindows', () => {
  it('cuts windows of the classifier\'s 4:1 shape, spread along a long line', () => {
    // 1,200 x 30 about x = 100: windows 120 long centred at 200, 600 and 1,000 along it.
    const windows = votingWindows([box(1200, 30)]);
    expect(windows.map((w) => [Math.round(w.cx), w.length, w.thickness])).toEqual([[-300, 120, 30], [100, 120, 30], [500, 120, 30]]);
  });

  it('cuts one window a line at its middle when asked for one', () => {
    expect(votingWindows([box(1200, 30)], 5, 1).map((w) => [w.cx, w.length])).toEqual([[100, 120]]);
  });

  it('follows a skewed line and keeps a short line whole', () => {
    const skewed = { ...box(1200, 30, 500), angle: 0.01 };
    expect(votingWindows([skewed])[0]!.cy).toBeCloseTo(500 - 400 * Math.sin(0.01));
    expect(votingWindows([box(100, 30)])).toEqual([box(100, 30)]);
  });
});

describe('upsideDownMargin', () => {
  it('is the mean of P(upside down) - P(upright) over the windows', () => {
    expect(upsideDownMargin([0.1, 0.9, 0.2, 0.8, 0.7, 0.3], 3)).toBeCloseTo((0.8 + 0.6 - 0.4) / 3);
    expect(upsideDownMargin([0.9, 0.1, 0.6, 0.4], 2)).toBeCloseTo(-0.5);
    expect(upsideDownMargin([], 0)).toBe(0);
  });
});

describe('clearlyUpsideDown', () => {
  it('turns a page over when nearly every window is sure it is upside down', () => {
    expect(clearlyUpsideDown(upsideDownMargin([0.02, 0.98, 0.05, 0.95, 0.01, 0.99], 3))).toBe(true);
  });

  it('keeps a page as it lies when most windows lean upside down only weakly', () => {
    // 4 of 5 windows vote upside down, as a majority vote would have turned the page
    expect(clearlyUpsideDown(upsideDownMargin([0.4, 0.6, 0.35, 0.65, 0.3, 0.7, 0.45, 0.55, 0.9, 0.1], 5))).toBe(false);
  });

  it('keeps a page as it lies when windows are split, however sure each is', () => {
    expect(clearlyUpsideDown(upsideDownMargin([0.01, 0.99, 0.01, 0.99, 0.99, 0.01, 0.02, 0.98], 4))).toBe(false);
  });
});

describe('readDownwards', () => {
  it('makes a line standing on end a line read from top to bottom, long and thin, so it can vote', () => {
    const line = readDownwards(standing(600));
    expect(line).toMatchObject({ cx: 100, length: 600, thickness: 30 });
    // Reading direction turned a quarter clockwise from left-to-right: downwards on screen.
    expect(line.angle).toBeCloseTo(Math.PI / 2);
    expect(votingLines([line])).toEqual([line]);
  });
});
