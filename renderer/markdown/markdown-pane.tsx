import { useEffect, useRef } from 'react';
import type { WorkspaceDocument } from '../../shared/workspace.js';
import { useActions, useFolio } from '../state/store-context.js';
import { PageSection } from './page-section.js';

/** Every page's Markdown in order; scrolling here moves the page pane, and the reverse. */
export function MarkdownPane({ document }: { document: WorkspaceDocument }) {
  const { goToPage } = useActions();
  const focus = useFolio((state) => state.focus);
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
      const page = sectionAt(scroller, scroller.scrollTop + scroller.clientHeight / 3);
      if (page !== null && page !== focusPage.current) goToPage(page, 'markdown');
    });
  };

  return (
    <div ref={scrollerRef} className="markdown-pane" onScroll={onScroll} role="region" aria-label="Markdown">
      {document.pages.map((page) => (
        <PageSection key={`${document.id}:${page.page}`} docId={document.id} pageNumber={page.page} />
      ))}
    </div>
  );
}

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
