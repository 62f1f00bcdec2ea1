import { describe, expect, it } from 'vitest';
import { PAGE_SHARE_BOUNDS } from '../../shared/settings.js';
import { clampShare, DIVIDER_PX, shareAfterKey, shareAtPointer, splitTracks } from './pane-split.js';

describe('the divider between pages and Markdown', () => {
  it('keeps each pane at least 160 px wide where there is room, and within the bounds where there is not', () => {
    expect(clampShare(0.05, 1000)).toBe(0.16);
    expect(clampShare(0.99, 1000)).toBe(0.84);
    expect(clampShare(0.5, 1000)).toBe(0.5);
    expect(clampShare(0.01, 200)).toBe(PAGE_SHARE_BOUNDS.min);
    expect(clampShare(Number.NaN, 1000)).toBe(PAGE_SHARE_BOUNDS.default);
  });

  it('moves with the arrows along the split, further with Page Up/Down, to the ends with Home/End', () => {
    expect(shareAfterKey(0.4, 'ArrowLeft', false, 1000)).toBeCloseTo(0.38);
    expect(shareAfterKey(0.4, 'ArrowRight', false, 1000)).toBeCloseTo(0.42);
    expect(shareAfterKey(0.4, 'ArrowUp', true, 1000)).toBeCloseTo(0.38);
    expect(shareAfterKey(0.4, 'ArrowDown', true, 1000)).toBeCloseTo(0.42);
    // arrows across the split are left to the page
    expect(shareAfterKey(0.4, 'ArrowUp', false, 1000)).toBeNull();
    expect(shareAfterKey(0.4, 'PageDown', false, 1000)).toBeCloseTo(0.5);
    expect(shareAfterKey(0.4, 'Home', false, 1000)).toBe(0.16);
    expect(shareAfterKey(0.4, 'End', false, 1000)).toBe(0.84);
    expect(shareAfterKey(0.4, 'a', false, 1000)).toBeNull();
  });

  it('puts the divider under the pointer', () => {
    const start = 100;
    const size = 1000 + DIVIDER_PX;
    expect(shareAtPointer(start + 300 + DIVIDER_PX / 2, start, size)).toBeCloseTo(0.3);
    expect(shareAtPointer(start, start, size)).toBe(0.16);
    expect(shareAtPointer(start + size, start, size)).toBe(0.84);
  });

  it('makes grid tracks of the share', () => {
    expect(splitTracks(0.4)).toBe(`minmax(0, 0.4fr) ${DIVIDER_PX}px minmax(0, 0.6fr)`);
  });
});
