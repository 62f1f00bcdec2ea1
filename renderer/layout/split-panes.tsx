import { useLayoutEffect, useRef, useState, type ReactNode } from 'react';
import { PAGE_SHARE_BOUNDS } from '../../shared/settings.js';
import { useActions, useFolio } from '../state/store-context.js';
import { clampShare, DIVIDER_PX, shareAfterKey, shareAtPointer, splitTracks, STACK_BELOW_PX, THUMBNAILS_FROM_PX } from './pane-split.js';

interface SplitPanesProps {
  /** The thumbnail strip, or null when hidden; left out where the window is too narrow for it. */
  thumbnails: ReactNode;
  pages: ReactNode;
  markdown: ReactNode;
}

/**
 * Thumbnails, then the pages and the Markdown with a divider between them that the pointer drags
 * or the arrow keys move; where it was left is kept in the settings, so it survives a restart.
 * In a narrow window the pages stack above the Markdown.
 */
export function SplitPanes({ thumbnails, pages, markdown }: SplitPanesProps) {
  const { updateSettings } = useActions();
  const saved = useFolio((state) => state.settings.pageShare);
  const [dragged, setDragged] = useState<number | null>(null);
  const [width, setWidth] = useState(0);
  const panesRef = useRef<HTMLDivElement>(null);
  const splitRef = useRef<HTMLDivElement>(null);
  // the drag as the events see it: a move or release may come before React renders the last one's state
  const drag = useRef<number | null>(null);
  useLayoutEffect(() => {
    const element = panesRef.current;
    if (!element) return;
    const observer = new ResizeObserver(() => setWidth(element.clientWidth));
    observer.observe(element);
    return () => observer.disconnect();
  }, []);

  const stacked = width > 0 && width < STACK_BELOW_PX;
  const showThumbnails = thumbnails !== null && !stacked && width >= THUMBNAILS_FROM_PX;
  const room = () => {
    const split = splitRef.current;
    return split ? (stacked ? split.clientHeight : split.clientWidth) - DIVIDER_PX : 0;
  };
  const share = dragged ?? saved;
  const tracks = splitTracks(share);
  const keep = (next: number) => {
    if (next !== saved) void updateSettings({ pageShare: next });
  };

  return (
    <div ref={panesRef} className={`panes${showThumbnails ? ' with-thumbnails' : ''}`}>
      {showThumbnails && thumbnails}
      <div
        ref={splitRef}
        className={`pane-split${stacked ? ' stacked' : ''}${dragged !== null ? ' dragging' : ''}`}
        style={stacked ? { gridTemplateRows: tracks } : { gridTemplateColumns: tracks }}
      >
        {pages}
        <div
          className="pane-divider"
          role="separator"
          tabIndex={0}
          aria-label="Resize pages and Markdown"
          aria-orientation={stacked ? 'horizontal' : 'vertical'}
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={Math.round(share * 100)}
          aria-valuetext={`Pages ${Math.round(share * 100)} %, Markdown ${100 - Math.round(share * 100)} %`}
          title="Drag, or use the arrow keys, to share the room between the pages and the Markdown"
          onPointerDown={(event) => {
            if (event.button !== 0) return;
            event.preventDefault();
            event.currentTarget.setPointerCapture(event.pointerId);
            event.currentTarget.focus();
            drag.current = share;
            setDragged(share);
          }}
          onPointerMove={(event) => {
            if (drag.current === null || !splitRef.current) return;
            const box = splitRef.current.getBoundingClientRect();
            drag.current = stacked ? shareAtPointer(event.clientY, box.top, box.height) : shareAtPointer(event.clientX, box.left, box.width);
            setDragged(drag.current);
          }}
          onPointerUp={() => {
            const left = drag.current;
            if (left === null) return;
            drag.current = null;
            setDragged(null);
            keep(left);
          }}
          onPointerCancel={() => {
            drag.current = null;
            setDragged(null);
          }}
          onDoubleClick={() => keep(clampShare(PAGE_SHARE_BOUNDS.default, room()))}
          onKeyDown={(event) => {
            const next = shareAfterKey(share, event.key, stacked, room());
            if (next === null) return;
            event.preventDefault();
            keep(next);
          }}
        />
        {markdown}
      </div>
    </div>
  );
}
