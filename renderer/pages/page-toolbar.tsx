import { useState } from 'react';
import { useActions, useFolio } from '../state/store-context.js';
import { ACTUAL_SIZE } from './page-pane.js';

const ZOOM_STEPS = [0.5, 0.67, 0.8, 1, 1.25, 1.5, 2, 3].map((factor) => factor * ACTUAL_SIZE);

/** Page navigation, zoom, thumbnails and the Markdown's source/preview switch. */
export function PageToolbar({ pageCount, fitScale }: { pageCount: number; fitScale: number }) {
  const { goToPage, setZoom, toggleThumbnails, toggleView } = useActions();
  const page = useFolio((state) => state.focus.page);
  const zoom = useFolio((state) => state.zoom);
  const thumbnails = useFolio((state) => state.showThumbnails);
  const view = useFolio((state) => state.view);
  const scale = zoom === 'fit-width' ? fitScale : zoom;
  const [typed, setTyped] = useState<string | null>(null);

  const zoomBy = (direction: 1 | -1) => {
    const next = direction > 0 ? ZOOM_STEPS.find((step) => step > scale + 1e-3) : [...ZOOM_STEPS].reverse().find((step) => step < scale - 1e-3);
    if (next) setZoom(next);
  };

  return (
    <div className="page-toolbar" role="toolbar" aria-label="Page view">
      <button type="button" className="icon" aria-label="Thumbnails" aria-pressed={thumbnails} onClick={toggleThumbnails}>
        ▦
      </button>
      <span className="divider" />
      <button type="button" className="icon" aria-label="Previous page" disabled={page <= 1} onClick={() => goToPage(page - 1, 'navigation')}>
        ‹
      </button>
      <label className="page-number">
        <span className="visually-hidden">Page number</span>
        <input
          type="text"
          inputMode="numeric"
          value={typed ?? String(page)}
          onFocus={(event) => event.target.select()}
          onChange={(event) => setTyped(event.target.value)}
          onBlur={() => setTyped(null)}
          onKeyDown={(event) => {
            if (event.key !== 'Enter') return;
            const wanted = Number(typed);
            if (Number.isInteger(wanted)) goToPage(wanted, 'navigation');
            setTyped(null);
          }}
        />
        <span>of {pageCount}</span>
      </label>
      <button type="button" className="icon" aria-label="Next page" disabled={page >= pageCount} onClick={() => goToPage(page + 1, 'navigation')}>
        ›
      </button>
      <span className="divider" />
      <button type="button" className="icon" aria-label="Zoom out" onClick={() => zoomBy(-1)}>
        −
      </button>
      <span className="zoom-level" aria-label="Zoom level">
        {Math.round((scale / ACTUAL_SIZE) * 100)}%
      </span>
      <button type="button" className="icon" aria-label="Zoom in" onClick={() => zoomBy(1)}>
        +
      </button>
      <button type="button" className="small" aria-pressed={zoom === 'fit-width'} onClick={() => setZoom('fit-width')}>
        Fit width
      </button>
      <span className="spacer" />
      <div className="segmented" role="group" aria-label="Markdown view">
        <button type="button" className="small" aria-pressed={view === 'preview'} onClick={() => view !== 'preview' && toggleView()}>
          Preview
        </button>
        <button type="button" className="small" aria-pressed={view === 'source'} onClick={() => view !== 'source' && toggleView()}>
          Source
        </button>
      </div>
    </div>
  );
}
