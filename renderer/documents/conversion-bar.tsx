import { useEffect, useState } from 'react';
import { pagesToResume, type WorkspaceDocument } from '../../shared/workspace.js';
import { conversionProgress, formatDuration, formatRate } from '../state/conversion-progress.js';
import { ordinal, queuePosition } from '../state/document-status.js';
import { useActions, useFolio } from '../state/store-context.js';

/** How far the document's conversion has got, its speed and time left, with cancel and resume. */
export function ConversionBar({ document }: { document: WorkspaceDocument }) {
  const run = useFolio((state) => state.runs[document.id]);
  const position = useFolio((state) => (document.converting ? queuePosition(document.id, state.workspace.queue) : null));
  const ahead = useFolio((state) => state.workspace.documents.find((candidate) => candidate.id === state.workspace.queue?.[0])?.name);
  const { cancel, resume } = useActions();
  const now = useNow(document.converting);
  const progress = conversionProgress(document, run, now);
  const resumable = !document.converting && pagesToResume(document).length > 0;
  const percent = Math.round(progress.fraction * 100);

  const details = [`${progress.done} of ${progress.total} pages done`];
  if (progress.failed > 0) details.push(`${progress.failed} failed`);
  const stopped = resumable && progress.done + progress.failed > 0 && progress.done + progress.failed < progress.total;
  if (stopped) details.unshift('Stopped');
  if (position !== null) {
    // one document converts at a time: this one has no speed of its own yet
    details.push(`Queued (${ordinal(position)})${ahead ? `, after ${ahead}` : ''}`);
  } else if (document.converting) {
    // the engine getting ready (a model opening) says so rather than leave the bar silent for minutes
    if (run?.preparing) details.push(`${run.preparing}…`);
    else details.push(progress.pagesPerSecond === null ? 'measuring speed…' : formatRate(progress.pagesPerSecond));
    if (progress.secondsLeft !== null && progress.remaining > 0) details.push(`about ${formatDuration(progress.secondsLeft)} left`);
  }

  return (
    <div className="conversion-bar">
      <div className="progress" role="progressbar" aria-label="Conversion progress" aria-valuemin={0} aria-valuemax={100} aria-valuenow={percent}>
        <span className={document.converting ? 'progress-fill running' : 'progress-fill'} style={{ width: `${share(progress.done, progress.total)}%` }} />
        <span className="progress-fill failed" style={{ width: `${share(progress.failed, progress.total)}%` }} />
      </div>
      <span className="progress-text" aria-live="polite">
        {details.join(' · ')}
      </span>
      {document.converting ? (
        <button type="button" className="small" onClick={() => void cancel(document.id)}>
          Cancel
        </button>
      ) : (
        resumable && (
          <button type="button" className="small primary" onClick={() => void resume(document.id)}>
            {progress.done === 0 && progress.failed === 0 ? 'Convert' : 'Resume'}
          </button>
        )
      )}
    </div>
  );
}

function share(part: number, whole: number): number {
  return whole === 0 ? 0 : (part / whole) * 100;
}

/** The time, ticking each second while `running`, so the time left counts down between pages. */
function useNow(running: boolean): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!running) return;
    setNow(Date.now());
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [running]);
  return running ? now : Date.now();
}
