import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { Modal } from '../dialogs/modal.js';
import { cellCovering, withCellText, withColumnInserted, withColumnRemoved, withHeaderRow, withRowInserted, withRowRemoved } from './table-edits.js';
import { cellRows, tableSourceOf, type GridCell, type SourceTable } from './table-source.js';

interface TableEditorProps {
  table: SourceTable;
  pageNumber: number;
  /** The table's new source; false when the page's text changed under it meanwhile. */
  onApply(source: string): boolean;
  onClose(): void;
}

interface Slot {
  row: number;
  column: number;
}

/**
 * A table of a page edited as cells: one text box per cell, Tab and Shift+Tab between them, Enter
 * to the cell below (Shift+Enter breaks the line in an HTML cell), rows and columns added and
 * removed beside the cell last focused. Apply writes the table back in the form it came in.
 */
export function TableEditor({ table: read, pageNumber, onApply, onClose }: TableEditorProps) {
  const [table, setTable] = useState(read);
  const [current, setCurrent] = useState<Slot>({ row: 0, column: 0 });
  const [stale, setStale] = useState(false);
  const boxes = useRef(new Map<string, HTMLTextAreaElement>());
  const [focusWanted, setFocusWanted] = useState<Slot | null>({ row: 0, column: 0 });
  // after the modal opened (its own effect runs first) and after a row or column moved the boxes
  useEffect(() => {
    if (!focusWanted) return;
    boxes.current.get(slotKey(focusWanted))?.focus();
    setFocusWanted(null);
  }, [focusWanted, table]);

  // the cell last focused, which rows and columns are added beside and removed through
  const focused = cellCovering(table, current.row, current.column) ?? { row: 0, column: 0, rowSpan: 1, colSpan: 1 };
  const change = (next: SourceTable, focus: Slot) => {
    setTable(next);
    const cell = cellCovering(next, Math.min(focus.row, next.rows - 1), Math.min(focus.column, next.columns - 1));
    const slot = cell ? { row: cell.row, column: cell.column } : { row: 0, column: 0 };
    setCurrent(slot);
    setFocusWanted(slot);
  };
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>, cell: GridCell) => {
    // the text box's own undo, not the page's (the app takes Ctrl+Z from the window)
    if ((event.ctrlKey || event.metaKey) && ['z', 'y'].includes(event.key.toLowerCase())) event.stopPropagation();
    if (event.key !== 'Enter' || (event.shiftKey && table.kind === 'html')) return;
    event.preventDefault();
    if (event.shiftKey) return;
    const below = cellCovering(table, cell.row + cell.rowSpan, cell.column);
    if (below) setFocusWanted({ row: below.row, column: below.column });
  };
  const apply = () => {
    if (onApply(tableSourceOf(table))) onClose();
    else setStale(true);
  };

  const kind = table.kind === 'html' ? 'HTML table' : 'Table';
  return (
    <Modal
      title={`Edit table on page ${pageNumber}`}
      onClose={onClose}
      actions={
        <>
          <button type="button" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="primary" disabled={stale} onClick={apply}>
            Apply
          </button>
        </>
      }
    >
      <p className="table-editor-note">
        {kind}, {table.rows} {table.rows === 1 ? 'row' : 'rows'} × {table.columns} {table.columns === 1 ? 'column' : 'columns'}. Cells left as they are keep their markup
        {table.kind === 'html' ? ' and spans' : ''}; Enter moves down{table.kind === 'html' ? ', Shift+Enter breaks a line' : ''}.
      </p>
      {stale && (
        <p className="table-editor-stale" role="alert">
          The page's text changed under this table. Cancel and open the table again.
        </p>
      )}
      <div className="table-editor-tools" role="toolbar" aria-label="Rows and columns">
        <button type="button" className="small" onClick={() => change(withRowInserted(table, focused.row + focused.rowSpan), { row: focused.row + focused.rowSpan, column: 0 })}>
          Add row
        </button>
        <button type="button" className="small" disabled={table.rows <= 1} onClick={() => change(withRowRemoved(table, focused.row), focused)}>
          Remove row
        </button>
        <button
          type="button"
          className="small"
          onClick={() => change(withColumnInserted(table, focused.column + focused.colSpan), { row: current.row, column: focused.column + focused.colSpan })}
        >
          Add column
        </button>
        <button type="button" className="small" disabled={table.columns <= 1} onClick={() => change(withColumnRemoved(table, focused.column), focused)}>
          Remove column
        </button>
        {table.kind === 'pipe' && (
          <label className="check">
            <input type="checkbox" checked={table.headerRow} onChange={(event) => setTable(withHeaderRow(table, event.target.checked))} />
            First row is the header
          </label>
        )}
      </div>
      <div className="table-editor">
        <table>
          <tbody>
            {cellRows(table).map((row, r) => (
              <tr key={r}>
                {row.map((cell) => {
                  const header = table.kind === 'pipe' ? table.headerRow && cell.row === 0 : cell.header;
                  return (
                    <td key={slotKey(cell)} rowSpan={cell.rowSpan} colSpan={cell.colSpan} className={header ? 'header' : undefined}>
                      <textarea
                        ref={(box) => {
                          if (box) boxes.current.set(slotKey(cell), box);
                          else boxes.current.delete(slotKey(cell));
                        }}
                        aria-label={`Row ${cell.row + 1}, column ${cell.column + 1}${header ? ', header' : ''}`}
                        rows={Math.max(1, cell.text.split('\n').length)}
                        value={cell.text}
                        onChange={(event) => setTable(withCellText(table, cell.row, cell.column, event.target.value))}
                        onFocus={() => setCurrent({ row: cell.row, column: cell.column })}
                        onKeyDown={(event) => onKeyDown(event, cell)}
                      />
                    </td>
                  );
                })}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </Modal>
  );
}

function slotKey(slot: Slot): string {
  return `${slot.row}:${slot.column}`;
}
