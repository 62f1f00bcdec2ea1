import type { EngineChoice } from '../../shared/engine-name.js';
import type { Settings } from '../../shared/settings.js';
import type { WorkspacePage } from '../../shared/workspace.js';
import { pageTroubles } from '../pages/page-review-queue.js';
import { useActions, useFolio } from '../state/store-context.js';

/**
 * Why a converted page wants a look, one reason a line ("Table rows have 3 and 5 cells…"), until it
 * is marked reviewed; and, where a model or a server is set up, a one-click re-run with it. A page cut
 * short says so on its own line (page-state-label.ts), so that flag is not said twice here.
 */
export function PageTroubleNote({ docId, page }: { docId: string; page: WorkspacePage }) {
  const { convert } = useActions();
  const settings = useFolio((state) => state.settings);
  if (page.reviewed) return null;
  const reasons = pageTroubles(page)
    .filter((trouble) => trouble.kind !== 'truncated')
    .map((trouble) => trouble.reason);
  if (reasons.length === 0) return null;
  const model = modelEngine(settings, page.result?.stats.engine);
  return (
    <div className="page-review" role="note" aria-label={`Page ${page.page} needs review`}>
      <span>Check this page:</span>
      <ul>
        {reasons.map((reason) => (
          <li key={reason}>{reason.charAt(0).toUpperCase() + reason.slice(1)}.</li>
        ))}
      </ul>
      {model && (
        <button type="button" className="small" title={model.title} onClick={() => void convert({ docId, pages: [page.page], engine: model.engine })}>
          Re-run with the model
        </button>
      )}
    </div>
  );
}

/**
 * The model engine a flagged page can be re-run with: the one chosen in settings if it is a model,
 * else the vision model if a package is set, else the remote server if one is; none otherwise.
 */
export function modelEngine(settings: Settings, readBy: string | undefined): { engine: EngineChoice; title: string } | null {
  const remote = settings.remoteServer && settings.remoteModel ? { engine: 'remote' as const, title: `Convert this page again with ${settings.remoteModel} at ${settings.remoteServer}` } : null;
  const vlm = settings.modelDir ? { engine: 'vlm' as const, title: 'Convert this page again with the vision model set in Settings' } : null;
  const chosen = settings.engine === 'remote' ? remote : settings.engine === 'vlm' ? vlm : null;
  // a page the model already read is re-run with the same model only when that is the one chosen
  return chosen ?? (readBy === 'vlm' ? remote : readBy === 'remote' ? vlm : (vlm ?? remote));
}
