import { useMemo } from 'react';
import { tablesInMarkdown, type SourceTable } from './table-source.js';

interface TableButtonsProps {
  markdown: string;
  pageNumber: number;
  onOpen(table: SourceTable): void;
}

/** One "Edit table" button per table of the page being edited, so a table is edited as cells rather than as its text. */
export function TableButtons({ markdown, pageNumber, onOpen }: TableButtonsProps) {
  const tables = useMemo(() => tablesInMarkdown(markdown), [markdown]);
  if (tables.length === 0) return null;
  return (
    <div className="table-buttons" role="toolbar" aria-label={`Tables of page ${pageNumber}`}>
      {tables.map((table, index) => (
        <button key={table.from} type="button" className="small" title="Edit this table as cells (Ctrl+Alt+T with the cursor in a table)" onClick={() => onOpen(table)}>
          {tables.length === 1 ? 'Edit table' : `Edit table ${index + 1}`}
        </button>
      ))}
      <span className="table-buttons-hint">{tables.length === 1 ? 'A table on this page' : `${tables.length} tables on this page`}: edit as cells, not as text.</span>
    </div>
  );
}
