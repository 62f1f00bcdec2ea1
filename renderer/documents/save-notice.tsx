import { saveNoticeText } from '../state/save-state.js';
import { useActions, useFolio } from '../state/store-context.js';

/**
 * Saves that failed, in red, until a save succeeds: read from the same state as the status bar's
 * save state, so the two always agree. No dismiss: the work is not on disk until it is saved.
 */
export function SaveNotice() {
  const failures = useFolio((state) => state.saveFailures);
  const { retrySaves } = useActions();
  if (failures.length === 0) return null;
  // main's own workspace save is retried by main on its next save; edits and review marks are sent again from here
  const retryable = failures.some((failure) => failure.kind !== 'workspace');
  return (
    <div className="notice save-notice" role="alert">
      <span>{saveNoticeText(failures)}</span>
      {retryable && (
        <button type="button" className="small" onClick={() => void retrySaves()}>
          Try again
        </button>
      )}
    </div>
  );
}
