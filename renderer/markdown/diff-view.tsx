import { useMemo } from 'react';
import { editDiff, foldUnchanged } from './edit-diff.js';

interface DiffViewProps {
  engineMarkdown: string;
  editedMarkdown: string;
  page: number;
  /** What the lines are counted against; default: the engine's output. */
  against?: string;
  label?: string;
}

/** The person's edits against the engine's output (or one version against another), line by line with the changed words marked. */
export function DiffView({ engineMarkdown, editedMarkdown, page, against = "the engine's output", label = `Changes on page ${page}` }: DiffViewProps) {
  const diff = useMemo(() => editDiff(engineMarkdown, editedMarkdown), [engineMarkdown, editedMarkdown]);
  const rows = useMemo(() => foldUnchanged(diff.lines), [diff]);
  return (
    <figure className="diff-view" aria-label={label}>
      <figcaption>
        <span className="diff-count added">+{diff.added}</span> <span className="diff-count removed">−{diff.removed}</span> lines against {against}
      </figcaption>
      <pre>
        {rows.map((line, index) =>
          line.kind === 'gap' ? (
            <div key={index} className="diff-gap">
              ⋯ {line.hidden} unchanged {line.hidden === 1 ? 'line' : 'lines'}
            </div>
          ) : (
          <div key={index} className={`diff-line ${line.kind}`}>
            <span className="diff-sign" aria-hidden="true">{line.kind === 'added' ? '+' : line.kind === 'removed' ? '−' : ' '}</span>
            {line.kind !== 'same' && <span className="visually-hidden">{line.kind}: </span>}
            {line.spans.map((span, spanIndex) => (span.changed ? <mark key={spanIndex}>{span.text}</mark> : <span key={spanIndex}>{span.text}</span>))}
          </div>
          ),
        )}
      </pre>
    </figure>
  );
}
