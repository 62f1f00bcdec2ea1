import { useMemo } from 'react';
import { useThrottled } from '../markdown/use-throttled.js';
import { tablesInMarkdown, type SourceTable } from './table-source.js';

/** The buttons follow typing a few times a second: the page is parsed for tables then, not per keystroke. */
const TABLES_REFRESH_MS = 250;

interface TableButtonsProps {
  markdown: string;
  pageNumber: number;
  onOpen(table: SourceTable): void;
}

/** One "Edit table" button per table of the page being edited, so a table is edited as cells rather than as its text. */
export function TableButtons({ markdown, pageNumber, onOpen }: TableButtonsProps) {
  const shown = useThrottled(markdown, TABLES_REFRESH_MS);
  const tables = useMemo(() => tablesInMarkdown(shown), [shown]);
  // a click finds its table again in the text as it is now: typing since the last refresh may have moved it
  if (tables.length === 0) return null;
  return (
    <div className="table-buttons" role="toolbar" aria-label={`Tables of page ${pageNumber}`}>
      {tables.map((table, index) => (
        <button key={table.from} type="button" className="small" title="Edit this table as cells (Ctrl+Alt+T with the cursor in a table)" onClick={() => onOpen(tablesInMarkdown(markdown)[index] ?? table)}>
          {tables.length === 1 ? 'Edit table' : `Edit table ${index + 1}`}
        </button>
      ))}
      <span className="table-buttons-hint">{tables.length === 1 ? 'A table on this page' : `${tables.length} tables on this page`}: edit as cells, not as text.</span>
    </div>
  );
}
