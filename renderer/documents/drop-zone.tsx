import { forwardRef, useEffect, useState } from 'react';
import { useActions } from '../state/store-context.js';

export const ACCEPTED_FILES = '.pdf,.png,.jpg,.jpeg,.tif,.tiff,application/pdf,image/png,image/jpeg,image/tiff';

/** Where files are dropped, with an "Open…" button for those who would rather pick them. */
export const DropZone = forwardRef<HTMLInputElement, { compact: boolean }>(function DropZone({ compact }, inputRef) {
  const { openFiles } = useActions();
  const [over, setOver] = useState(false);
  return (
    <div
      className={`drop-zone${over ? ' over' : ''}${compact ? ' compact' : ''}`}
      onDragOver={(event) => {
        event.preventDefault();
        setOver(true);
      }}
      onDragLeave={() => setOver(false)}
      onDrop={(event) => {
        event.preventDefault();
        event.stopPropagation(); // the window takes drops too; one drop opens once
        setOver(false);
        void openFiles([...event.dataTransfer.files]);
      }}
      data-testid="drop-zone"
    >
      {!compact && <p className="drop-title">Drop PDFs or page images here</p>}
      <p className="drop-hint">{compact ? 'Drop files or' : 'PDF, PNG, JPEG or TIFF. Or'}</p>
      <label className="button primary">
        Open…
        <input
          ref={inputRef}
          type="file"
          accept={ACCEPTED_FILES}
          multiple
          className="visually-hidden"
          onChange={(event) => {
            const files = [...(event.target.files ?? [])];
            event.target.value = '';
            void openFiles(files);
          }}
        />
      </label>
    </div>
  );
});

/** Whether a drag holds files (not text or a link dragged from the page itself). */
function carriesFiles(event: DragEvent): boolean {
  return event.dataTransfer?.types.includes('Files') ?? false;
}

/**
 * The whole window lit up while files are dragged over it, since a drop anywhere opens them.
 * Enter and leave fire for every element crossed, so they are counted: the highlight goes when
 * the count is back to nought (the drag left the window), or on a drop or the end of the drag.
 */
export function WindowDropHighlight() {
  const [over, setOver] = useState(false);
  useEffect(() => {
    let depth = 0;
    const enter = (event: DragEvent) => {
      if (!carriesFiles(event)) return;
      depth++;
      setOver(true);
    };
    const leave = (event: DragEvent) => {
      if (!carriesFiles(event)) return;
      depth = Math.max(0, depth - 1);
      if (depth === 0) setOver(false);
    };
    const end = () => {
      depth = 0;
      setOver(false);
    };
    window.addEventListener('dragenter', enter);
    window.addEventListener('dragleave', leave);
    // capture: the drop zone stops a drop's propagation so that it opens once
    window.addEventListener('drop', end, true);
    window.addEventListener('dragend', end);
    return () => {
      window.removeEventListener('dragenter', enter);
      window.removeEventListener('dragleave', leave);
      window.removeEventListener('drop', end, true);
      window.removeEventListener('dragend', end);
    };
  }, []);
  if (!over) return null;
  return (
    <div className="window-drop-highlight" data-testid="window-drop-highlight" role="status">
      <p>Drop to open: PDF, PNG, JPEG or TIFF</p>
    </div>
  );
}
