/**
 * The divider between the page pane and the Markdown pane: where it may go, how keys move it, and
 * the grid it makes. The share is the page pane's part of the room both panes split (0..1); the
 * panes sit side by side, or, in a narrow window, the pages above the Markdown.
 */

import { PAGE_SHARE_BOUNDS } from '../../shared/settings.js';

/** The divider's thickness (px): wide enough to grab, counted out of the room the panes split. */
export const DIVIDER_PX = 8;
/** Below this width (px) the panes stack, the pages above: side by side each would be too narrow to read. */
export const STACK_BELOW_PX = 720;
/** Thumbnails are shown only where the panes have this much room (px) besides. */
export const THUMBNAILS_FROM_PX = 900;
/** Neither pane is made narrower (or, stacked, shorter) than this (px), when there is room for both. */
const PANE_MIN_PX = 160;
const KEY_STEP = 0.02;
const PAGE_STEP = 0.1;

/** The share kept within its bounds, and each pane at least `PANE_MIN_PX` where `room` allows. */
export function clampShare(share: number, room: number): number {
  let low: number = PAGE_SHARE_BOUNDS.min;
  let high: number = PAGE_SHARE_BOUNDS.max;
  if (room > 2 * PANE_MIN_PX) {
    low = Math.max(low, PANE_MIN_PX / room);
    high = Math.min(high, 1 - PANE_MIN_PX / room);
  }
  if (!Number.isFinite(share)) return PAGE_SHARE_BOUNDS.default;
  return Math.min(high, Math.max(low, share));
}

/**
 * The share after a key pressed on the focused divider, or null for a key it ignores. Arrows along
 * the split move it a little (towards the arrow), Page Up/Down a lot, Home/End to either end.
 */
export function shareAfterKey(share: number, key: string, stacked: boolean, room: number): number | null {
  const back = stacked ? 'ArrowUp' : 'ArrowLeft';
  const forward = stacked ? 'ArrowDown' : 'ArrowRight';
  let next: number;
  if (key === back) next = share - KEY_STEP;
  else if (key === forward) next = share + KEY_STEP;
  else if (key === 'PageUp') next = share - PAGE_STEP;
  else if (key === 'PageDown') next = share + PAGE_STEP;
  else if (key === 'Home') next = 0;
  else if (key === 'End') next = 1;
  else return null;
  return clampShare(next, room);
}

/** The share that puts the divider's middle under the pointer; `start` and `size` span both panes and the divider. */
export function shareAtPointer(pointer: number, start: number, size: number): number {
  const room = size - DIVIDER_PX;
  if (room <= 0) return PAGE_SHARE_BOUNDS.default;
  return clampShare((pointer - start - DIVIDER_PX / 2) / room, room);
}

/** The grid track list for the page pane, the divider and the Markdown pane. */
export function splitTracks(share: number): string {
  const page = Math.round(share * 1000) / 1000;
  const markdown = Math.round((1 - share) * 1000) / 1000;
  return `minmax(0, ${page}fr) ${DIVIDER_PX}px minmax(0, ${markdown}fr)`;
}
