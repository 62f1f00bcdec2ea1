import { memo, useCallback, useEffect, useRef } from 'react';
import { useActions, useFolio } from '../state/store-context.js';
import { PageSection } from './page-section.js';

/** Sections drawn either side of the page in view; the rest are empty boxes of their last height. */
const DRAWN_AROUND = 8;
/** The height of a page not drawn yet (px), until some page has been measured. */
const FIRST_GUESS = 240;

/**
 * Every page's Markdown in order; scrolling here moves the page pane, and the reverse. Only pages
 * near the one in view are drawn, so a 2,000-page document costs what twenty pages do; each drawn
 * section follows its own page, so a streamed token redraws one section.
 */
export const MarkdownPane = memo(function MarkdownPane({ docId, pageCount }: { docId: string; pageCount: number }) {
  const { goToPage } = useActions();
  const focus = useFolio((state) => state.focus);
  const editingPage = useFolio((state) => state.editingPage);
  const heights = useRef(new Map<number, number>());
  const rememberHeight = useCallback((page: number, height: number) => void heights.current.set(page, height), []);
  const first = Math.max(1, focus.page - DRAWN_AROUND);
  const last = Math.min(pageCount, focus.page + DRAWN_AROUND);
  const guess = averageHeight(heights.current) ?? FIRST_GUESS;
  const scrollerRef = useRef<HTMLDivElement>(null);
  const focusPage = useRef(focus.page);
  focusPage.current = focus.page;
  const frame = useRef(0);

  useEffect(() => {
    const scroller = scrollerRef.current;
    if (!scroller || focus.origin === 'markdown') return;
    const section = scroller.querySelector<HTMLElement>(`[data-page="${focus.page}"]`);
    if (section) scroller.scrollTop = section.offsetTop; // sections are positioned in the pane
  }, [focus]);

  const onScroll = () => {
    cancelAnimationFrame(frame.current);
    frame.current = requestAnimationFrame(() => {
      const scroller = scrollerRef.current;
      if (!scroller) return;
      // the section under the top edge: short sections must not hand the focus on to the next
      const page = sectionAt(scroller, scroller.scrollTop + 1);
      if (page !== null && page !== focusPage.current) goToPage(page, 'markdown');
    });
  };

  return (
    <div ref={scrollerRef} className="markdown-pane" onScroll={onScroll} role="region" aria-label="Markdown">
      {Array.from({ length: pageCount }, (_, index) => {
        const page = index + 1;
        return (page >= first && page <= last) || page === editingPage ? (
          <PageSection key={`${docId}:${page}`} docId={docId} pageNumber={page} onResize={rememberHeight} />
        ) : (
          <div key={`${docId}:${page}`} className="page-stub" data-page={page} style={{ height: heights.current.get(page) ?? guess }} />
        );
      })}
    </div>
  );
});

/** The page whose section spans the offset `y`, by binary search over the sections in order. */
function sectionAt(scroller: HTMLElement, y: number): number | null {
  const sections = scroller.children;
  let low = 0;
  let high = sections.length - 1;
  let found: HTMLElement | null = null;
  while (low <= high) {
    const middle = (low + high) >> 1;
    const section = sections[middle] as HTMLElement;
    if (section.offsetTop <= y) {
      found = section;
      low = middle + 1;
    } else high = middle - 1;
  }
  const page = Number(found?.dataset['page']);
  return Number.isInteger(page) ? page : null;
}

function averageHeight(heights: ReadonlyMap<number, number>): number | undefined {
  if (heights.size === 0) return undefined;
  let sum = 0;
  for (const height of heights.values()) sum += height;
  return sum / heights.size;
}
