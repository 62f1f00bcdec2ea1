import { useEffect, useRef, useState } from 'react';
import type { DocumentSource } from '../pdf/document-source.js';

interface PageCanvasProps {
  source: DocumentSource;
  page: number;
  /** The slot the page is fitted into, in CSS pixels: pages of another size than the first fit inside it. */
  box: { width: number; height: number };
  label: string;
}

/**
 * One page drawn at the screen's pixel density; drawing stops when the page scrolls away. Until it
 * is drawn (a large scan takes seconds) the sheet says so rather than staying blank white.
 */
export function PageCanvas({ source, page, box, label }: PageCanvasProps) {
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const [drawn, setDrawn] = useState(false);
  useEffect(() => {
    const canvas = canvasRef.current;
    if (!canvas || source.kind !== 'pdf') return;
    setDrawn(false);
    let cancelled = false;
    let cancelRender = () => undefined as void;
    void source.pdf.getPage(page).then((pdfPage) => {
      if (cancelled) return;
      const density = window.devicePixelRatio || 1;
      const natural = pdfPage.getViewport({ scale: 1 });
      const scale = Math.min(box.width / natural.width, box.height / natural.height);
      const viewport = pdfPage.getViewport({ scale: scale * density });
      canvas.width = Math.floor(viewport.width);
      canvas.height = Math.floor(viewport.height);
      canvas.style.width = `${Math.floor(viewport.width / density)}px`;
      canvas.style.height = `${Math.floor(viewport.height / density)}px`;
      const task = pdfPage.render({ canvas, viewport });
      cancelRender = () => task.cancel();
      task.promise.then(
        () => setDrawn(!cancelled),
        () => undefined, // a cancelled render rejects; nothing to report
      );
    }, () => setDrawn(true)); // a page pdf.js cannot find stays blank; its Markdown says what happened
    return () => {
      cancelled = true;
      cancelRender();
    };
  }, [source, page, box.width, box.height]);

  if (source.kind === 'none') return null;
  // a thumbnail has room for the spinner alone
  const drawing = !drawn && <PageDrawing page={page} words={box.width >= 160} />;
  if (source.kind === 'image') {
    return (
      <>
        <img className="page-image" src={source.url} alt={label} onLoad={() => setDrawn(true)} onError={() => setDrawn(true)} style={{ width: box.width, height: box.height, objectFit: 'contain' }} />
        {drawing}
      </>
    );
  }
  return (
    <>
      <canvas ref={canvasRef} className="page-canvas" role="img" aria-label={label} />
      {drawing}
    </>
  );
}

function PageDrawing({ page, words }: { page: number; words: boolean }) {
  if (!words) {
    return (
      <div className="page-drawing" aria-hidden="true">
        <span className="spinner" />
      </div>
    );
  }
  return (
    <div className="page-drawing" role="status">
      <span className="spinner" aria-hidden="true" />
      Drawing page {page}…
    </div>
  );
}
