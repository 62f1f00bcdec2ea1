import { useEffect, useRef } from 'react';
import type { WorkspaceDocument } from '../../shared/workspace.js';
import { lossPhrase, removalLoss } from '../state/removal-loss.js';
import { useActions } from '../state/store-context.js';
import { Modal } from './modal.js';

/**
 * Asks before a document with the person's own work (edits, review marks) leaves the list. Enter
 * removes (the removal can be undone), Escape or Cancel keeps it.
 */
export function RemoveDialog({ document }: { document: WorkspaceDocument }) {
  const { removeDocument, cancelRemove } = useActions();
  const confirm = useRef<HTMLButtonElement>(null);
  // after the dialog opened (the modal's own effect runs first), so Enter confirms
  useEffect(() => confirm.current?.focus(), []);
  return (
    <Modal
      title={`Remove ${document.name}?`}
      onClose={cancelRemove}
      actions={
        <>
          <button type="button" onClick={cancelRemove}>
            Cancel
          </button>
          <button type="submit" ref={confirm} className="danger" onClick={() => void removeDocument(document.id)}>
            Remove
          </button>
        </>
      }
    >
      <p>
        {document.name} has {lossPhrase(removalLoss(document))}. Removing it takes that work and its converted text out of Folio; the file itself stays where it is.
      </p>
      <p>You can undo the removal until Folio closes.</p>
    </Modal>
  );
}
