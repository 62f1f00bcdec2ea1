import { useEffect, useState, type MouseEvent } from 'react';
import { useFolio } from '../state/store-context.js';

/**
 * In a narrow window the document list is a drawer over the panes, opened by a button in the
 * header (CSS shows the button and hides the list below the width where both fit). Choosing a
 * document, or Escape, closes it. With no document open there is nothing to hide it for: the drop
 * zone and its Open… stay in view above the empty window (`appClass`).
 */
export function useSidebarDrawer(): { open: boolean; appClass: string; toggle(): void; closeOnChoice(event: MouseEvent): void } {
  const [open, setOpen] = useState(false);
  const empty = useFolio((state) => state.workspace.documents.length === 0);
  const selected = useFolio((state) => state.selectedDocId);
  useEffect(() => setOpen(false), [selected]);
  useEffect(() => {
    if (!open) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') setOpen(false);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [open]);
  return {
    open,
    appClass: empty ? ' no-documents' : open ? ' sidebar-open' : '',
    toggle: () => setOpen((current) => !current),
    // the document already shown, chosen again, changes no selection but is a choice all the same
    closeOnChoice: (event) => {
      if (event.target instanceof Element && event.target.closest('.document-item')) setOpen(false);
    },
  };
}

export function SidebarToggle({ open, toggle }: { open: boolean; toggle(): void }) {
  const count = useFolio((state) => state.workspace.documents.length);
  if (count === 0) return null;
  return (
    <button type="button" className="sidebar-toggle" aria-expanded={open} aria-controls="document-sidebar" onClick={toggle}>
      Documents ({count})
    </button>
  );
}
