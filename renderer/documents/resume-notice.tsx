import { useEffect, useState } from 'react';
import { stoppedNoticeText, stoppedPartWay } from '../state/interrupted-work.js';
import { useActions, useFolio } from '../state/store-context.js';

/**
 * Once the workspace has loaded: the documents a restart found stopped part-way, with Resume for
 * all of them. It goes once they are resumed, or when dismissed.
 */
export function ResumeNotice() {
  const loaded = useFolio((state) => state.loaded);
  const workspace = useFolio((state) => state.workspace);
  const { resume } = useActions();
  const [atStart, setAtStart] = useState<string[] | null>(null);
  useEffect(() => {
    if (loaded && atStart === null) setAtStart(stoppedPartWay(workspace));
  }, [loaded, atStart, workspace]);

  // still stopped: not resumed since, nor removed
  const stillStopped = new Set(stoppedPartWay(workspace));
  const waiting = (atStart ?? []).filter((docId) => stillStopped.has(docId));
  if (waiting.length === 0) return null;
  return (
    <div className="notice info resume-notice" role="status">
      <span>{stoppedNoticeText(waiting.length)}</span>
      <button
        type="button"
        className="small primary"
        onClick={() => {
          setAtStart([]);
          // one after another: the queue converts them in this order
          void waiting.reduce<Promise<void>>((previous, docId) => previous.then(() => resume(docId)), Promise.resolve());
        }}
      >
        Resume {waiting.length === 1 ? 'it' : 'all'}
      </button>
      <button type="button" className="icon" aria-label="Dismiss" onClick={() => setAtStart([])}>
        ×
      </button>
    </div>
  );
}
