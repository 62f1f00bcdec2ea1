import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import type { WorkspaceDocument } from '../../shared/workspace.js';
import type { DocumentSource } from '../pdf/document-source.js';
import { useActions, useFolio } from '../state/store-context.js';
import { PageCanvas } from './page-canvas.js';
import { needsReview } from './page-review-queue.js';
import { pageStateLabel } from './page-state-label.js';
import { slotTop, visiblePages } from './visible-range.js';

const THUMB_WIDTH = 84;
const LABEL_HEIGHT = 22;
const GAP = 10;

/** Small pictures of the pages with their state; only those in view are drawn. */
export function ThumbnailStrip({ document, source }: { document: WorkspaceDocument; source: DocumentSource }) {
  const { goToPage } = useActions();
  const current = useFolio((state) => state.focus.page);
  const scrollerRef = useRef<HTMLDivElement>(null);
  const [view, setView] = useState({ scrollTop: 0, height: 0 });
  const size = source.kind === 'none' ? { width: 612, height: 792 } : source.firstPage;
  const scale = THUMB_WIDTH / size.width;
  const layout = { pageCount: document.pages.length, slotHeight: Math.round(size.height * scale) + LABEL_HEIGHT + GAP };

  useLayoutEffect(() => {
    const scroller = scrollerRef.current;
    if (!scroller) return;
    const measure = () => setView({ scrollTop: scroller.scrollTop, height: scroller.clientHeight });
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(scroller);
    return () => observer.disconnect();
  }, []);

  // keep the current page's thumbnail in view
  useEffect(() => {
    const scroller = scrollerRef.current;
    if (!scroller) return;
    const top = slotTop(layout, current);
    if (top < scroller.scrollTop || top + layout.slotHeight > scroller.scrollTop + scroller.clientHeight) {
      scroller.scrollTop = top - scroller.clientHeight / 2 + layout.slotHeight / 2;
    }
  }, [current, layout.slotHeight]);

  const range = visiblePages(layout, view.scrollTop, view.height, 4);
  const items = [];
  for (let page = range.first; page <= range.last; page++) {
    const state = document.pages[page - 1];
    const label = state ? pageStateLabel(state) : '';
    items.push(
      <li key={page} className="thumb-slot" style={{ top: slotTop(layout, page) }}>
        <button
          type="button"
          className={`thumb${page === current ? ' current' : ''}${state && needsReview(state) ? ' to-review' : ''}`}
          aria-label={`Page ${page}, ${label}`}
          aria-current={page === current ? 'page' : undefined}
          onClick={() => goToPage(page, 'navigation')}
        >
          <span className="thumb-picture" style={{ width: THUMB_WIDTH, height: Math.round(size.height * scale) }}>
            {source.kind !== 'none' && <PageCanvas source={source} page={page} box={{ width: THUMB_WIDTH, height: Math.round(size.height * scale) }} label="" />}
          </span>
          <span className="thumb-label">
            {state && needsReview(state) ? (
              <span className="review-mark-flag" aria-hidden="true" title="Needs review">
                !
              </span>
            ) : (
              <span className={`state-dot ${state?.state ?? 'pending'}${state?.reviewed ? ' reviewed' : ''}`} aria-hidden="true" />
            )}
            {page}
          </span>
        </button>
      </li>,
    );
  }
  return (
    <nav className="thumbnail-strip" aria-label="Page thumbnails">
      <div ref={scrollerRef} className="thumb-scroller" onScroll={(event) => {
          const scrollTop = event.currentTarget.scrollTop;
          setView((view) => ({ ...view, scrollTop }));
        }}>
        <ol className="thumb-track" style={{ height: layout.pageCount * layout.slotHeight }}>
          {view.height > 0 && items}
        </ol>
      </div>
    </nav>
  );
}
