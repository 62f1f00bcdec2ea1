import { useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import type { WorkspaceDocument } from '../../shared/workspace.js';
import type { DocumentSource } from '../pdf/document-source.js';
import { useActions, useFolio } from '../state/store-context.js';
import { PageCanvas } from './page-canvas.js';
import { PageOverlay } from './page-overlay.js';
import { pageAtScroll, slotTop, visiblePages, type SlotLayout } from './visible-range.js';

const PAGE_GAP = 16;
const SIDE_PADDING = 24;
/** 100 %: a point is 1/72 inch, a CSS pixel 1/96. */
export const ACTUAL_SIZE = 96 / 72;

interface PagePaneProps {
  document: WorkspaceDocument;
  source: DocumentSource;
}

/** The document's pages, drawn only where they are in view, in slots of one height. */
export function PagePane({ document, source }: PagePaneProps) {
  const { goToPage } = useActions();
  const zoom = useFolio((state) => state.zoom);
  const focus = useFolio((state) => state.focus);
  const scrollerRef = useRef<HTMLDivElement>(null);
  const [viewport, setViewport] = useState({ width: 0, height: 0, scrollTop: 0 });

  useLayoutEffect(() => {
    const scroller = scrollerRef.current;
    if (!scroller) return;
    const measure = () => setViewport({ width: scroller.clientWidth, height: scroller.clientHeight, scrollTop: scroller.scrollTop });
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(scroller);
    return () => observer.disconnect();
  }, []);

  const pageSize = source.kind === 'none' ? { width: 612, height: 792 } : source.firstPage;
  const scale = zoom === 'fit-width' ? Math.max(0.1, (viewport.width - 2 * SIDE_PADDING) / pageSize.width) : zoom;
  const layout: SlotLayout = useMemo(
    () => ({ pageCount: document.pages.length, slotHeight: Math.round(pageSize.height * scale) + PAGE_GAP }),
    [document.pages.length, pageSize.height, scale],
  );

  const focusPage = useRef(focus.page);
  focusPage.current = focus.page;
  const drawnSlotHeight = useRef(0);
  // follow a page another side moved to; after a zoom, keep the page being read in view
  useLayoutEffect(() => {
    const scroller = scrollerRef.current;
    if (!scroller || layout.slotHeight <= PAGE_GAP) return;
    const zoomed = drawnSlotHeight.current !== layout.slotHeight;
    drawnSlotHeight.current = layout.slotHeight;
    if (zoomed || focus.origin !== 'pages') scroller.scrollTop = slotTop(layout, focus.page);
  }, [focus, layout]);

  const onScroll = () => {
    const scroller = scrollerRef.current;
    if (!scroller) return;
    setViewport((current) => ({ ...current, scrollTop: scroller.scrollTop }));
    const page = pageAtScroll(layout, scroller.scrollTop, scroller.clientHeight);
    if (page !== focusPage.current) goToPage(page, 'pages');
  };

  const range = visiblePages(layout, viewport.scrollTop, viewport.height);
  const slots = [];
  for (let page = range.first; page <= range.last; page++) {
    const result = document.pages[page - 1]?.result;
    const box = { width: pageSize.width * scale, height: pageSize.height * scale };
    slots.push(
      <div key={page} className="page-slot" style={{ top: slotTop(layout, page), height: layout.slotHeight - PAGE_GAP }}>
        <div className="page-sheet" style={box}>
          {source.kind === 'none' ? <p className="page-unavailable">{source.reason}</p> : <PageCanvas source={source} page={page} box={box} label={`Page ${page}`} />}
          {result && <PageOverlay result={result} scale={Math.min(box.width / result.width, box.height / result.height)} />}
        </div>
      </div>,
    );
  }

  return (
    <div ref={scrollerRef} className="page-pane" onScroll={onScroll} aria-label="Pages" role="region" tabIndex={0}>
      {/* as wide as a zoomed page, so its left edge can be scrolled to as well as its right */}
      <div className="page-track" style={{ height: layout.pageCount * layout.slotHeight, width: Math.max(viewport.width, pageSize.width * scale + 2 * SIDE_PADDING) }}>
        {viewport.width > 0 && slots}
      </div>
    </div>
  );
}
