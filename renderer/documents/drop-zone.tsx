import { forwardRef, useState } from 'react';
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
