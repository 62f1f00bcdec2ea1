/**
 * Which pages of a long document are near the viewport. Every page gets a slot of the same height
 * (the first page's shape at the current zoom), so a 2,000-page PDF is a tall empty box with a
 * handful of canvases in it, and the slot under any scroll position is one division away.
 */

export interface SlotLayout {
  pageCount: number;
  /** Height of one page slot including its gap, in CSS pixels. */
  slotHeight: number;
}

export interface PageWindow {
  /** 1-based, inclusive. */
  first: number;
  last: number;
}

/** Pages intersecting the viewport plus `overscan` slots either side, so scrolling finds them drawn. */
export function visiblePages(layout: SlotLayout, scrollTop: number, viewportHeight: number, overscan = 2): PageWindow {
  if (layout.pageCount === 0 || layout.slotHeight <= 0) return { first: 1, last: 0 };
  const firstVisible = Math.floor(Math.max(0, scrollTop) / layout.slotHeight) + 1;
  const lastVisible = Math.ceil((Math.max(0, scrollTop) + viewportHeight) / layout.slotHeight);
  return {
    first: clamp(firstVisible - overscan, 1, layout.pageCount),
    last: clamp(lastVisible + overscan, 1, layout.pageCount),
  };
}

/**
 * The page a reader is on: the one whose slot holds the line a third of the way down the view, or
 * half a slot down when pages are small, so that scrolling to a page always reports that page.
 */
export function pageAtScroll(layout: SlotLayout, scrollTop: number, viewportHeight: number): number {
  if (layout.pageCount === 0 || layout.slotHeight <= 0) return 1;
  const readingLine = Math.min(viewportHeight / 3, layout.slotHeight / 2);
  return clamp(Math.floor((scrollTop + readingLine) / layout.slotHeight) + 1, 1, layout.pageCount);
}

export function slotTop(layout: SlotLayout, page: number): number {
  return (clamp(page, 1, Math.max(1, layout.pageCount)) - 1) * layout.slotHeight;
}

function clamp(value: number, low: number, high: number): number {
  return Math.min(high, Math.max(low, value));
}
